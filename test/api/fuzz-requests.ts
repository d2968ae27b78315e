// Requests for the fuzz test: ODSQL clauses (test/api/fuzz-odsql.ts) sent to every endpoint family
// of the sample portal (test/api/fuzz-sample.ts): v2.1 records, aggregations, facets, exports and
// the catalog here, v2.0's routes (fuzz-v20-requests.ts), v1's and the portal's download links
// (fuzz-v1.ts), each clean or made hostile (fuzz-params.ts).
import fc from 'fast-check';
import { MAX_FACETS } from '../../src/facets/facet-param.js';
import type { Clauses } from './fuzz-odsql.js';
import {
  cleanOrHostile,
  facetDeclaration,
  facetValue,
  optional,
  present,
  refinement,
  v2Params,
  type Request,
} from './fuzz-params.js';
import { CATALOG_CLAUSES, CLAUSES, DATASETS, FACETS, V21 } from './fuzz-sample.js';
import { v1Query, v1Requests } from './fuzz-v1.js';
import { v20Requests } from './fuzz-v20-requests.js';

/** Flights (3M rows): records only, with a small limit and cheap filters. */
const flightsRequest = fc
  .tuple(
    fc.constantFrom('origin', 'destination, delay', 'date, distance', '*'),
    fc.constantFrom(
      "origin = 'SFO'",
      'delay > 100',
      "date >= date'2001-06-01'",
      "date IN [date'2001-06-01', date'2001-06-02'[",
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

/** The v2.1 requests of the datasets `ids` and of the catalog. */
function v21Requests(ids: readonly string[]) {
  const datasetRequest = (
    build: (id: string, c: Clauses, facets: readonly string[]) => fc.Arbitrary<Request>,
  ) => fc.constantFrom(...ids).chain((id) => build(id, CLAUSES.get(id)!, FACETS[id]!));
  const qv1 = (id: string, c: Clauses) => v1Query(DATASETS[id]!, c, facetValue);

  const records = (grouped: boolean) =>
    datasetRequest((id, c, facets) =>
      v2Params(c, facets, grouped, qv1(id, c)).map((params) => ({
        path: `${V21}/catalog/datasets/${id}/records`,
        params,
      })),
    );

  const facets = datasetRequest((id, c, facets) =>
    fc
      .tuple(
        fc.array(facetDeclaration(facets), { maxLength: 2 }),
        optional('where', c.where),
        optional('refine', refinement(facets)),
        optional('qv1', qv1(id, c), 0),
      )
      .map(([declared, ...rest]) => ({
        path: `${V21}/catalog/datasets/${id}/facets`,
        params: [...declared.map((f) => ['facet', f] as const), ...present(rest)],
      })),
  );

  /** Exports stay small: a row limit (forced to 5 when missing or large) and a cheap format. */
  const exports = datasetRequest((id, c, facets) =>
    fc
      .tuple(
        v2Params(c, facets, false, qv1(id, c)),
        fc.constantFrom('csv', 'json', 'jsonl', 'geojson'),
        fc.integer({ min: 0, max: 5 }),
      )
      .map(([params, format, limit]) => ({
        path: `${V21}/catalog/datasets/${id}/exports/${format}`,
        params: [...params.filter(([name]) => name !== 'limit'), ['limit', String(limit)] as const],
      })),
  );

  const catalog = fc.oneof(
    fc
      .tuple(v2Params(CATALOG_CLAUSES, FACETS.catalog!, false), fc.constantFrom('datasets', 'facets'))
      .map(([params, what]) => ({ path: `${V21}/catalog/${what}`, params })),
    v2Params(CATALOG_CLAUSES, FACETS.catalog!, true).map((params) => ({
      path: `${V21}/catalog/datasets`,
      params,
    })),
    fc.tuple(fc.constantFrom(...ids), CATALOG_CLAUSES.select).map(([id, select]) => ({
      path: `${V21}/catalog/datasets/${id}`,
      params: [['select', select] as const],
    })),
  );
  return { records, facets, exports, catalog };
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
  const v21 = v21Requests(ids);
  return fc.oneof(
    { weight: 6, arbitrary: cleanOrHostile(v21.records(false)) },
    { weight: 4, arbitrary: cleanOrHostile(v21.records(true)) },
    { weight: 2, arbitrary: cleanOrHostile(v21.facets) },
    { weight: 2, arbitrary: cleanOrHostile(v21.exports) },
    { weight: 2, arbitrary: cleanOrHostile(v21.catalog) },
    { weight: 4, arbitrary: cleanOrHostile(v20Requests(ids)) },
    { weight: 3, arbitrary: cleanOrHostile(fc.constantFrom(...ids).chain(v1Requests)) },
    { weight: 1, arbitrary: fc.constantFrom(...ids).chain(manyFacets) },
    ...(flights ? [{ weight: 1, arbitrary: cleanOrHostile(flightsRequest) }] : []),
  );
}

/** Requests over every sample dataset. */
export const requests: fc.Arbitrary<Request> = endpointRequests();
