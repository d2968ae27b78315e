// Requests for the fuzz test: ODSQL clauses (test/api/fuzz-odsql.ts) sent to every endpoint family
// (v2.1 records, aggregations, facets, exports, the catalog, v2.0, v1 search and download).
import fc from 'fast-check';
import { MAX_FACETS } from '../../src/facets/facet-param.js';
import { applyMutations, clauses, literal, mutations, type Clauses, type FieldKinds } from './fuzz-odsql.js';
import { v1Query } from './fuzz-v1.js';

const V21 = '/api/explore/v2.1';

/** The small sample datasets (a few thousand rows each), by the kind of their fields. */
const DATASETS: Record<string, FieldKinds> = {
  airports: {
    num: ['latitude', 'longitude'],
    text: ['iata', 'name', 'city', 'state', 'country', 'location'],
    date: [],
    geo: ['geo_point_2d'],
    multi: [],
  },
  movies: {
    num: ['us_gross', 'production_budget', 'running_time_min', 'imdb_rating', 'rotten_tomatoes_rating'],
    text: ['title', 'mpaa_rating', 'distributor', 'director', 'creative_type'],
    date: ['release_date'],
    geo: [],
    multi: ['major_genre'],
  },
  'seattle-weather': {
    num: ['precipitation', 'temp_max', 'temp_min', 'wind'],
    text: ['weather'],
    date: ['date'],
    geo: [],
    multi: [],
  },
  earthquakes: {
    num: ['mag', 'time', 'felt', 'sig', 'dmin'],
    text: ['id', 'place', 'status', 'net', 'magtype', 'title'],
    date: [],
    geo: ['geo_point_2d', 'geo_shape'],
    multi: ['types'],
  },
};

/** The catalog's fields (v2.1 catalog queries). */
const CATALOG: FieldKinds = {
  num: ['records_count'],
  text: ['dataset_id', 'title', 'description', 'publisher', 'license', 'dcat.creator', 'default.language'],
  date: ['modified', 'data_processed'],
  geo: [],
  multi: ['theme', 'keyword', 'features'],
};

const FACETS: Record<string, readonly string[]> = {
  airports: ['state', 'country', 'location'],
  movies: ['mpaa_rating', 'distributor', 'major_genre', 'creative_type'],
  'seattle-weather': ['weather', 'date'],
  earthquakes: ['status', 'net', 'types', 'magtype'],
  catalog: ['theme', 'keyword', 'publisher', 'license', 'modified', 'features'],
};

/** A request: a path and its parameters (a parameter given twice is repeated). */
export type Request = { readonly path: string; readonly params: readonly (readonly [string, string])[] };

/** The URL of a request, its parameters encoded as a browser would. */
export const urlOf = (request: Request): string =>
  request.params.length
    ? `${request.path}?${new URLSearchParams(request.params.map(([k, v]) => [k, v])).toString()}`
    : request.path;

type Param = fc.Arbitrary<readonly [string, string] | null>;

const optional = (name: string, value: fc.Arbitrary<string>, weight = 1): Param =>
  fc.option(
    value.map((v) => [name, v] as const),
    { freq: 1 + weight },
  );

/** refine/exclude values: `facet:value` in v2, a value of `refine.facet` in v1. */
const facetValue = fc.oneof(
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
const refinement = (facets: readonly string[]) =>
  fc.tuple(fc.constantFrom(...facets), facetValue).map(([f, v]) => `${f}:${v}`);
const facetDeclaration = (facets: readonly string[]) =>
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

const present = (params: (readonly [string, string] | null)[]) =>
  params.filter((p): p is readonly [string, string] => p !== null);

const smallInt = fc.oneof(
  fc.integer({ min: 0, max: 20 }).map(String),
  fc.constantFrom('-1', '100', '101', '10000', 'x', '1e3', '99999999999999999999'),
);

/** The v2 query parameters of one dataset (or the catalog), a `group_by` always when `grouped`. */
function v2Params(
  c: Clauses,
  facets: readonly string[],
  grouped: boolean,
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
    )
    .map(present);
}

const CLAUSES = new Map(Object.entries(DATASETS).map(([id, fields]) => [id, clauses(fields)]));
const CATALOG_CLAUSES = clauses(CATALOG);

/** Flights (3M rows): records only, with a small limit and cheap filters. */
const flightsRequest = fc
  .tuple(
    fc.constantFrom('origin', 'destination, delay', 'date, distance', '*'),
    fc.constantFrom(
      "origin = 'SFO'",
      'delay > 100',
      "date >= date'2001-06-01'",
      "destination = 'LAX' and distance < 500",
    ),
    fc.integer({ min: 0, max: 10 }),
  )
  .map(([select, where, limit]): Request => ({
    path: `${V21}/catalog/datasets/flights/records`,
    params: [
      ['select', select],
      ['where', where],
      ['limit', String(limit)],
    ] as const,
  }));

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
const cleanOrHostile = (request: fc.Arbitrary<Request>) => fc.oneof(request, hostile(request));

/**
 * Many facets in one request (v2.1 and v1): up to MAX_FACETS and past it (a 400), the dataset's
 * facet fields and range() of its numbers.
 */
function manyFacets(id: string): fc.Arbitrary<Request> {
  const names = [...FACETS[id]!, ...(DATASETS[id]?.num ?? []).map((n) => `range(${n}, WIDTH)`)];
  return fc
    .tuple(fc.constantFrom(17, MAX_FACETS, MAX_FACETS + 1, 2 * MAX_FACETS), fc.nat(), fc.boolean())
    .map(([n, seed, v1]) => {
      const facets = Array.from({ length: n }, (_, i) =>
        names[(seed + i) % names.length]!.replace('WIDTH', String(1 + ((seed + i) % 50))),
      );
      return v1
        ? {
            path: '/api/records/1.0/search',
            params: [
              ['dataset', id] as const,
              ['rows', '0'] as const,
              ...facets.map((f) => ['facet', f] as const),
            ],
          }
        : { path: `${V21}/catalog/datasets/${id}/facets`, params: facets.map((f) => ['facet', f] as const) };
    });
}

/**
 * Requests of every endpoint family over the sample datasets `ids` (all of them unless told) and
 * the catalog, weighted towards the v2.1 records and aggregations; `flights` adds cheap requests of
 * the 3M flights.
 */
export function endpointRequests(
  ids: readonly string[] = Object.keys(DATASETS),
  flights = true,
): fc.Arbitrary<Request> {
  const dataset = fc.constantFrom(...ids);

  const datasetRequest = (
    build: (id: string, c: Clauses, facets: readonly string[]) => fc.Arbitrary<Request>,
  ) => dataset.chain((id) => build(id, CLAUSES.get(id)!, FACETS[id]!));

  /** v2.1 (or v2.0, by `prefix`) records of a dataset, grouped or not. */
  const records = (prefix: string, grouped: boolean) =>
    datasetRequest((id, c, facets) =>
      v2Params(c, facets, grouped).map((params) => ({
        path: `${prefix}/catalog/datasets/${id}/records`,
        params,
      })),
    );

  const facetRequest = datasetRequest((id, c, facets) =>
    fc
      .tuple(
        fc.array(facetDeclaration(facets), { maxLength: 2 }),
        optional('where', c.where),
        optional('refine', refinement(facets)),
      )
      .map(([declared, ...rest]) => ({
        path: `${V21}/catalog/datasets/${id}/facets`,
        params: [...declared.map((f) => ['facet', f] as const), ...present(rest)],
      })),
  );

  /** Exports stay small: a row limit (forced to 5 when missing or large) and a cheap format. */
  const exportRequest = datasetRequest((id, c, facets) =>
    fc
      .tuple(
        v2Params(c, facets, false),
        fc.constantFrom('csv', 'json', 'jsonl', 'geojson'),
        fc.integer({ min: 0, max: 5 }),
      )
      .map(([params, format, limit]) => ({
        path: `${V21}/catalog/datasets/${id}/exports/${format}`,
        params: [...params.filter(([name]) => name !== 'limit'), ['limit', String(limit)] as const],
      })),
  );

  const catalogRequest = fc.oneof(
    fc
      .tuple(v2Params(CATALOG_CLAUSES, FACETS.catalog!, false), fc.constantFrom('datasets', 'facets'))
      .map(([params, what]) => ({ path: `${V21}/catalog/${what}`, params })),
    v2Params(CATALOG_CLAUSES, FACETS.catalog!, true).map((params) => ({
      path: `${V21}/catalog/datasets`,
      params,
    })),
    fc.tuple(dataset, CATALOG_CLAUSES.select).map(([id, select]) => ({
      path: `${V21}/catalog/datasets/${id}`,
      params: [['select', select] as const],
    })),
  );

  /** v2.0's own operations under either path: aggregates, the catalog, a dataset (records above). */
  const v20 = fc.constantFrom('/api/v2', '/api/explore/v2.0');
  const v20Request = fc.oneof(
    datasetRequest((id, c, facets) =>
      fc
        .tuple(v20, v2Params(c, facets, true))
        .map(([p, params]) => ({ path: `${p}/catalog/datasets/${id}/aggregates`, params })),
    ),
    fc
      .tuple(v20, v2Params(CATALOG_CLAUSES, FACETS.catalog!, true), fc.constantFrom('aggregates', 'datasets'))
      .map(([p, params, what]) => ({ path: `${p}/catalog/${what}`, params })),
    fc.tuple(v20, dataset).map(([p, id]) => ({ path: `${p}/catalog/datasets/${id}`, params: [] })),
  );

  const v1Request = dataset.chain((id) => {
    const facets = FACETS[id]!;
    const v1Params = fc.tuple(
      optional('q', v1Query(DATASETS[id]!, CLAUSES.get(id)!, facetValue), 4),
      optional('facet', fc.constantFrom(...facets)),
      fc.option(
        fc
          .tuple(fc.constantFrom(...facets), facetValue, fc.boolean())
          .map(([f, v, refine]): readonly [string, string] => [`${refine ? 'refine' : 'exclude'}.${f}`, v]),
      ),
      optional(
        'sort',
        fc.oneof(
          fc.constantFrom(...Object.values(DATASETS[id]!).flat()).map((f) => `-${f}`),
          fc.constantFrom('dist', '-dist', 'dist,-dist'),
        ),
      ),
      optional('q.extra', v1Query(DATASETS[id]!, CLAUSES.get(id)!, facetValue), 0),
      optional('lang', fc.constantFrom('FR', 'En', 'xx'), 0),
      optional('geofilter.distance', fc.constantFrom('40,-100,100000', '47.6,-122.3,1e9', '-47.6,122.3,0')),
      optional('geofilter.polygon', fc.constantFrom('(30,-125),(30,-100),(50,-100)', '(0,0),(1,1),(0,0)')),
    );
    return fc.oneof(
      fc
        .tuple(
          v1Params,
          optional('rows', fc.oneof(smallInt, fc.constant('-1'))),
          optional('start', smallInt, 0),
        )
        .map(([p, ...page]) => ({
          path: '/api/records/1.0/search',
          params: [['dataset', id] as const, ...present([...p, ...page])],
        })),
      fc
        .tuple(v1Params, fc.constantFrom('csv', 'json', 'geojson'), fc.integer({ min: 0, max: 5 }))
        .map(([p, format, rows]) => ({
          path: '/api/records/1.0/download',
          params: [
            ['dataset', id] as const,
            ['format', format] as const,
            ['rows', String(rows)] as const,
            ...present([...p]),
          ],
        })),
      fc
        .tuple(
          optional('q', v1Query(CATALOG, CATALOG_CLAUSES, facetValue), 4),
          optional('refine.theme', facetValue),
          optional('rows', smallInt),
        )
        .map((p) => ({ path: '/api/datasets/1.0/search', params: present(p) })),
    );
  });

  return fc.oneof(
    { weight: 6, arbitrary: cleanOrHostile(records(V21, false)) },
    { weight: 4, arbitrary: cleanOrHostile(records(V21, true)) },
    { weight: 2, arbitrary: cleanOrHostile(facetRequest) },
    { weight: 2, arbitrary: cleanOrHostile(exportRequest) },
    { weight: 2, arbitrary: cleanOrHostile(catalogRequest) },
    { weight: 1, arbitrary: cleanOrHostile(records('/api/v2', false)) },
    { weight: 1, arbitrary: cleanOrHostile(records('/api/explore/v2.0', true)) },
    { weight: 2, arbitrary: cleanOrHostile(v20Request) },
    { weight: 3, arbitrary: cleanOrHostile(v1Request) },
    { weight: 1, arbitrary: fc.constantFrom(...ids).chain(manyFacets) },
    ...(flights ? [{ weight: 1, arbitrary: cleanOrHostile(flightsRequest) }] : []),
  );
}

/** Requests over every sample dataset. */
export const requests: fc.Arbitrary<Request> = endpointRequests();
