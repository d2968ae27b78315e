// The questions asked of duckportal and of ClickHouse: for each, duckportal's request, ClickHouse's
// SQL for the same answer, how the answers are compared, the statements the server runs in DuckDB
// for it (timed alone for the report's split), and what bounds it where duckportal is slower.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { BENCH_PORTAL } from './datasets.js';
import { datasetFileSchema, ORDINAL_COLUMN, ORDINAL_SQL, type DatasetFile } from '../src/catalog/schema.js';
import { valueCountsPath, valueCountsViewName } from '../src/catalog/portal.js';
import type { QuerySource } from '../src/odsql/source.js';
import { DEFAULT_MEMORY_LIMIT } from '../src/server/defaults.js';
import { SMALL_FILE_BYTES } from '../src/engine/duckdb/small-tables.js';
import { lookupOf } from '../src/engine/duckdb/count-lookup.js';
import { copyRows, HOT_DATABASE, hotBudget } from '../src/engine/duckdb/hot-datasets.js';
import { compileQuery } from '../src/odsql/index.js';
import { quoteIdentifier, quoteString } from '../src/sql/quoting.js';

/**
 * One question asked of both: duckportal's records (or export) path, ClickHouse's SQL for the same
 * answer, and how the two answers are compared.
 */
export interface ClickHouseCase {
  readonly name: string;
  readonly path: string;
  readonly sql: string;
  /** ClickHouse's SQL for checking the answer, when the timed one cannot give it exactly. */
  readonly checkSql?: string;
  /** Both answers as comparable text (rows in a fixed order, numbers rounded where engines differ). */
  readonly answers: (portal: string, clickhouse: string) => readonly [string, string];
  /** The statements the server runs in DuckDB for the request, over `source`. */
  readonly duckdb: (source: QuerySource) => readonly string[];
  /** What ClickHouse does that duckportal does not, and what would close the gap, where it is slower. */
  readonly bound?: string;
}

/** The bench's flights as ingest described them (dataset.json). */
export function benchFlightsFile(): DatasetFile {
  const file = path.join(BENCH_PORTAL, 'datasets', 'flights', 'dataset.json');
  return datasetFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** A DuckDB set up as the server's, for the cases' statements alone: its connection and query source. */
export interface ServedDuckDB {
  readonly connection: DuckDBConnection;
  readonly source: QuerySource;
  close(): void;
}

/**
 * A DuckDB with the server's threads, memory limit and kept Parquet footers, and a view of the
 * bench's flights as the server defines it (the rows' ordinals beside the fields), over the file or,
 * with `hot`, over the copy of its rows in memory that a server with copies on makes of a dataset
 * asked often (src/engine/duckdb/hot-datasets.ts), with its tables of value counts as the server
 * serves them: copied in memory when small, else views.
 */
export async function servedDuckDB(threads: number, hot: boolean): Promise<ServedDuckDB> {
  const instance = await DuckDBInstance.create(':memory:', {
    threads: String(threads),
    memory_limit: DEFAULT_MEMORY_LIMIT,
  });
  const connection = await instance.connect();
  await connection.run('SET GLOBAL parquet_metadata_cache = true');
  const table = 'served_flights';
  const dir = path.join(BENCH_PORTAL, 'datasets', 'flights');
  const parquet = path.join(dir, 'data.parquet');
  await connection.run(
    `CREATE VIEW ${quoteIdentifier(table)} AS SELECT *, ${ORDINAL_SQL} AS ${quoteIdentifier(ORDINAL_COLUMN)} FROM read_parquet(${quoteString(parquet)})`,
  );
  if (hot && statSync(parquet).size <= hotBudget(DEFAULT_MEMORY_LIMIT)) {
    const copy = `${HOT_DATABASE}.${quoteIdentifier(`${table}#1`)}`;
    await connection.run(`ATTACH ':memory:' AS ${HOT_DATABASE} (COMPRESS)`);
    await copyRows(connection, table, copy);
    await connection.run(`CREATE OR REPLACE VIEW ${quoteIdentifier(table)} AS SELECT * FROM ${copy}`);
  }
  const { fields, computed } = benchFlightsFile();
  const valueCounts = new Map(
    computed.value_counts.map((field) => [field, valueCountsViewName(table, field)]),
  );
  for (const [field, view] of valueCounts) {
    const file = valueCountsPath(dir, field);
    const kind = statSync(file).size <= SMALL_FILE_BYTES ? 'TABLE' : 'VIEW';
    await connection.run(
      `CREATE ${kind} ${quoteIdentifier(view)} AS SELECT * FROM read_parquet(${quoteString(file)})`,
    );
  }
  return {
    connection,
    source: {
      table,
      searchTable: null,
      fields,
      rows: computed.records_count,
      distinctCounts: new Map(Object.entries(computed.distinct_counts)),
      sortBy: computed.sort_by,
      valueCounts,
    },
    close: () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** The parameters of a records request, as sent. */
interface RecordsQuery {
  readonly select?: string;
  readonly where?: string;
  readonly group_by?: string;
  readonly order_by?: string;
  readonly limit: number;
}

/** A records request: its path, and the statements the server runs for it. */
function records(query: RecordsQuery): Pick<ClickHouseCase, 'path' | 'duckdb'> {
  const params = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
  return {
    path: `/api/explore/v2.1/catalog/datasets/flights/records?${params.toString()}`,
    duckdb: (source) => pageStatements(source, query),
  };
}

/**
 * What the server's paged query runs (src/api/query-context.ts): one aggregation for a page of
 * groups, the count and (unless limit=0) the rows for a page of records.
 */
function pageStatements(source: QuerySource, query: RecordsQuery): string[] {
  const compiled = compileQuery(source, {
    ...(query.select !== undefined && { select: query.select }),
    where: query.where !== undefined ? [query.where] : [],
    ...(query.group_by !== undefined && { groupBy: query.group_by }),
    ...(query.order_by !== undefined && { orderBy: query.order_by }),
    limit: Math.max(query.limit, 1),
    offset: 0,
    timezone: 'UTC',
    withGroupCount: true,
  });
  if (compiled.grouped) return [compiled.sql];
  // A count of text equalities over a table of value counts runs no statement (count-lookup.ts).
  const columns = new Map(
    [...(source.valueCounts ?? [])].map(([field, table]) => [table, quoteIdentifier(field)]),
  );
  const lookedUp = lookupOf(compiled.countSql, (table) => columns.get(table)) !== null;
  const count = lookedUp ? [] : [compiled.countSql];
  return query.limit > 0 ? [...count, compiled.sql] : count;
}

type Row = Record<string, unknown>;
const portalRows = (body: string): Row[] => (JSON.parse(body) as { results: Row[] }).results;
const clickhouseRows = (body: string): Row[] => (JSON.parse(body) as { data: Row[] }).data;
/** A number (ClickHouse quotes its 64-bit integers in JSON) to `digits` decimals, other values as text. */
const cell = (value: unknown, digits: number): string =>
  typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value))
    ? Number(value).toFixed(digits)
    : String(value);
/** Rows as sorted lines of the given columns, numbers to `digits` decimals. */
const lines = (rows: readonly Row[], columns: readonly string[], digits = 6): string =>
  rows
    .map((row) => columns.map((c) => cell(row[c], digits)).join('|'))
    .sort()
    .join('\n');
const sameRows =
  (columns: readonly string[], digits?: number) =>
  (portal: string, clickhouse: string): readonly [string, string] => [
    lines(portalRows(portal), columns, digits),
    lines(clickhouseRows(clickhouse), columns, digits),
  ];
const sortedLines = (text: string): string => text.trimEnd().split('\n').sort().join('\n');

const JSON_NUMBERS = 'FORMAT JSON';

/** The continuous quantile at `level` of a group's sorted array `s` of `n` values (1-based). */
const interpolated = (level: number): string => {
  const position = `${level} * (n - 1)`;
  const at = (index: string) => `arrayElement(s, toUInt64(${index}(${position})) + 1)`;
  return `${at('floor')} + (${position} - floor(${position})) * (${at('ceil')} - ${at('floor')})`;
};

export const CLICKHOUSE_CASES: readonly ClickHouseCase[] = [
  {
    name: 'group_by origin: count, avg',
    ...records({ select: 'origin, count(*) as n, avg(delay) as d', group_by: 'origin', limit: 400 }),
    sql: `SELECT origin, count() AS n, avg(delay) AS d FROM flights GROUP BY origin ${JSON_NUMBERS}`,
    answers: sameRows(['origin', 'n', 'd']),
  },
  {
    // ClickHouse 18.16 has no interpolating exact quantile: quantileExact (timed) takes the
    // value at position floor(level × n); the answers are checked with the interpolation written
    // out over each group's sorted array.
    name: 'median + p90, exact',
    ...records({
      select: 'destination, median(delay) as m, percentile(delay, 90) as p90',
      group_by: 'destination',
      limit: 400,
    }),
    sql: `SELECT destination, quantileExact(0.5)(delay) AS m, quantileExact(0.9)(delay) AS p90
          FROM flights GROUP BY destination ${JSON_NUMBERS}`,
    checkSql: `SELECT destination, ${interpolated(0.5)} AS m, ${interpolated(0.9)} AS p90
               FROM (SELECT destination, arraySort(groupArray(delay)) AS s, length(s) AS n
                     FROM flights GROUP BY destination) ${JSON_NUMBERS}`,
    answers: sameRows(['destination', 'm', 'p90']),
  },
  {
    name: 'range(distance, 500)',
    ...records({ select: 'count(*) as n', group_by: 'range(distance, 500) as band', limit: 400 }),
    // An integer field cut at integers is labelled with its inclusive bounds, [0, 499].
    sql: `SELECT concat('[', toString(intDiv(distance, 500) * 500), ', ', toString(intDiv(distance, 500) * 500 + 499), ']') AS band,
          count() AS n FROM flights GROUP BY band ${JSON_NUMBERS}`,
    answers: sameRows(['band', 'n']),
  },
  {
    name: 'count distinct',
    ...records({ select: 'origin, count(distinct destination) as routes', group_by: 'origin', limit: 400 }),
    sql: `SELECT origin, uniqExact(destination) AS routes FROM flights GROUP BY origin ${JSON_NUMBERS}`,
    answers: sameRows(['origin', 'routes']),
  },
  {
    name: "filtered count (origin = 'SFO')",
    ...records({ where: "origin = 'SFO'", limit: 0 }),
    sql: `SELECT count() AS total_count FROM flights WHERE origin = 'SFO' ${JSON_NUMBERS}`,
    answers: (portal, clickhouse) => [
      String((JSON.parse(portal) as { total_count: number }).total_count),
      String(clickhouseRows(clickhouse)[0]!.total_count),
    ],
    bound:
      "ClickHouse's sparse primary-key index picks the 8,192-row granules of SFO, and the thread that read the request runs the query. duckportal runs no statement: the 229 values of counts/origin.parquet with their counts are held as a JS Map beside their copy in DuckDB's memory, and the count of origin = 'SFO' is looked up on the event loop (src/engine/duckdb/count-lookup.ts; an index of ingest's data, not the count cache, which is off in this bench). What is left is Node's HTTP path: parsing the request, the compiled query kept (src/odsql/compile-cache.ts), the JSON answer. Before, the count crossed to libuv's pool and woke DuckDB's thread: 0.17 ms in DuckDB back to back, 0.7 after 20 ms idle.",
  },
  {
    // The page and its count, as the portal's table view shows them: ClickHouse's JSON says how
    // many rows the LIMIT cut (rows_before_limit_at_least, exact for a plain filter).
    name: "10-row page, origin = 'SFO', order_by date",
    ...records({ where: "origin = 'SFO'", order_by: 'date', limit: 10 }),
    sql: `SELECT formatDateTime(date, '%Y-%m-%dT%H:%M:%S+00:00') AS date, delay, distance, origin, destination
          FROM flights WHERE origin = 'SFO' ORDER BY date LIMIT 10 ${JSON_NUMBERS}`,
    answers: (portal, clickhouse) => {
      const ours = JSON.parse(portal) as { total_count: number; results: Row[] };
      const theirs = JSON.parse(clickhouse) as { rows_before_limit_at_least: number; data: Row[] };
      // Rows of equal dates may come in any order: the dates in order, the rows as a set.
      const columns = ['date', 'delay', 'distance', 'origin', 'destination'];
      return [
        `${ours.total_count}\n${ours.results.map((r) => r.date).join(',')}\n${lines(ours.results, columns)}`,
        `${theirs.rows_before_limit_at_least}\n${theirs.data.map((r) => r.date).join(',')}\n${lines(theirs.data, columns)}`,
      ];
    },
    bound:
      "The key (origin, date, destination) puts SFO's rows in date order: duckportal reads them in file order and stops at the 10th (src/odsql/file-order.ts), counts them from the value counts looked up on the event loop (no count statement). Read from the file (this table: copies in memory off), the 10 rows decompress row group 21's whole Parquet pages (ingest writes one per column chunk, and DuckDB 1.5's writer has no option for a page's size: 983 KB of dates, 663 KB LZ4, and 350 KB of the other three columns), 2.2-2.7 ms in DuckDB, where ClickHouse decompresses blocks of 64 KB to 1 MB of its 8,192-row granules. From the server's copy of the flights in memory (a dataset asked often, on by default: src/engine/duckdb/hot-datasets.ts, 60-67 MiB compressed) the statement takes 0.4-0.5 ms: see the table after the throughput.",
  },
  {
    name: 'month(date) grouping',
    ...records({ select: 'count(*) as n', group_by: 'month(date) as m', limit: 20 }),
    sql: `SELECT toMonth(date) AS m, count() AS n FROM flights GROUP BY m ${JSON_NUMBERS}`,
    answers: sameRows(['m', 'n']),
    bound:
      'The grouping reads counts/date.parquet (213,834 distinct datetimes with their counts) instead of the 3M rows (59 -> 8.8 ms in DuckDB alone, loaded machine); from an in-memory copy of that table it took 2.8 against 4.5 ms (not done).',
  },
  {
    // The same bytes but for the order of rows (each engine writes its stored order): the lines
    // are compared sorted. ClickHouse's CSV quotes every string, so the line is built by hand.
    name: 'full CSV export (same lines)',
    path: '/api/explore/v2.1/catalog/datasets/flights/exports/csv',
    sql: `SELECT '\\xEF\\xBB\\xBFdate;delay;distance;origin;destination' AS line
          UNION ALL
          SELECT concat(formatDateTime(date, '%Y-%m-%dT%H:%M:%S+00:00'), ';', toString(delay), ';',
                        toString(distance), ';', origin, ';', destination) FROM flights
          FORMAT TSVRaw`,
    answers: (portal, clickhouse) => [sortedLines(portal), sortedLines(clickhouse)],
    // The export's COPY, written to nothing instead of the pipe the server streams from.
    duckdb: (source) => [
      `COPY (${compileQuery(source, {}, 'text').sql}) TO '/dev/null' (FORMAT csv, HEADER true, DELIMITER ';')`,
    ],
    bound:
      "Both write the same 3M lines. duckportal's COPY alone takes about half of the request, and formatting each datetime with strftime about half of the COPY (the same query without the datetime column: 221 against 426 ms). Measured and not kept (one thread, the 3M dates, at load 19): strftime 1,648 ms, a cast to text 726 but printing '2001-07-01 00:00:00', and the same characters as strftime from it slower than strftime (the cast's date and time joined with 'T' and '+00:00': 2,648 ms; the space replaced, guarded for whole seconds and years 1000-9999: 4,516); COPY's own TIMESTAMPFORMAT formats with the same strftime (4,157 against 4,261 ms). The rest is not Node's work: per export the server's DuckDB threads take about 910 ms of CPU (the COPY alone: 930) and its event loop 70-80 ms (the kernel copying 118 MB from the pipe to the socket), while this bench's client takes 570-630 ms of CPU on the same two cores for either server; ClickHouse's whole export is 460-510 ms of its CPU. With curl as the client (30 ms) the request took 611 ms against the COPY's 475 and ClickHouse's 355 (docs/exports.md, Where a large CSV export's time goes): what bounds the case is the COPY's CPU, about twice ClickHouse's.",
  },
];

/** The page of the throughput table: the case every table view and refine click asks. */
export const PAGE_CASE = CLICKHOUSE_CASES[5]!;
