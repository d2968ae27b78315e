// v2.0's requests for the fuzz test, under both of its paths (`/api/v2`, `/api/explore/v2.0`): its
// records (grouped or not), aggregates, the catalog, the lookups of a dataset and a record, the
// facets, exports and attachments it shares with v2.1, the gone query operations and the other
// sources (monitoring, the data network); the clauses name v2.0's technical fields too.
import fc from 'fast-check';
import { v1Query } from './fuzz-v1.js';
import { facetDeclaration, facetValue, optional, present, v2Params, type Request } from './fuzz-params.js';
import { CATALOG_CLAUSES, DATASETS, FACETS, V20_CLAUSES } from './fuzz-sample.js';

const PREFIX = fc.constantFrom('/api/v2', '/api/explore/v2.0');

/** A v2.0 request over one of `ids`: `route` builds its path below the prefix and its parameters. */
function over(ids: readonly string[], route: (id: string) => fc.Arbitrary<Request>): fc.Arbitrary<Request> {
  return fc
    .tuple(PREFIX, fc.constantFrom(...ids).chain(route))
    .map(([prefix, r]) => ({ path: `${prefix}${r.path}`, params: r.params }));
}

/** The clauses of dataset `id` with v2.0's technical fields, and qv1 over them. */
const paramsOf = (id: string, grouped: boolean) =>
  v2Params(
    V20_CLAUSES.get(id)!,
    FACETS[id]!,
    grouped,
    v1Query(DATASETS[id]!, V20_CLAUSES.get(id)!, facetValue),
  );

/** The v2.0 routes of a dataset of `ids`. */
function datasetRoutes(ids: readonly string[]): fc.Arbitrary<Request> {
  const at = (id: string, tail = '') => `/catalog/datasets/${id}${tail}`;
  return fc.oneof(
    {
      weight: 3,
      arbitrary: over(ids, (id) =>
        fc
          .boolean()
          .chain((g) => paramsOf(id, g))
          .map((params) => ({ path: at(id, '/records'), params })),
      ),
    },
    {
      weight: 3,
      arbitrary: over(ids, (id) =>
        paramsOf(id, true).map((params) => ({ path: at(id, '/aggregates'), params })),
      ),
    },
    {
      weight: 1,
      arbitrary: over(ids, (id) =>
        fc
          .tuple(
            fc.array(facetDeclaration(FACETS[id]!), { maxLength: 2 }),
            optional('where', V20_CLAUSES.get(id)!.where),
          )
          .map(([declared, where]) => ({
            path: at(id, '/facets'),
            params: [...declared.map((f) => ['facet', f] as const), ...present([where])],
          })),
      ),
    },
    {
      weight: 1,
      arbitrary: over(ids, (id) =>
        fc
          .tuple(
            paramsOf(id, false),
            fc.constantFrom('csv', 'json', 'geojson', 'gpx'),
            fc.integer({ min: 0, max: 5 }),
          )
          .map(([params, format, limit]) => ({
            path: at(id, `/exports/${format}`),
            params: [...params.filter(([name]) => name !== 'limit'), ['limit', String(limit)] as const],
          })),
      ),
    },
    {
      weight: 1,
      arbitrary: over(ids, (id) =>
        fc
          .tuple(
            fc.constantFrom('', '/records/SFO', '/records/nope', '/exports', '/attachments', '/query'),
            optional('select', V20_CLAUSES.get(id)!.select),
          )
          .map(([tail, select]) => ({ path: at(id, tail), params: present([select]) })),
      ),
    },
  );
}

/** The v2.0 routes of the catalog and of the other sources (an anonymous caller: monitoring is a 403). */
const catalogRoutes: fc.Arbitrary<Request> = fc
  .tuple(
    PREFIX,
    fc.constantFrom('catalog', 'catalog', 'catalog', 'monitoring', 'opendatasoft'),
    fc.constantFrom(
      'datasets',
      'aggregates',
      'facets',
      'exports',
      'query',
      '',
      'datasets/ods-api-monitoring/records',
      'datasets/ods-api-monitoring/aggregates',
    ),
    fc.boolean().chain((grouped) => v2Params(CATALOG_CLAUSES, FACETS.catalog!, grouped)),
  )
  .map(([prefix, source, what, params]) => ({
    path: `${prefix}/${source}${what ? `/${what}` : ''}`,
    params,
  }));

/** Requests of every v2.0 route over the datasets `ids`, weighted towards records and aggregates. */
export function v20Requests(ids: readonly string[]): fc.Arbitrary<Request> {
  return fc.oneof({ weight: 4, arbitrary: datasetRoutes(ids) }, { weight: 1, arbitrary: catalogRoutes });
}
