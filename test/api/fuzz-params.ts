// The fuzz test's requests and their parameters: a request's shape and URL, the v2 query
// parameters of one dataset (ODSQL clauses, refinements, pages, zones), and the mutations that
// make any request hostile. The routes are built in fuzz-requests.ts, fuzz-v20-requests.ts and
// fuzz-v1.ts.
import fc from 'fast-check';
import { applyMutations, literal, mutations, type Clauses } from './fuzz-odsql.js';

/** A request: a path and its parameters (a parameter given twice is repeated). */
export type Request = { readonly path: string; readonly params: readonly (readonly [string, string])[] };

/** The URL of a request, its parameters encoded as a browser would. */
export const urlOf = (request: Request): string =>
  request.params.length
    ? `${request.path}?${new URLSearchParams(request.params.map(([k, v]) => [k, v])).toString()}`
    : request.path;

/** A parameter that may be missing. */
export type Param = fc.Arbitrary<readonly [string, string] | null>;

/** `name=value`, absent about once in `2 + weight` times. */
export const optional = (name: string, value: fc.Arbitrary<string>, weight = 1): Param =>
  fc.option(
    value.map((v) => [name, v] as const),
    { freq: 1 + weight },
  );

/** The parameters given, the missing ones left out. */
export const present = (params: (readonly [string, string] | null)[]) =>
  params.filter((p): p is readonly [string, string] => p !== null);

/** Page numbers: small ones, and the bounds and non-numbers around them. */
export const smallInt = fc.oneof(
  fc.integer({ min: 0, max: 20 }).map(String),
  fc.constantFrom('-1', '100', '101', '10000', 'x', '1e3', '99999999999999999999'),
);

/** refine/exclude values: `facet:value` in v2, a value of `refine.facet` in v1. */
export const facetValue = fc.oneof(
  fc.constantFrom(
    'CA',
    'Drama',
    'R',
    'sun',
    'rain',
    'Transport',
    '2014',
    '2015/06',
    '2012-06-15',
    'United States/CA',
  ),
  fc.string({ maxLength: 8, unit: 'grapheme' }),
  literal,
);

/** A v2 refinement, `facet:value`. */
export const refinement = (facets: readonly string[]) =>
  fc.tuple(fc.constantFrom(...facets), facetValue).map(([f, v]) => `${f}:${v}`);

/** A v2 facet declaration: a name, or `facet(name=..., sort=..., limit=..., disjunctive=...)`. */
export const facetDeclaration = (facets: readonly string[]) =>
  fc.oneof(
    fc.constantFrom(...facets),
    fc
      .tuple(
        fc.constantFrom(...facets),
        fc.constantFrom('-count', 'alphanum', '-alphanum', 'count', 'x'),
        fc.integer({ min: -1, max: 20 }),
        fc.boolean(),
      )
      .map(([n, s, l, d]) => `facet(name="${n}", sort="${s}", limit=${l}, disjunctive=${d})`),
  );

/**
 * The v2 query parameters of one dataset (or the catalog), a `group_by` always when `grouped`;
 * `qv1` (v1's query language, which v2 reads too) when its generator is given.
 */
export function v2Params(
  c: Clauses,
  facets: readonly string[],
  grouped: boolean,
  qv1: fc.Arbitrary<string> | null = null,
): fc.Arbitrary<(readonly [string, string])[]> {
  return fc
    .tuple(
      optional('select', grouped ? c.aggregates : c.select, 2),
      optional('where', c.where, 3),
      optional('where', c.where),
      grouped ? c.groupBy.map((g) => ['group_by', g] as const) : fc.constant(null),
      optional('order_by', c.orderBy),
      optional('limit', smallInt),
      optional('offset', smallInt, 0),
      optional('refine', refinement(facets)),
      optional('exclude', refinement(facets), 0),
      optional('timezone', fc.constantFrom('UTC', 'Europe/Paris', 'Pacific/Chatham')),
      optional('lang', fc.constantFrom('fr', 'en'), 0),
      qv1 ? optional('qv1', qv1, 0) : fc.constant(null),
    )
    .map(present);
}

/** Parameters no request of the sample portal should accept, for hostile requests. */
const BAD_PARAMS = fc.constantFrom(
  ...([
    ['limit', '-2'],
    ['limit', '1e3'],
    ['limit', '99999999999999999999'],
    ['offset', '10000'],
    ['rows', 'x'],
    ['timezone', 'Mars/Olympus'],
    ['lang', 'xx'],
    ['refine', '__proto__:x'],
    ['exclude', 'nope:1'],
    ['facet', 'constructor'],
    ['facet', 'facet(name="state", sort="x", limit=0)'],
    ['refine.valueOf', 'x'],
    ['geofilter.distance', 'a,b'],
    ['geofilter.polygon', '(1,2)'],
    ['select', '`__proto__`'],
    ['include_links', 'maybe'],
  ] as const),
);

/** A request made hostile: one parameter's value mutated, or a bad parameter added. */
function hostile(request: fc.Arbitrary<Request>): fc.Arbitrary<Request> {
  return fc
    .tuple(request, fc.nat(), mutations, fc.option(BAD_PARAMS, { freq: 2 }))
    .map(([r, which, ms, bad]) => {
      const params = r.params.map(([name, value], i) =>
        i === which % r.params.length
          ? ([name, applyMutations(value, ms)] as const)
          : ([name, value] as const),
      );
      return { path: r.path, params: bad ? [...params, bad] : params };
    });
}

/** A request as generated from the grammar (half the time), else made hostile. */
export const cleanOrHostile = (request: fc.Arbitrary<Request>) => fc.oneof(request, hostile(request));
