// All facets of flights-3m in one request, against one plain GROUP BY over the same rows.
import type { DuckDBConnection } from '@duckdb/node-api';
import { medianTurnsInRounds, type MeasuredRatio, type ServedPortal, type Work } from './harness.js';

/** A facet request's time, the GROUP BYs' and, facets over DuckDB's GROUP BY, its turns' median ratio. */
export interface FacetBench extends MeasuredRatio {
  readonly name: string;
  readonly httpMs: number;
  /** `group_by=origin` with count(*), through the record query over HTTP (same path, same costs). */
  readonly httpGroupByMs: number;
  /** The same GROUP BY in plain DuckDB. */
  readonly groupByMs: number;
}

const CASES: readonly { name: string; params: string }[] = [
  { name: 'all annotated facets (origin, destination)', params: '' },
  { name: 'all facets + date year level', params: 'facet=origin&facet=destination&facet=date' },
  { name: 'all facets, 2 origins refined (disjunctive)', params: 'refine=origin:SFO&refine=origin:LAX' },
];

/** GETs a URL and reads its JSON, failing on any status but 200. */
async function getJson(url: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  await response.json();
}

/**
 * Times each facet request and one `GROUP BY origin`, over HTTP and in DuckDB, in the same run
 * (the cases in rounds).
 */
export async function benchFacets(
  served: ServedPortal,
  duckdb: DuckDBConnection,
  runs: number,
): Promise<FacetBench[]> {
  const groupBy = () => duckdb.runAndReadAll('SELECT origin, count(*) FROM flights GROUP BY origin');
  const base = `${served.base}/api/explore/v2.1/catalog/datasets/flights`;
  const groupByOverHttp = () => getJson(`${base}/records?select=origin,count(*)&group_by=origin&limit=1000`);
  const times = await medianTurnsInRounds(
    [
      [groupByOverHttp, groupBy],
      ...CASES.map((c): [Work, Work] => [() => getJson(`${base}/facets?${c.params}`), groupBy]),
    ],
    runs,
  );
  const httpGroupByMs = times[0]!.medians[0];
  return CASES.map((c, i) => {
    const [httpMs, groupByMs] = times[i + 1]!.medians;
    return { name: c.name, httpMs, httpGroupByMs, groupByMs, ...times[i + 1]!.ratio };
  });
}
