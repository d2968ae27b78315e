// Facet requests on flights-3m against the DuckDB SQL a person would write for the same counts.
import type { DuckDBConnection } from '@duckdb/node-api';
import { medianTurnsInRounds, type MeasuredRatio, type ServedPortal, type Work } from './harness.js';

/** A facet request's time, its equal-output SQL's in DuckDB, and their turns' median ratio. */
export interface FacetBench extends MeasuredRatio {
  readonly name: string;
  readonly httpMs: number;
  /** The same counts in plain DuckDB: the SQL a person would write for them (printed in the report). */
  readonly baselineMs: number;
  readonly baselineSql: string;
}

/**
 * Each facet request and the DuckDB SQL a person would write for the same counts: one GROUPING
 * SETS scan over the facets' keys, and for a disjunctive refine the refined facet counted
 * without its own refine beside the others counted under it. The year level of a datetime in
 * UTC is `year(date)`.
 */
const CASES: readonly { name: string; params: string; sql: string }[] = [
  {
    name: 'all annotated facets (origin, destination)',
    params: '',
    sql: 'SELECT origin, destination, count(*) FROM flights GROUP BY GROUPING SETS ((origin), (destination))',
  },
  {
    name: 'all facets + date year level',
    params: 'facet=origin&facet=destination&facet=date',
    sql: 'SELECT origin, destination, year(date), count(*) FROM flights GROUP BY GROUPING SETS ((origin), (destination), (year(date)))',
  },
  {
    name: 'all facets, 2 origins refined (disjunctive)',
    params: 'refine=origin:SFO&refine=origin:LAX',
    sql:
      "SELECT 'origin', origin, count(*) FROM flights GROUP BY origin UNION ALL " +
      "SELECT 'destination', destination, count(*) FROM flights WHERE origin IN ('SFO', 'LAX') GROUP BY destination",
  },
];

/** GETs a URL and reads its JSON, failing on any status but 200. */
async function getJson(url: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  await response.json();
}

/** Times each facet request over HTTP and its baseline SQL in DuckDB, in the same run (in rounds). */
export async function benchFacets(
  served: ServedPortal,
  duckdb: DuckDBConnection,
  runs: number,
): Promise<FacetBench[]> {
  const base = `${served.base}/api/explore/v2.1/catalog/datasets/flights`;
  const times = await medianTurnsInRounds(
    CASES.map((c): [Work, Work] => [
      () => getJson(`${base}/facets?${c.params}`),
      () => duckdb.runAndReadAll(c.sql),
    ]),
    runs,
  );
  return CASES.map((c, i) => {
    const [httpMs, baselineMs] = times[i]!.medians;
    return { name: c.name, httpMs, baselineMs, baselineSql: c.sql, ...times[i]!.ratio };
  });
}
