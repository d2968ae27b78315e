// Exports over HTTP against DuckDB's COPY of the equal-output SQL to a file (export-cases.ts), in the
// same run: total time, time to the first byte, the server's peak resident memory during the case,
// and whether one download was the same bytes as its baseline.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import type { DuckDBConnection } from '@duckdb/node-api';
import { EXPORT_CASES, type Baseline, type ExportCase } from './export-cases.js';
import { median, timeMs, wantsAnotherTurn, type ServedPortal } from './harness.js';

const run = promisify(execFile);

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
  /** The server's VmRSS once it came to rest before the case (restingRss), in MiB. */
  readonly restingRssMiB: number | null;
  /** Highest VmRSS of the server sampled every 50 ms during the case's downloads, in MiB. */
  readonly peakRssMiB: number | null;
  /** The baseline's COPY, `{file}` standing for its target. */
  readonly baselineSql: string;
  /** One download against head + COPY + tail: equal, or not (null: not expected, JS-written). */
  readonly sameBytes: boolean | null;
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
export function sampleRss(pid: number): { stop(): number | null } {
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

/**
 * Waits until the server's VmRSS stops falling (under 1% in 1 s, at most 20 s) and gives it, in
 * MiB. What a query before leaves resident is freed by the allocator within a few seconds (after
 * the 30M-row aggregations: 448 MiB falling to 190 MiB within 5 s): an export's peak measured
 * during that fall would be the earlier query's memory plus the export's.
 */
export async function restingRss(pid: number): Promise<number | null> {
  let last = await rssKiB(pid);
  for (let waited = 0; last !== null && waited < 20_000; waited += 1000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = await rssKiB(pid);
    if (now === null || now > last * 0.99) return Math.round((now ?? last) / 1024);
    last = now;
  }
  return last === null ? null : Math.round(last / 1024);
}

/** The baseline's COPY of `dataset` to `target`. */
export function baselineCopy(baseline: Baseline, dataset: string, target: string): string {
  const select = baseline.select.replaceAll('{table}', `"${dataset}"`);
  return `COPY (${select}) TO '${target.replaceAll("'", "''")}' (${baseline.options})`;
}

/** SHA-256 of a download (curl's output), failing on any status but 2xx. */
async function downloadHash(url: string): Promise<string> {
  const curl = spawn('curl', ['-sSf', url], { stdio: ['ignore', 'pipe', 'inherit'] });
  const hash = createHash('sha256');
  const exited = once(curl, 'close');
  await pipeline(curl.stdout, hash);
  const [code] = (await exited) as [number];
  if (code !== 0) throw new Error(`${url}: curl exited with ${code}`);
  return hash.digest('hex');
}

/** SHA-256 of head + the file + tail: the bytes the server would send around the same COPY. */
async function baselineHash(baseline: Baseline, file: string): Promise<string> {
  const hash = createHash('sha256');
  hash.update(baseline.head ?? '');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  hash.update(baseline.tail ?? '');
  return hash.digest('hex');
}

/**
 * Times each case over HTTP and as its baseline's COPY to a temp file, alternating the two after
 * a warm-up of each (which also compares their bytes) so that a busy moment weighs on both alike.
 */
export async function benchExports(
  served: ServedPortal,
  server: string,
  duckdb: DuckDBConnection,
  runs: number,
  cases: readonly ExportCase[] = EXPORT_CASES,
): Promise<ExportResult[]> {
  const target = path.join(os.tmpdir(), `duckportal-bench-export-${process.pid}`);
  const results: ExportResult[] = [];
  for (const c of cases) {
    const copy = baselineCopy(c.baseline, c.dataset, target);
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
        restingRssMiB: null,
        peakRssMiB: null,
        baselineSql: baselineCopy(c.baseline, c.dataset, '{file}'),
        sameBytes: null,
        error: error instanceof Error ? error.message : String(error),
      })),
    );
  }
  return results;
}

/**
 * One case: a warm-up of each side (compared), then downloads and COPYs alternated, RSS sampled meanwhile;
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
  // The warm-up: one download and one COPY, their bytes compared.
  const downloaded = await downloadHash(url);
  await copy();
  const sameBytes = c.baseline.same ? (await baselineHash(c.baseline, target)) === downloaded : null;
  await rm(target, { force: true });
  const restingRssMiB = await restingRss(served.pid);
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
    restingRssMiB,
    peakRssMiB: sampler.stop(),
    baselineSql: baselineCopy(c.baseline, c.dataset, '{file}'),
    sameBytes,
  };
}
