// The bench's flights served from ClickHouse (issue 29: a dataset attached to a ClickHouse table)
// beside the same flights served from Parquet: the 3M rows loaded into the bench's ClickHouse with
// their record ids and ordinals (test/helpers/clickhouse-load.ts), its MergeTree ordered by the
// key ingest sorted the Parquet on, attached with `duckportal attach` to a portal folder of their
// own and served by a second server. Each everyday question (bench/clickhouse-cases.ts) is asked
// of both servers under the same path; the answers are checked equal, then timed in turns. Then
// the whole Parquet export of each (ClickHouse's rows encoded by the attached server's DuckDB):
// the same rows and types read back, each server's peak resident memory during its own.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { restingRss, sampleRss } from './exports.js';
import {
  markdownTable,
  medianTurnsInRounds,
  servePortal,
  type MeasuredRatio,
  type ServedPortal,
} from './harness.js';
import type { ClickHouse } from './clickhouse.js';
import { benchFlightsFile, CLICKHOUSE_CASES, type ClickHouseCase } from './clickhouse-cases.js';
import { BENCH_PORTAL } from './datasets.js';
import { PORTAL_PASSWORD, PORTAL_USER } from '../test/helpers/clickhouse-cluster.js';
import { loadDataset } from '../test/helpers/clickhouse-load.js';
import { ensurePortalFile } from '../src/ingest/portal-file.js';

const run = promisify(execFile);

/** The ClickHouse table the attached flights are loaded into. */
const ATTACHED_TABLE = 'flights_attached';

/** A case on both servers: the Parquet dataset's time, the attached one's, and their ratio. */
export interface AttachedTime {
  readonly name: string;
  readonly parquetMs: number;
  readonly clickhouseMs: number;
  /** The attached dataset's time over the Parquet one's. */
  readonly ratio: MeasuredRatio;
}

/** A case the attached dataset answers with an error (a feature ClickHouse's dialect refuses). */
export interface AttachedRefusal {
  readonly name: string;
  readonly status: number;
  readonly message: string;
}

/** The whole Parquet export from each server: times, their ratio, each server's memory. */
export interface AttachedParquetExport {
  readonly rows: number;
  readonly megabytes: number;
  readonly parquetMs: number;
  readonly clickhouseMs: number;
  readonly ratio: MeasuredRatio;
  /** Each server's VmRSS at rest before its export, and its peak during it, in MiB. */
  readonly parquetRssMiB: readonly [number | null, number | null];
  readonly clickhouseRssMiB: readonly [number | null, number | null];
}

export interface AttachedResult {
  readonly times: readonly AttachedTime[];
  readonly refused: readonly AttachedRefusal[];
  readonly parquetExport: AttachedParquetExport;
}

const PARQUET_EXPORT = '/api/explore/v2.1/catalog/datasets/flights/exports/parquet';

/** Downloads `url` into `file` with curl; its time in ms. */
async function download(url: string, file: string): Promise<number> {
  const { stdout } = await run('curl', ['-sS', '-o', file, '-w', '%{http_code} %{time_total}', url]);
  const [status, seconds] = stdout.trim().split(' ').map(Number);
  if (status !== 200) throw new Error(`${url}: HTTP ${status}`);
  return seconds! * 1000;
}

/** A download's time with the server's resting and peak VmRSS around it. */
async function measuredDownload(server: ServedPortal, file: string) {
  const resting = await restingRss(server.pid);
  const sampler = sampleRss(server.pid);
  const ms = await download(server.base + PARQUET_EXPORT, file);
  return { ms, rss: [resting, sampler.stop()] as const };
}

/** The column types, row count and an order-sensitive digest of a Parquet file, read with DuckDB. */
async function parquetDigest(file: string): Promise<string> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const source = `read_parquet('${file.replaceAll("'", "''")}')`;
    const types = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRows();
    const digest = await connection.runAndReadAll(
      // Each row's hash with its place in the file: the digest changes with any value or order.
      `SELECT count(*), bit_xor(hash(t)) FROM ${source.replace(')', ', file_row_number = true)')} t`,
    );
    return JSON.stringify([types.map((t) => [t[0], t[1]]), digest.getRows()[0]!.map(String)]);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * The whole Parquet export from both servers: checked to hold the same rows in the same types and
 * order, then downloaded in turns (each server's memory sampled during its own download).
 */
async function benchParquetExport(
  served: ServedPortal,
  attached: ServedPortal,
  runs: number,
): Promise<AttachedParquetExport> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-bench-attached-'));
  try {
    const [fromParquet, fromClickHouse] = [
      path.join(dir, 'parquet.parquet'),
      path.join(dir, 'clickhouse.parquet'),
    ];
    const first = [
      await measuredDownload(served, fromParquet),
      await measuredDownload(attached, fromClickHouse),
    ];
    const [digest, attachedDigest] = await Promise.all([
      parquetDigest(fromParquet),
      parquetDigest(fromClickHouse),
    ]);
    if (digest !== attachedDigest)
      throw new Error(`the attached dataset's Parquet export differs:\n${digest}\n---\n${attachedDigest}`);
    const [pair] = await medianTurnsInRounds(
      [
        [
          async () => void (await download(attached.base + PARQUET_EXPORT, fromClickHouse)),
          async () => void (await download(served.base + PARQUET_EXPORT, fromParquet)),
        ],
      ],
      Math.min(runs, 3),
    );
    const { size } = await stat(fromParquet);
    return {
      rows: Number((JSON.parse(digest) as [unknown, string[]])[1][0]),
      megabytes: size / 1e6,
      clickhouseMs: pair!.medians[0],
      parquetMs: pair!.medians[1],
      ratio: pair!.ratio,
      parquetRssMiB: first[0]!.rss,
      clickhouseRssMiB: first[1]!.rss,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Status and body of a GET, on a new connection (as the ClickHouse comparison asks). */
function fetchText(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      })
      .on('error', reject);
  });
}

/** JSON answers with their numbers rounded to 9 significant digits (sums run in another order); other answers as sent. */
function comparable(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), (_key, value: unknown) =>
      typeof value === 'number' && !Number.isInteger(value) ? Number(value.toPrecision(9)) : value,
    );
  } catch {
    return body;
  }
}

/**
 * Loads the flights into `clickhouse`, attaches them to a portal folder in `dir` and serves it on
 * `port`; runs `work` with that server, and stops it whatever happened.
 */
export async function withAttachedFlights<T>(
  clickhouse: ClickHouse,
  dir: string,
  port: number,
  threads: number,
  serveArgs: readonly string[],
  work: (attached: ServedPortal) => Promise<T>,
): Promise<T> {
  await loadDataset(
    clickhouse.cluster,
    path.join(BENCH_PORTAL, 'datasets', 'flights'),
    ATTACHED_TABLE,
    benchFlightsFile().computed.sort_by,
  );
  const portal = path.join(dir, 'attached-portal');
  await ensurePortalFile(portal, { title: 'flights attached to ClickHouse' });
  const server = new URL(clickhouse.base);
  server.username = PORTAL_USER;
  server.password = PORTAL_PASSWORD;
  await run('bin/duckportal.cjs', [
    'attach',
    '--portal',
    portal,
    '--id',
    'flights',
    '--clickhouse',
    server.href,
    '--table',
    ATTACHED_TABLE,
    '--quiet',
  ]);
  const attached = await servePortal(portal, port, threads, serveArgs);
  try {
    return await work(attached);
  } finally {
    await attached.stop();
  }
}

/** Checks each case's answer equal on both servers, then times the answered ones in turns. */
export async function benchAttached(
  served: ServedPortal,
  attached: ServedPortal,
  runs: number,
): Promise<AttachedResult> {
  const answered: ClickHouseCase[] = [];
  const refused: AttachedRefusal[] = [];
  for (const c of CLICKHOUSE_CASES) {
    const [parquet, clickhouse] = await Promise.all([
      fetchText(served.base + c.path),
      fetchText(attached.base + c.path),
    ]);
    if (parquet.status !== 200) throw new Error(`${c.name}: the Parquet dataset answered ${parquet.status}`);
    if (clickhouse.status !== 200) {
      const message = (JSON.parse(clickhouse.body) as { message?: string }).message ?? clickhouse.body;
      refused.push({ name: c.name, status: clickhouse.status, message });
      continue;
    }
    if (comparable(parquet.body) !== comparable(clickhouse.body))
      throw new Error(
        `${c.name}: the attached dataset's answer differs:\n${parquet.body.slice(0, 400)}\n---\n${clickhouse.body.slice(0, 400)}`,
      );
    answered.push(c);
  }
  const timed = (base: string, c: ClickHouseCase) => async () => {
    const { status } = await fetchText(base + c.path);
    if (status !== 200) throw new Error(`${c.name}: HTTP ${status}`);
  };
  const pairs = await medianTurnsInRounds(
    answered.map((c) => [timed(attached.base, c), timed(served.base, c)] as const),
    runs,
  );
  const times = answered.map((c, i) => ({
    name: c.name,
    clickhouseMs: pairs[i]!.medians[0],
    parquetMs: pairs[i]!.medians[1],
    ratio: pairs[i]!.ratio,
  }));
  return { times, refused, parquetExport: await benchParquetExport(served, attached, runs) };
}

/** The Parquet export's line of the report. */
function parquetExportText(p: AttachedParquetExport, ratioCell: (r: MeasuredRatio) => string): string {
  const mib = ([resting, peak]: readonly [number | null, number | null]) =>
    `${resting ?? '?'} -> ${peak ?? '?'} MiB`;
  return (
    `Whole Parquet export (${p.rows.toLocaleString('en-US')} rows, ${p.megabytes.toFixed(1)} MB, same rows and types): ` +
    `${(p.parquetMs / 1000).toFixed(2)} s from Parquet, ${(p.clickhouseMs / 1000).toFixed(2)} s from ClickHouse ` +
    `(encoded by DuckDB), ${ratioCell(p.ratio)}; server memory at rest -> peak: ${mib(p.parquetRssMiB)} (Parquet), ` +
    `${mib(p.clickhouseRssMiB)} (ClickHouse-backed).`
  );
}

/** The report's lines: each case on both datasets, the Parquet export, then the refused ones. */
export function attachedText(result: AttachedResult, ratioCell: (r: MeasuredRatio) => string): string[] {
  const ms = (value: number): string => (value < 10 ? value.toFixed(1) : value.toFixed(0));
  return [
    markdownTable(
      ['case', 'from Parquet (ms)', 'from ClickHouse, attached (ms)', 'ClickHouse / Parquet'],
      result.times.map((t) => [t.name, ms(t.parquetMs), ms(t.clickhouseMs), ratioCell(t.ratio)]),
    ),
    '',
    parquetExportText(result.parquetExport, ratioCell),
    ...(result.refused.length > 0
      ? [
          '',
          'Refused by the attached dataset (a clean error, what its engine cannot answer exactly as DuckDB does):',
          '',
          ...result.refused.map((r) => `- ${r.name}: ${r.status} "${r.message}"`),
        ]
      : []),
  ];
}
