// ClickHouse as a peer over HTTP: Debian's clickhouse-server started as a process of the bench's
// own, with a config in a temporary folder and free loopback ports, the 3M flights loaded into a
// MergeTree ordered by the sort key ingest gave the bench's flights (dataset.json's sort_by), and the portal's everyday questions asked of both servers
// over HTTP (answers checked equal first), timed in turns, then the filtered sorted page at 1, 8
// and 32 clients on each.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { markdownTable, medianTurnsInRounds, type MeasuredRatio, type ServedPortal } from './harness.js';
import { closedLoopOn, type LoadResult } from './load.js';
import { BENCH_PORTAL } from './datasets.js';
import { datasetFileSchema } from '../src/catalog/schema.js';

const SERVER = '/usr/sbin/clickhouse-server';

/** A running ClickHouse with flights loaded, asked over its HTTP interface. */
export interface ClickHouse {
  readonly base: string;
  readonly version: string;
  /** The table's DDL, for the report. */
  readonly table: string;
  /** The body of a query's answer (the query's own FORMAT). */
  query(sql: string): Promise<string>;
  stop(): Promise<void>;
}

/** The fields the bench's flights are sorted on, as ingest recorded them: both engines get the same key. */
export function flightsSortKey(): readonly string[] {
  const file = path.join(BENCH_PORTAL, 'datasets', 'flights', 'dataset.json');
  const { sort_by } = datasetFileSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).computed;
  if (sort_by.length === 0) throw new Error(`${file} records no sort key: ingest the bench's flights again`);
  return sort_by;
}

/** The DDL of the peer's table, a MergeTree ordered by `sortKey`. */
export const clickhouseTable = (sortKey: readonly string[]): string =>
  `CREATE TABLE flights (date DateTime('UTC'), delay Int64, distance Int64,
  origin String, destination String) ENGINE = MergeTree() ORDER BY (${sortKey.join(', ')})`;

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
}

const records = (params: Record<string, string>): string =>
  `/api/explore/v2.1/catalog/datasets/flights/records?${new URLSearchParams(params).toString()}`;

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
    path: records({ select: 'origin, count(*) as n, avg(delay) as d', group_by: 'origin', limit: '400' }),
    sql: `SELECT origin, count() AS n, avg(delay) AS d FROM flights GROUP BY origin ${JSON_NUMBERS}`,
    answers: sameRows(['origin', 'n', 'd']),
  },
  {
    // ClickHouse 18.16 has no interpolating exact quantile: quantileExact (timed) takes the
    // value at position floor(level × n); the answers are checked with the interpolation written
    // out over each group's sorted array.
    name: 'median + p90, exact',
    path: records({
      select: 'destination, median(delay) as m, percentile(delay, 90) as p90',
      group_by: 'destination',
      limit: '400',
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
    path: records({ select: 'count(*) as n', group_by: 'range(distance, 500) as band', limit: '400' }),
    sql: `SELECT concat(toString(intDiv(distance, 500) * 500), '-', toString(intDiv(distance, 500) * 500 + 500)) AS band,
          count() AS n FROM flights GROUP BY band ${JSON_NUMBERS}`,
    answers: sameRows(['band', 'n']),
  },
  {
    name: 'count distinct',
    path: records({
      select: 'origin, count(distinct destination) as routes',
      group_by: 'origin',
      limit: '400',
    }),
    sql: `SELECT origin, uniqExact(destination) AS routes FROM flights GROUP BY origin ${JSON_NUMBERS}`,
    answers: sameRows(['origin', 'routes']),
  },
  {
    name: "filtered count (origin = 'SFO')",
    path: records({ where: "origin = 'SFO'", limit: '0' }),
    sql: `SELECT count() AS total_count FROM flights WHERE origin = 'SFO' ${JSON_NUMBERS}`,
    answers: (portal, clickhouse) => [
      String((JSON.parse(portal) as { total_count: number }).total_count),
      String(clickhouseRows(clickhouse)[0]!.total_count),
    ],
  },
  {
    // The page and its count, as the portal's table view shows them: ClickHouse's JSON says how
    // many rows the LIMIT cut (rows_before_limit_at_least, exact for a plain filter).
    name: "10-row page, origin = 'SFO', order_by date",
    path: records({ where: "origin = 'SFO'", order_by: 'date', limit: '10' }),
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
  },
  {
    name: 'month(date) grouping',
    path: records({ select: 'count(*) as n', group_by: 'month(date) as m', limit: '20' }),
    sql: `SELECT toMonth(date) AS m, count() AS n FROM flights GROUP BY m ${JSON_NUMBERS}`,
    answers: sameRows(['m', 'n']),
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
  },
];

const sortedLines = (text: string): string => text.trimEnd().split('\n').sort().join('\n');

/** A loopback port free at the time of asking. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
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

function config(dir: string, httpPort: number, tcpPort: number): string {
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><console>1</console></logger>
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <mark_cache_size>1073741824</mark_cache_size>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mlock_executable>false</mlock_executable>
</yandex>
`;
}

/** The default user, from loopback only, with as many threads as the DuckDB of the run. */
function users(threads: number): string {
  return `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_threads>${threads}</max_threads></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`;
}

/**
 * A new connection per request for both servers: a kept-alive socket that sat idle past the
 * server's Keep-Alive timeout while the event loop compared 120 MB answers was reused after the
 * server had closed it. On loopback a connection costs both sides the same fraction of a millisecond.
 */
const agent = new http.Agent({ keepAlive: false });

/** The body of a GET as sent (a CSV's byte order mark included: fetch's Response.text() drops it). */
function get(url: string): Promise<string> {
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

function post(base: string, sql: string, body?: NodeJS.ReadableStream): Promise<string> {
  const url = body ? `${base}/?query=${encodeURIComponent(sql)}` : `${base}/`;
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode === 200) resolve(text);
        else reject(new Error(`ClickHouse ${response.statusCode}: ${text.slice(0, 300)}`));
      });
    });
    request.on('error', reject);
    if (body) body.pipe(request);
    else request.end(sql);
  });
}

/** Starts ClickHouse in `dir` (the caller's to remove) with flights loaded from the bench's DuckDB. */
export async function startClickHouse(
  duckdb: DuckDBConnection,
  dir: string,
  threads: number,
): Promise<ClickHouse> {
  ensureClickHouse();
  for (const sub of ['data', 'tmp', 'user_files']) mkdirSync(path.join(dir, sub), { recursive: true });
  const [httpPort, tcpPort] = [await freePort(), await freePort()];
  writeFileSync(path.join(dir, 'config.xml'), config(dir, httpPort, tcpPort));
  writeFileSync(path.join(dir, 'users.xml'), users(threads));
  const child: ChildProcess = spawn(SERVER, [`--config-file=${path.join(dir, 'config.xml')}`], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-2000)));
  const base = `http://127.0.0.1:${httpPort}`;
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  try {
    let version = '';
    for (let tries = 0; version === ''; tries++) {
      if (child.exitCode !== null || tries > 300) throw new Error(`clickhouse-server did not start: ${log}`);
      version = await post(base, 'SELECT version()').catch(() => delay(100).then(() => ''));
    }
    const csv = path.join(dir, 'flights.csv');
    await duckdb.run(
      `COPY (SELECT strftime(date, '%Y-%m-%d %H:%M:%S') AS date, delay, distance, origin, destination FROM flights)
       TO '${csv}' (HEADER, DELIMITER ',')`,
    );
    const table = clickhouseTable(flightsSortKey());
    await post(base, table);
    await post(base, 'INSERT INTO flights FORMAT CSVWithNames', createReadStream(csv));
    await post(base, 'OPTIMIZE TABLE flights FINAL');
    return { base, version: version.trim(), table, query: (sql) => post(base, sql), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A case's times on both servers, duckportal's over ClickHouse's. */
export interface ClickHouseTime {
  readonly name: string;
  readonly portalMs: number;
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

/** The page of the throughput table: the case every table view and refine click asks. */
const PAGE_CASE = CLICKHOUSE_CASES[5]!;

/** Checks each answer equal, times each case on both in turns, then the page at each client count. */
export async function benchClickHouse(
  served: ServedPortal,
  clickhouse: ClickHouse,
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
  const times = CLICKHOUSE_CASES.map((c, i) => ({
    name: c.name,
    portalMs: pairs[i]!.medians[0],
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
  return [
    `ClickHouse ${result.version} (Debian's clickhouse-server, started by the bench, ${result.table.replace(/\s+/g, ' ')}: the sort key ingest gave duckportal's flights),`,
    'and duckportal, both asked over HTTP by the same client, in turns; the answers were checked equal first. Ratio: duckportal / ClickHouse.',
    '',
    markdownTable(
      ['case', 'duckportal (ms)', 'ClickHouse (ms)', 'ratio'],
      result.times.map((t) => [t.name, ms(t.portalMs), ms(t.clickhouseMs), known(t.ratio)]),
    ),
    '',
    "ClickHouse's SQL of each case (duckportal's request is the case's records or export URL):",
    '',
    ...CLICKHOUSE_CASES.map((c) => `- ${c.name}: \`${c.sql.replace(/\s+/g, ' ')}\``),
    '',
    `The filtered sorted page (${PAGE_CASE.path}) in closed loops:`,
    '',
    markdownTable(
      ['clients', 'duckportal 200s/s', 'p50 / p99 (ms)', 'ClickHouse 200s/s', 'p50 / p99 (ms)'],
      result.pages.map((p) => [
        String(p.clients),
        p.portal.okPerSecond.toFixed(0),
        `${ms(p.portal.p50)} / ${ms(p.portal.p99)}`,
        p.clickhouse.okPerSecond.toFixed(0),
        `${ms(p.clickhouse.p50)} / ${ms(p.clickhouse.p99)}`,
      ]),
    ),
  ].join('\n');
}
