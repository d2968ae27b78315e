// Query-string parameters as zod schemas: one builder per kind of value, messages in the public
// service's wording, and one `parseParams` that turns the first problem into a 400. Each builder
// carries its JSON Schema as zod metadata, from which the OpenAPI document is generated.
import { z } from 'zod';
import { MAX_FACETS } from '../facets/facet-param.js';
import { canonicalTimeZone } from '../odsql/index.js';
import { ApiError, invalidParameter } from '../http/errors.js';

type Raw = string | string[] | undefined;

/** The last occurrence of a parameter given once or several times. */
function last(raw: Raw): string | undefined {
  return Array.isArray(raw) ? raw[raw.length - 1] : raw;
}

/** Any query-string value, absent included: each builder below gives it a meaning. */
function raw() {
  return z.custom<Raw>().optional();
}

function fail(ctx: z.RefinementCtx, name: string, detail: string): never {
  ctx.addIssue({
    code: 'custom',
    message: `Invalid value for ${name} API parameter: ${detail}`,
    input: undefined,
  });
  return z.NEVER;
}

/** An integer within [min, max] (max null = unbounded), with a default when absent. */
export function integer(name: string, options: { min: number; max: number | null; default: number }) {
  const { min, max } = options;
  const expected = max === null ? `${name} >= ${min}` : `${min} <= ${name} <= ${max}`;
  return raw()
    .transform((raw, ctx): number => {
      const text = last(raw);
      if (text === undefined || text === '') return options.default;
      const value = /^-?\d+$/.test(text.trim()) ? Number(text) : NaN;
      if (!Number.isSafeInteger(value))
        return fail(ctx, name, `${text} was found but an integer is expected.`);
      if (value < min || (max !== null && value > max))
        return fail(ctx, name, `${text} was found but ${expected} is expected.`);
      return value;
    })
    .meta({ type: 'integer', minimum: min, ...(max !== null && { maximum: max }), default: options.default });
}

/** A boolean parameter's value: `true`/`false` in any case, also 1/0; null for anything else. */
export function booleanValue(text: string): boolean | null {
  const lower = text.toLowerCase();
  return lower === 'true' || lower === '1' ? true : lower === 'false' || lower === '0' ? false : null;
}

/** The detail of a 400 for a boolean parameter given another value. */
export const notBoolean = (text: string): string => `${text} was found but true or false is expected.`;

/** `true`/`false` (any case, also 1/0), with a default when absent. */
export function boolean(name: string, fallback: boolean) {
  return raw()
    .transform((raw, ctx): boolean => {
      const text = last(raw);
      if (text === undefined || text === '') return fallback;
      return booleanValue(text) ?? fail(ctx, name, notBoolean(text));
    })
    .meta({ type: 'boolean', default: fallback });
}

/** A comma-separated list of values of a closed list (include_exports); undefined when absent. */
export function listOf<const T extends string>(name: string, values: readonly T[]) {
  return raw()
    .transform((raw, ctx): T[] | undefined => {
      const text = last(raw);
      if (text === undefined || text === '') return undefined;
      const items = text.split(',').map((v) => v.trim());
      const wrong = items.find((v) => !(values as readonly string[]).includes(v));
      if (wrong === undefined) return items as T[];
      return fail(
        ctx,
        name,
        `${wrong} was found but a comma-separated list of ${values.join(', ')} is expected.`,
      );
    })
    .meta({ type: 'string', description: `Comma-separated list of: ${values.join(', ')}` });
}

/** A free string (its last occurrence), or undefined. */
export function text() {
  return raw()
    .transform((raw): string | undefined => last(raw) || undefined)
    .meta({ type: 'string' });
}

/**
 * A parameter that may repeat (`where`, `refine`, `exclude`, `facet`): every non-empty occurrence,
 * at most `bound.max` of them when bounded.
 */
export function repeated(bound?: { name: string; max: number }) {
  return raw()
    .transform((raw, ctx): string[] => {
      const values = raw === undefined ? [] : [raw].flat().filter((v) => v !== '');
      if (bound && values.length > bound.max) {
        return fail(
          ctx,
          bound.name,
          `${values.length} ${bound.name} parameters were found but at most ${bound.max} are expected.`,
        );
      }
      return values;
    })
    .meta({ type: 'array', items: { type: 'string' }, ...(bound && { maxItems: bound.max }) });
}

/** The `facet` parameters of a request (declarations or facets to count): at most MAX_FACETS. */
export const facetList = () => repeated({ name: 'facet', max: MAX_FACETS });

/** One of a closed list of values, read in any case (`lang=FR` is `fr`), or the default. */
export function oneOf<const T extends string>(name: string, values: readonly T[], fallback: T | undefined) {
  return raw()
    .transform((raw, ctx): T | undefined => {
      const value = last(raw);
      if (value === undefined || value === '') return fallback;
      const found =
        values.find((v) => v === value) ?? values.find((v) => v.toLowerCase() === value.toLowerCase());
      if (found !== undefined) return found;
      return fail(ctx, name, `${value} was found but one of ${values.join(', ')} is expected.`);
    })
    .meta({ type: 'string', enum: [...values], ...(fallback !== undefined && { default: fallback }) });
}

/** An IANA (CLDR) time zone name or one of its aliases, as ODSQL reads it; UTC by default. */
export function timezone() {
  return raw()
    .transform((raw, ctx): string => {
      const value = last(raw);
      if (value === undefined || value === '') return 'UTC';
      if (canonicalTimeZone(value) !== null) return value;
      return fail(
        ctx,
        'timezone',
        `${value} was found but a time zone name such as Europe/Paris is expected.`,
      );
    })
    .meta({ type: 'string', default: 'UTC', description: 'IANA time zone name' });
}

/** Validates a query string against an operation's schema; the first problem becomes a 400. */
export function parseParams<S extends z.ZodType>(schema: S, query: Record<string, Raw>): z.output<S> {
  const result = schema.safeParse(query);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const name = issue?.path.join('.') ?? 'unknown';
  const message = issue?.message ?? '';
  throw message.startsWith('Invalid value for')
    ? new ApiError(400, 'InvalidRESTParameterError', message)
    : invalidParameter(name, message);
}
