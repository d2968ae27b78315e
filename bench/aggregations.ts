// Aggregation queries on flights-3m: the record query over HTTP (parse, compile, run, JSON) against
// the same question written by hand in SQL and run in a plain DuckDB over the same Parquet file.
import type { DuckDBConnection } from '@duckdb/node-api';
import { medianTurnsInRounds, type MeasuredRatio, type ServedPortal } from './harness.js';

export interface AggregationCase {
  readonly name: string;
  readonly dataset: string;
  /** Query-string parameters of /records. */
  readonly params: Readonly<Record<string, string>>;
  /** The same question in DuckDB's SQL. */
  readonly sql: string;
  /** The same question for the peers, where their SQL can ask it (flights only). */
  readonly postgres?: string;
  readonly sqlite?: string;
}

export const AGGREGATIONS: readonly AggregationCase[] = [
  {
    name: 'group_by + count, avg',
    dataset: 'flights',
    params: {
      select: 'origin, count(*) as n, avg(delay) as d',
      group_by: 'origin',
      order_by: 'n desc',
      limit: '20',
    },
    sql: 'SELECT origin, count(*) AS n, avg(delay) AS d FROM flights GROUP BY origin ORDER BY n DESC LIMIT 20',
    postgres: `SELECT origin, count(*) AS n, avg(delay) AS d FROM flights GROUP BY origin ORDER BY n DESC LIMIT 20`,
    sqlite: `SELECT origin, count(*) AS n, avg(delay) AS d FROM flights GROUP BY origin ORDER BY n DESC LIMIT 20`,
  },
  {
    name: 'median, percentile',
    dataset: 'flights',
    params: {
      select: 'destination, median(delay) as m, percentile(delay, 95) as p95',
      group_by: 'destination',
      limit: '20',
    },
    sql: `SELECT destination, quantile_cont(delay, 0.5) AS m, quantile_cont(delay, 0.95) AS p95
          FROM flights GROUP BY destination ORDER BY destination LIMIT 20`,
    postgres: `SELECT destination, percentile_cont(0.5) WITHIN GROUP (ORDER BY delay) AS m, percentile_cont(0.95) WITHIN GROUP (ORDER BY delay) AS p95 FROM flights GROUP BY destination ORDER BY destination LIMIT 20`,
  },
  {
    name: 'range, equal width',
    dataset: 'flights',
    params: { select: 'count(*) as n', group_by: 'range(distance, 250) as band' },
    sql: 'SELECT floor(distance / 250) * 250 AS band, count(*) AS n FROM flights GROUP BY band ORDER BY band',
    postgres: `SELECT floor(distance / 250.0) * 250 AS band, count(*) AS n FROM flights GROUP BY band ORDER BY band`,
    sqlite: `SELECT (distance / 250) * 250 AS band, count(*) AS n FROM flights GROUP BY band ORDER BY band`,
  },
  {
    name: 'range, 1 day (UTC)',
    dataset: 'flights',
    params: { select: 'count(*) as n, avg(delay) as d', group_by: 'range(date, 1day) as day', limit: '400' },
    sql: `SELECT date_trunc('day', date) AS day, count(*) AS n, avg(delay) AS d
          FROM flights GROUP BY day ORDER BY day LIMIT 400`,
    postgres: `SELECT date_trunc('day', date) AS day, count(*) AS n, avg(delay) AS d FROM flights GROUP BY day ORDER BY day LIMIT 400`,
    sqlite: `SELECT substr(date, 1, 10) AS day, count(*) AS n, avg(delay) AS d FROM flights GROUP BY day ORDER BY day LIMIT 400`,
  },
  {
    name: 'month in a time zone',
    dataset: 'flights',
    params: {
      select: 'count(*) as n',
      group_by: 'month(date) as m',
      timezone: 'America/New_York',
    },
    sql: `SELECT month(timezone('America/New_York', date)) AS m, count(*) AS n
          FROM flights GROUP BY m ORDER BY m`,
    postgres: `SELECT extract(month FROM date AT TIME ZONE 'America/New_York') AS m, count(*) AS n FROM flights GROUP BY m ORDER BY m`,
  },
  {
    name: 'count distinct',
    dataset: 'flights',
    params: { select: 'origin, count(distinct destination) as routes', group_by: 'origin', limit: '300' },
    sql: `SELECT origin, count(DISTINCT destination) AS routes
          FROM flights GROUP BY origin ORDER BY origin LIMIT 300`,
    postgres: `SELECT origin, count(DISTINCT destination) AS routes FROM flights GROUP BY origin ORDER BY origin LIMIT 300`,
    sqlite: `SELECT origin, count(DISTINCT destination) AS routes FROM flights GROUP BY origin ORDER BY origin LIMIT 300`,
  },
  {
    name: 'filtered count',
    dataset: 'flights',
    params: { where: "delay > 60 and distance < 500 and origin in ('SFO', 'LAX', 'SEA')", limit: '0' },
    sql: "SELECT count(*) FROM flights WHERE delay > 60 AND distance < 500 AND origin IN ('SFO', 'LAX', 'SEA')",
    postgres: `SELECT count(*) FROM flights WHERE delay > 60 AND distance < 500 AND origin IN ('SFO', 'LAX', 'SEA')`,
    sqlite: `SELECT count(*) FROM flights WHERE delay > 60 AND distance < 500 AND origin IN ('SFO', 'LAX', 'SEA')`,
  },
  {
    name: 'page of 10, sorted',
    dataset: 'flights',
    params: { where: "origin = 'SFO'", order_by: 'delay desc', limit: '10' },
    sql: "SELECT * FROM flights WHERE origin = 'SFO' ORDER BY delay DESC LIMIT 10",
    postgres: `SELECT * FROM flights WHERE origin = 'SFO' ORDER BY delay DESC LIMIT 10`,
    sqlite: `SELECT * FROM flights WHERE origin = 'SFO' ORDER BY delay DESC LIMIT 10`,
  },
  {
    name: 'search()',
    dataset: 'flights',
    params: { where: 'search(*, "SFO JFK")', limit: '0' },
    sql: `SELECT count(*) FROM flights
          WHERE (levenshtein(lower(origin), 'sfo') <= 1 OR levenshtein(lower(destination), 'sfo') <= 1)
            AND (starts_with(lower(origin), 'jfk') OR starts_with(lower(destination), 'jfk'))`,
  },
  {
    name: 'geo filter (airports)',
    dataset: 'airports',
    params: { where: "within_distance(geo_point_2d, geom'POINT(-122.4 37.8)', 100km)", limit: '0' },
    sql: `SELECT count(*) FROM airports
          WHERE 2 * 6371008.8 * asin(sqrt(pow(sin(radians(geo_point_2d.lat - 37.8) / 2), 2)
                + cos(radians(37.8)) * cos(radians(geo_point_2d.lat)) * pow(sin(radians(geo_point_2d.lon + 122.4) / 2), 2))) <= 100000`,
  },
];

/** A case's two times and, HTTP over DuckDB, the median of its turns' ratios. */
export interface AggregationResult extends MeasuredRatio {
  readonly name: string;
  readonly httpMs: number;
  readonly duckdbMs: number;
}

/** Times each case both ways, in the same run, on the same files (all cases in rounds). */
export async function benchAggregations(
  served: ServedPortal,
  duckdb: DuckDBConnection,
  runs: number,
): Promise<AggregationResult[]> {
  const times = await medianTurnsInRounds(
    AGGREGATIONS.map((c) => [recordQuery(served, c.dataset, c.params), () => duckdb.runAndReadAll(c.sql)]),
    runs,
  );
  return AGGREGATIONS.map((c, i) => {
    const [httpMs, duckdbMs] = times[i]!.medians;
    return { name: c.name, httpMs, duckdbMs, ...times[i]!.ratio };
  });
}

/** One record query over HTTP, read to its end; fails on any status but 200. */
export function recordQuery(
  served: ServedPortal,
  dataset: string,
  params: Readonly<Record<string, string>>,
): () => Promise<void> {
  const url = `${served.base}/api/explore/v2.1/catalog/datasets/${dataset}/records?${new URLSearchParams(params).toString()}`;
  return async () => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${dataset}: HTTP ${response.status} ${await response.text()}`);
    await response.json();
  };
}

/** A case's time on 3M and 30M rows and, 30M over 3M, the median of its turns' ratios. */
export interface ScalingResult extends MeasuredRatio {
  readonly name: string;
  readonly smallMs: number;
  readonly largeMs: number;
}

/**
 * Measuring time of the scaling table: the 30M-row side of a turn takes 0.1-1.2 s, and the
 * median's ratio, whose turns spread by about 12%, needs some 20 turns to be known to ±7%.
 */
const SCALING_MEASURING_MS = 90_000;

/** The flights cases over HTTP on flights30m (30M) and flights (3M), to show how cost grows. */
export async function benchScaling(served: ServedPortal, runs: number): Promise<ScalingResult[]> {
  const cases = AGGREGATIONS.filter((c) => c.dataset === 'flights');
  const times = await medianTurnsInRounds(
    cases.map((c) => [recordQuery(served, 'flights30m', c.params), recordQuery(served, 'flights', c.params)]),
    runs,
    SCALING_MEASURING_MS,
  );
  return cases.map((c, i) => {
    const [largeMs, smallMs] = times[i]!.medians;
    return { name: c.name, smallMs, largeMs, ...times[i]!.ratio };
  });
}
