// Exports over HTTP against DuckDB's own COPY of the same compiled query to a file, in the same
// run: total time, time to the first byte, and the server's peak resident memory during the case.
import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { DuckDBConnection } from '@duckdb/node-api';
import { loadPortal } from '../src/catalog/portal.js';
import { querySource } from '../src/catalog/source.js';
import { NATIVE_FORMATS, type ExportOptions, type NativeFormatName } from '../src/exports/native-formats.js';
import { compileQuery } from '../src/odsql/index.js';
import { median, timeMs, wantsAnotherTurn, type ServedPortal } from './harness.js';

const run = promisify(execFile);

/** One export timed: the format over HTTP and the COPY that writes the same rows. */
export interface ExportCase {
  readonly format: string;
  readonly dataset: string;
  /** DuckDB's writer of the baseline, over the same compiled query. */
  readonly baseline: NativeFormatName;
  /** The target ratio of the exports issue, where it sets one. */
  readonly target?: number;
  /** Written by duckportal's JavaScript, not by DuckDB (no target: shown for scale). */
  readonly js?: boolean;
  /** Timed runs, when not the bench's (the 30M-row exports: 5). */
  readonly runs?: number;
}

/** The 30M-row exports, there for the server's memory: on a server started for them, 5 runs. */
export const MEMORY_CASES: readonly ExportCase[] = [
  { format: 'csv', dataset: 'flights30m', baseline: 'csv', target: 1.1, runs: 5 },
  { format: 'parquet', dataset: 'flights30m', baseline: 'parquet', target: 1.1, runs: 5 },
];

/**
 * Downloads timed per case, at least (up to EXPORT_MAX_TURNS): five turns of the 3M-row exports
 * gave ratios 15-40% apart between runs, one COPY of 0.6-1.1 s moving with the machine, and 5 s
 * of them (6-7 turns of the CSV) medians 1.04 and 1.14 in runs 12 and 14. One turn's ratio of the
 * 3M-row CSV spread 0.74-1.05 over 15 turns of one run; 10 s gives it about 13 turns.
 */
export const EXPORT_MEASURING_MS = 10_000;

/**
 * Most turns of an export case. The JS-written exports of airports take 40-80 ms against a COPY
 * of 8-12 ms, and 25 turns of them gave ratios 6-23% apart between runs.
 */
export const EXPORT_MAX_TURNS = 100;

export const EXPORT_CASES: readonly ExportCase[] = [
  { format: 'csv', dataset: 'flights', baseline: 'csv', target: 1.1 },
  { format: 'parquet', dataset: 'flights', baseline: 'parquet', target: 1.1 },
  { format: 'json', dataset: 'flights', baseline: 'json', target: 1.3 },
  { format: 'jsonl', dataset: 'flights', baseline: 'jsonl', target: 1.3 },
  { format: 'geojson', dataset: 'airports1m', baseline: 'json', target: 1.5 },
  // Arrow has no COPY writer: Parquet, the nearest columnar file, is the baseline.
  { format: 'arrow', dataset: 'flights', baseline: 'parquet', js: true, runs: 3 },
  { format: 'turtle', dataset: 'airports', baseline: 'json', js: true },
  { format: 'xlsx', dataset: 'airports', baseline: 'csv', js: true },
  { format: 'shp', dataset: 'airports', baseline: 'json', js: true },
  { format: 'kml', dataset: 'airports', baseline: 'json', js: true },
];

export interface ExportResult {
  /** How the server was started, e.g. `--memory-limit 256MB`, or 'default'. */
  readonly server: string;
  readonly format: string;
  readonly dataset: string;
  readonly js: boolean;
  readonly target: number | null;
  readonly httpMs: number;
  readonly firstByteMs: number;
  readonly copyMs: number;
  readonly ratio: number;
  readonly megabytes: number;
  /** Highest VmRSS of the server sampled every 50 ms during the case's downloads, in MiB. */
  readonly peakRssMiB: number | null;
  /** Why the case failed (its figures are then NaN): one failure does not lose the run. */
  readonly error?: string;
}

/**
 * Downloads with curl into /dev/null: the cheapest client there is, so that on a small machine
 * the bench's own reading does not take CPU from the server (Node's fetch costs ~15% on 2 cores).
 */
async function download(url: string): Promise<{ ms: number; firstByteMs: number; bytes: number }> {
  const format = '%{http_code} %{time_starttransfer} %{time_total} %{size_download}';
  const { stdout } = await run('curl', ['-sS', '-o', '/dev/null', '-w', format, url]);
  const [status, firstByte, total, bytes] = stdout.trim().split(' ').map(Number);
  if (status !== 200) throw new Error(`${url}: HTTP ${status}`);
  return { ms: total! * 1000, firstByteMs: firstByte! * 1000, bytes: bytes! };
}

/** Resident memory of a process now (VmRSS), in KiB; null where /proc is not there. */
async function rssKiB(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  const kib = status && /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kib ? Number(kib) : null;
}

/** Samples a process's VmRSS every 50 ms until stopped; `stop` gives the highest, in MiB. */
function sampleRss(pid: number): { stop(): number | null } {
  let peak: number | null = null;
  const take = (): void =>
    void rssKiB(pid).then((kib) => {
      if (kib !== null) peak = Math.max(peak ?? 0, kib);
    });
  take();
  const timer = setInterval(take, 50);
  return {
    stop: () => {
      clearInterval(timer);
      return peak === null ? null : Math.round(peak / 1024);
    },
  };
}

/** The COPY statement the server runs for a native format, writing to a file instead of a pipe. */
function baselineCopy(
  dataset: Parameters<typeof querySource>[0],
  format: NativeFormatName,
  target: string,
): string {
  const writer = NATIVE_FORMATS[format];
  const compiled = compileQuery(querySource(dataset), { limit: -1, timezone: 'UTC' }, writer.output);
  // The export's defaults: keys as headers, ';' delimiter, snappy.
  const options: ExportOptions = {
    headers: new Map(compiled.columns.map((c) => [c.key, c.key])),
    delimiter: ';',
    listSeparator: ',',
    quoteAll: false,
    parquetCompression: 'snappy',
  };
  const select = `SELECT ${writer.select(compiled.columns, options)} FROM (${compiled.sql})`;
  return `COPY (${select}) TO '${target.replaceAll("'", "''")}' (${writer.copyOptions(options)})`;
}

/**
 * Times each case over HTTP and as the same COPY to a temp file, alternating the two after a
 * warm-up of each so that a busy moment of the machine weighs on both alike.
 */
export async function benchExports(
  served: ServedPortal,
  server: string,
  portalDir: string,
  duckdb: DuckDBConnection,
  runs: number,
  cases: readonly ExportCase[] = EXPORT_CASES,
): Promise<ExportResult[]> {
  const portal = await loadPortal(portalDir);
  const target = path.join(os.tmpdir(), `duckportal-bench-export-${process.pid}`);
  const results: ExportResult[] = [];
  for (const c of cases) {
    const dataset = portal.datasets.get(c.dataset);
    if (!dataset) throw new Error(`bench exports: no dataset ${c.dataset} in ${portalDir}`);
    const copy = baselineCopy(dataset, c.baseline, target);
    results.push(
      await timeExport(served, server, c, () => duckdb.run(copy), target, runs).catch((error: unknown) => ({
        server,
        format: c.format,
        dataset: c.dataset,
        js: c.js ?? false,
        target: c.target ?? null,
        httpMs: NaN,
        firstByteMs: NaN,
        copyMs: NaN,
        ratio: NaN,
        megabytes: NaN,
        peakRssMiB: null,
        error: error instanceof Error ? error.message : String(error),
      })),
    );
  }
  return results;
}

/**
 * One case: a warm-up of each side, then downloads and COPYs alternated, RSS sampled meanwhile;
 * the ratio is the median of each turn's.
 */
async function timeExport(
  served: ServedPortal,
  server: string,
  c: ExportCase,
  copy: () => Promise<unknown>,
  target: string,
  runs: number,
): Promise<ExportResult> {
  const url = `${served.base}/api/explore/v2.1/catalog/datasets/${c.dataset}/exports/${c.format}`;
  const copyOnce = async (): Promise<number> => {
    const ms = await timeMs(copy);
    await rm(target, { force: true });
    return ms;
  };
  const times = c.runs ?? runs;
  if (times > 1) {
    await download(url);
    await copyOnce();
  }
  const sampler = sampleRss(served.pid);
  const downloads = [];
  const copies: number[] = [];
  try {
    // Quick cases run more, as in medianTurnsInRounds, here until EXPORT_MEASURING_MS of downloads
    // or EXPORT_MAX_TURNS. A case with runs of its own runs exactly those.
    let measured = 0;
    const another = (i: number): boolean =>
      c.runs === undefined
        ? wantsAnotherTurn(i, measured, runs, EXPORT_MEASURING_MS, EXPORT_MAX_TURNS)
        : i < c.runs;
    for (let i = 0; another(i); i++) {
      const downloaded = await download(url);
      downloads.push(downloaded);
      measured += downloaded.ms;
      copies.push(await copyOnce());
    }
  } finally {
    sampler.stop();
  }
  const httpMs = median(downloads.map((d) => d.ms));
  const copyMs = median(copies);
  // Each download against the COPY right after it: a slow moment of the machine weighs on both.
  const ratio = median(downloads.map((d, i) => d.ms / copies[i]!));
  return {
    server,
    format: c.format,
    dataset: c.dataset,
    js: c.js ?? false,
    target: c.target ?? null,
    httpMs,
    firstByteMs: median(downloads.map((d) => d.firstByteMs)),
    copyMs,
    ratio,
    megabytes: Math.round(downloads[0]!.bytes / 2 ** 20),
    peakRssMiB: sampler.stop(),
  };
}
