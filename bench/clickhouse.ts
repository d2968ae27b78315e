// ClickHouse as a peer over HTTP: Debian's clickhouse-server started as a process of the bench's
// own, with a config in a temporary folder and free loopback ports, the 3M flights loaded into a
// MergeTree ordered by the key ingest sorted the bench's flights on (dataset.json's sort_by), the
// portal's everyday questions (bench/clickhouse-cases.ts) asked of both servers over HTTP (answers
// checked equal first) and timed in turns, the statements duckportal runs for each timed in DuckDB
// alone, then the filtered sorted page at 1, 8 and 32 clients on each.
import { execFileSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { markdownTable, medianTurnsInRounds, type MeasuredRatio, type ServedPortal } from './harness.js';
import { closedLoopOn, type LoadResult } from './load.js';
import {
  postClickHouse,
  startClickHouseCluster,
  type ClickHouseCluster,
} from '../test/helpers/clickhouse-cluster.js';
import {
  benchFlightsFile,
  CLICKHOUSE_CASES,
  PAGE_CASE,
  servedDuckDB,
  type ClickHouseCase,
} from './clickhouse-cases.js';

const SERVER = '/usr/sbin/clickhouse-server';

/** A running ClickHouse with flights loaded, asked over its HTTP interface. */
export interface ClickHouse {
  readonly base: string;
  /** The one-shard cluster serving `base`, for loading more tables. */
  readonly cluster: ClickHouseCluster;
  readonly version: string;
  /** The table's DDL, for the report. */
  readonly table: string;
  /** The body of a query's answer (the query's own FORMAT). */
  query(sql: string): Promise<string>;
  stop(): Promise<void>;
}

/** The DDL of the peer's table: a MergeTree ordered by the key ingest sorted the bench's flights on. */
export function clickhouseTable(): string {
  const { sort_by } = benchFlightsFile().computed;
  if (sort_by.length === 0) throw new Error("the bench's flights record no sort key: ingest them again");
  return `CREATE TABLE flights (date DateTime('UTC'), delay Int64, distance Int64,
  origin String, destination String) ENGINE = MergeTree() ORDER BY (${sort_by.join(', ')})`;
}

/** Installs Debian's clickhouse-server when absent. */
function ensureClickHouse(): void {
  try {
    execFileSync(SERVER, ['--version'], { stdio: 'ignore' });
  } catch {
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'clickhouse-server'], {
      stdio: 'ignore',
    });
  }
}

/**
 * A new connection per request, as for ClickHouse (postClickHouse): a kept-alive socket that sat
 * idle past the server's Keep-Alive timeout while the event loop compared 120 MB answers was reused
 * after the server had closed it. On loopback a connection costs both sides the same fraction of a
 * millisecond.
 */
const agent = new http.Agent({ keepAlive: false });

/** The body of a GET as sent (a CSV's byte order mark included: fetch's Response.text() drops it). */
export function get(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          response.statusCode === 200
            ? resolve(Buffer.concat(chunks).toString('utf8'))
            : reject(new Error(`${url}: HTTP ${response.statusCode}`)),
        );
      })
      .on('error', reject);
  });
}

/** Starts ClickHouse in `dir` (the caller's to remove) with flights loaded from the bench's DuckDB. */
export async function startClickHouse(
  duckdb: DuckDBConnection,
  dir: string,
  threads: number,
): Promise<ClickHouse> {
  ensureClickHouse();
  const cluster = await startClickHouseCluster(dir, 1, threads);
  const base = cluster.shards[0]!.url;
  try {
    const version = await postClickHouse(base, 'SELECT version()');
    const csv = path.join(dir, 'flights.csv');
    await duckdb.run(
      `COPY (SELECT strftime(date, '%Y-%m-%d %H:%M:%S') AS date, delay, distance, origin, destination FROM flights)
       TO '${csv}' (HEADER, DELIMITER ',')`,
    );
    const table = clickhouseTable();
    await postClickHouse(base, table);
    await postClickHouse(base, 'INSERT INTO flights FORMAT CSVWithNames', createReadStream(csv));
    await postClickHouse(base, 'OPTIMIZE TABLE flights FINAL');
    return {
      base,
      cluster,
      version: version.trim(),
      table,
      query: (sql) => postClickHouse(base, sql),
      stop: () => cluster.stop(),
    };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** A case's times on both servers, duckportal's over ClickHouse's. */
export interface ClickHouseTime {
  readonly name: string;
  readonly portalMs: number;
  /** The statements the server runs for the request, in DuckDB alone (one after the other). */
  readonly duckdbMs: number;
  readonly clickhouseMs: number;
  readonly ratio: MeasuredRatio;
}

export interface ClickHouseResult {
  readonly version: string;
  readonly table: string;
  readonly times: readonly ClickHouseTime[];
  /** The filtered sorted page on each server at each client count. */
  readonly pages: readonly {
    readonly clients: number;
    readonly portal: LoadResult;
    readonly clickhouse: LoadResult;
  }[];
}

export const CLICKHOUSE_CLIENTS = [1, 8, 32] as const;

/**
 * Checks each answer equal, times each case on both in turns and its DuckDB statements alone,
 * then the page at each client count.
 */
export async function benchClickHouse(
  served: ServedPortal,
  clickhouse: ClickHouse,
  threads: number,
  runs: number,
  seconds: number,
): Promise<ClickHouseResult> {
  const portal = (c: ClickHouseCase) => () => get(served.base + c.path);
  const theirs = (c: ClickHouseCase) => () => clickhouse.query(c.sql);
  for (const c of CLICKHOUSE_CASES) {
    const [ours, other] = c.answers(await portal(c)(), await clickhouse.query(c.checkSql ?? c.sql));
    if (ours !== other)
      throw new Error(
        `${c.name}: duckportal and ClickHouse differ:\n${ours.slice(0, 500)}\n---\n${other.slice(0, 500)}`,
      );
  }
  const pairs = await medianTurnsInRounds(
    CLICKHOUSE_CASES.map((c) => [portal(c), theirs(c)] as const),
    runs,
  );
  // The statements alone, as a share of the request over HTTP timed in turns with it (a busy
  // moment of the machine weighs on both), then scaled to the request's median above.
  // Each statement prepared once, as the server keeps them (src/engine/duckdb/prepared.ts).
  const duckdb = await servedDuckDB(threads, false);
  const shares = await medianTurnsInRounds(
    CLICKHOUSE_CASES.map((c) => {
      const prepared = c.duckdb(duckdb.source).map((sql) => duckdb.connection.prepare(sql));
      const alone = async () => {
        for (const statement of prepared) await (await statement).run();
      };
      return [alone, portal(c)] as const;
    }),
    runs,
  ).finally(() => duckdb.close());
  const times = CLICKHOUSE_CASES.map((c, i) => ({
    name: c.name,
    portalMs: pairs[i]!.medians[0],
    duckdbMs: pairs[i]!.medians[0] * shares[i]!.ratio.ratio,
    clickhouseMs: pairs[i]!.medians[1],
    ratio: pairs[i]!.ratio,
  }));
  const clickhousePage = `/?query=${encodeURIComponent(PAGE_CASE.sql)}`;
  const pages = [];
  for (const clients of CLICKHOUSE_CLIENTS) {
    pages.push({
      clients,
      portal: await closedLoopOn(served.base, PAGE_CASE.path, {}, 'duckportal page', clients, seconds),
      clickhouse: await closedLoopOn(
        clickhouse.base,
        clickhousePage,
        {},
        'ClickHouse page',
        clients,
        seconds,
      ),
    });
  }
  return { version: clickhouse.version, table: clickhouse.table, times, pages };
}

/** Starts ClickHouse in `dir`, runs `work` with it, and stops it whatever happened. */
export async function withClickHouse<T>(
  duckdb: DuckDBConnection,
  dir: string,
  threads: number,
  work: (clickhouse: ClickHouse) => Promise<T>,
): Promise<T> {
  const clickhouse = await startClickHouse(duckdb, dir, threads);
  try {
    return await work(clickhouse);
  } finally {
    await clickhouse.stop();
  }
}

/** The report's section: each case on both servers with its SQL, then the page's throughput. */
export function clickHouseText(result: ClickHouseResult, known: (ratio: MeasuredRatio) => string): string {
  const ms = (n: number): string => n.toFixed(n < 10 ? 1 : 0);
  const slower = result.times.filter((t) => t.ratio.ratio > 1);
  return [
    `ClickHouse ${result.version} (Debian's clickhouse-server, started by the bench, ${result.table.replace(/\s+/g, ' ')}: the key ingest sorted duckportal's flights on),`,
    'and duckportal, both asked over HTTP by the same client, in turns; the answers were checked equal first. Ratio: duckportal / ClickHouse.',
    "In DuckDB: the statements duckportal's server runs for the request (a page's count and rows; an export's COPY, to /dev/null),",
    "run one after the other on a DuckDB set up as the server's (threads, memory limit, kept Parquet footers, its view of the file),",
    'cold: the server copies no dataset in memory here (`--hot-memory 0`; with its copies, the table after the throughput);',
    "timed in turns with the request over HTTP: the median of their ratio, times the request's median above.",
    '',
    markdownTable(
      ['case', 'duckportal (ms)', 'of it in DuckDB (ms)', 'ClickHouse (ms)', 'ratio'],
      result.times.map((t) => [t.name, ms(t.portalMs), ms(t.duckdbMs), ms(t.clickhouseMs), known(t.ratio)]),
    ),
    '',
    ...(slower.length
      ? [
          'Where duckportal is slower, what its time is made of (the rest: HTTP, Koa, compiling the ODSQL, JSON) and what bounds it:',
          '',
          ...slower.map((t) => {
            const bound = CLICKHOUSE_CASES.find((c) => c.name === t.name)?.bound ?? '';
            return `- ${t.name}: DuckDB ${ms(t.duckdbMs)} of ${ms(t.portalMs)} ms, the rest ${ms(Math.max(t.portalMs - t.duckdbMs, 0))} ms; ClickHouse ${ms(t.clickhouseMs)} ms. ${bound}`;
          }),
          '',
        ]
      : []),
    "ClickHouse's SQL of each case (duckportal's request is the case's records or export URL):",
    '',
    ...CLICKHOUSE_CASES.map((c) => `- ${c.name}: \`${c.sql.replace(/\s+/g, ' ')}\``),
    '',
    `The filtered sorted page (${PAGE_CASE.path}) in closed loops:`,
    '',
    loopsTable(
      ['duckportal', 'ClickHouse'],
      result.pages.map((p) => [p.clients, p.portal, p.clickhouse]),
    ),
  ].join('\n');
}

/** Closed loops of two servers (`names`) at each client count: answers/s, p50 and p99. */
export function loopsTable(
  names: readonly [string, string],
  rows: readonly (readonly [number, LoadResult, LoadResult])[],
): string {
  const ms = (n: number): string => n.toFixed(n < 10 ? 1 : 0);
  const cells = (r: LoadResult) => [r.okPerSecond.toFixed(0), `${ms(r.p50)} / ${ms(r.p99)}`];
  return markdownTable(
    ['clients', ...names.flatMap((name) => [`${name} 200s/s`, 'p50 / p99 (ms)'])],
    rows.map(([clients, a, b]) => [String(clients), ...cells(a), ...cells(b)]),
  );
}
