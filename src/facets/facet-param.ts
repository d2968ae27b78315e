// The `facet` request parameter: a field name, or facet(name="x", disjunctive=true, ...).
import { QueryLangError } from '../odsql/index.js';
import { FACET_SORTS, type FacetRequest, type FacetSort } from './facet-fields.js';

/**
 * `facet` parameters one request may hold, as the public service bounds its lists (a page holds
 * at most 100 records): each facet is up to `limit` values per level, counted at most
 * KEYS_PER_STATEMENT to a statement, so 100 facets is at most 7 statements of plain keys and
 * their trees (more than any page shows; docs/access-control.md, Event loop, times them).
 */
export const MAX_FACETS = 100;

const fail = (problem: string): never => {
  throw new QueryLangError(problem, ['facet']);
};

const OPTIONS = {
  name: (v: string) => ({ name: v }),
  disjunctive: (v: string) => ({ disjunctive: flag('disjunctive', v) }),
  hierarchical: (v: string) => ({ hierarchical: flag('hierarchical', v) }),
  separator: (v: string) => (v.length ? { separator: v } : fail('facet() separator must not be empty')),
  sort: (v: string) =>
    FACET_SORTS.includes(v as FacetSort)
      ? { sort: v as FacetSort }
      : fail(`facet() sort must be one of ${FACET_SORTS.join(', ')}, got ${v}`),
  limit: (v: string) =>
    /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 10_000
      ? { limit: Number(v) }
      : fail(`facet() limit must be an integer from 1 to 10000, got ${v}`),
} satisfies Record<string, (value: string) => Partial<FacetRequest>>;

function flag(name: string, value: string): boolean {
  if (/^true$/i.test(value)) return true;
  if (/^false$/i.test(value)) return false;
  return fail(`facet() ${name} must be true or false, got ${value}`);
}

/** Parses one `facet` parameter. */
export function parseFacetParam(text: string): FacetRequest {
  const trimmed = text.trim();
  const call = /^facet\s*\((.*)\)$/is.exec(trimmed);
  if (!call) {
    const name = /^`([^`]+)`$/.exec(trimmed)?.[1] ?? trimmed;
    return name ? { name } : fail('facet expects a field name');
  }
  let request: Partial<FacetRequest> = {};
  const argument = /\s*(\w+)\s*=\s*(?:"((?:\\.|[^"\\])*)"|'((?:\\.|[^'\\])*)'|([^,\s)]+))\s*(,|$)/gy;
  const body = call[1]!;
  let match: RegExpExecArray | null;
  while (argument.lastIndex < body.length && (match = argument.exec(body))) {
    const key = match[1]!.toLowerCase();
    const value = (match[2] ?? match[3] ?? match[4] ?? '').replace(/\\(.)/g, '$1');
    const option = OPTIONS[key as keyof typeof OPTIONS] as ((v: string) => Partial<FacetRequest>) | undefined;
    if (!option) fail(`facet() has no argument ${key}: expected ${Object.keys(OPTIONS).join(', ')}`);
    request = { ...request, ...option!(value) };
  }
  if (argument.lastIndex < body.length && body.slice(argument.lastIndex).trim()) {
    fail(`facet() arguments could not be read from position ${argument.lastIndex}: ${body}`);
  }
  if (!request.name) fail('facet() needs name="field"');
  return request as FacetRequest;
}
