// The catalog section (issue 42, item 1): portals of 1,000, 10,000 and 100,000 copies of one small
// dataset (bench/catalog-portal.ts), each served by a server of its own: ready without the index
// file and with it, resident memory, the p50 of the catalog's list, search and facets, a SIGHUP
// after one dataset changed (until the new title is served), and a cold dataset's first request
// over the same request warm, each figure beside its target.
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { catalogIndexPath } from '../src/catalog/catalog-index.js';
import { copyId } from '../test/helpers/catalog-copies.js';
import { buildCatalogPortal } from './catalog-portal.js';
import { median, servePortal, timeMs, type ServedPortal } from './harness.js';

/** The portals measured, by number of datasets. */
export const CATALOG_SIZES = [1_000, 10_000, 100_000] as const;

/** Issue 42's targets. */
export const CATALOG_TARGETS = {
  readyMs: 10_000,
  residentMB: 1_000,
  listMs: 30,
  searchMs: 30,
  facetsMs: 50,
  reloadMs: 1_000,
  coldOverWarmMs: 50,
} as const;

/** Timed requests of each kind (after two warm-ups); SIGHUPs timed; cold datasets opened. */
export const CATALOG_TURNS = { requests: 15, reloads: 3, cold: 9 } as const;

export interface CatalogResult {
  readonly datasets: number;
  readonly readyWithoutIndexMs: number;
  readonly readyWithIndexMs: number;
  /** VmRSS after the requests below, and VmHWM (the peak since the start with the index). */
  readonly residentMB: number;
  readonly peakMB: number;
  readonly listMs: number;
  readonly searchMs: number;
  readonly facetsMs: number;
  readonly reloadMs: number;
  readonly coldMs: number;
  readonly warmMs: number;
}

const V21 = '/api/explore/v2.1';

/** Measures every portal size in turn (each built first when missing). */
export async function benchCatalog(
  samplePortal: string,
  port: number,
  threads: number,
  extraArgs: readonly string[],
  log: (line: string) => void,
): Promise<CatalogResult[]> {
  const results: CatalogResult[] = [];
  for (const size of CATALOG_SIZES) {
    const dir = await buildCatalogPortal(samplePortal, size, log);
    log(`bench: catalog of ${size} datasets`);
    results.push(await benchOne(dir, size, port, threads, extraArgs));
  }
  return results;
}

async function benchOne(
  dir: string,
  size: number,
  port: number,
  threads: number,
  extraArgs: readonly string[],
): Promise<CatalogResult> {
  await rm(catalogIndexPath(dir), { force: true });
  const serve = (): Promise<ServedPortal> => servePortal(dir, port, threads, extraArgs);
  let server: ServedPortal | null = null;
  const readyWithoutIndexMs = await timeMs(async () => (server = await serve()));
  await server!.stop();
  const readyWithIndexMs = await timeMs(async () => (server = await serve()));
  const served = server!;
  try {
    const get = (url: string) => requestOk(`${served.base}${V21}${url}`);
    const listMs = await p50((turn) => get(`/catalog/datasets?limit=10&offset=${turn}`));
    // A term each time: a search's total_count is not taken from the engine's cache of counts.
    const searchMs = await p50((turn) => get(`/catalog/datasets?limit=10&where=${term(size, turn)}`));
    const facetsMs = await p50(() => get('/catalog/facets'));
    const { coldMs, warmMs } = await coldAndWarm(get, size);
    const reloadMs = await reloads(dir, served, size);
    const memory = await processMemory(served.pid);
    return {
      datasets: size,
      readyWithoutIndexMs,
      readyWithIndexMs,
      ...memory,
      listMs,
      searchMs,
      facetsMs,
      reloadMs,
      coldMs,
      warmMs,
    };
  } finally {
    await served.stop();
  }
}

/** The bare-string search of the keyword of one copy (each copy's keywords hold `c<index>`). */
const term = (size: number, turn: number): string => encodeURIComponent(`"c${(turn * 7919) % size}"`);

async function requestOk(url: string): Promise<void> {
  const response = await fetch(url);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
}

/** The p50 of CATALOG_TURNS.requests timed calls, after two warm-ups. */
async function p50(work: (turn: number) => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let turn = 0; turn < CATALOG_TURNS.requests + 2; turn++) {
    const ms = await timeMs(() => work(turn));
    if (turn >= 2) times.push(ms);
  }
  return median(times);
}

/**
 * A 10-row page of records of datasets no request opened yet (the last copies), first cold then
 * warm: with more datasets than --max-open-datasets (default 1,000), the first request opens its
 * views; a portal that fits has every dataset opened at start, and both are warm.
 */
async function coldAndWarm(get: (url: string) => Promise<void>, size: number) {
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < CATALOG_TURNS.cold; i++) {
    const url = `/catalog/datasets/${copyId(size - 1 - i)}/records?limit=10`;
    cold.push(await timeMs(() => get(url)));
    warm.push(await timeMs(() => get(url)));
  }
  return { coldMs: median(cold), warmMs: median(warm) };
}

/**
 * The median time from SIGHUP, after one dataset.json changed (a new title written aside and
 * renamed over it), until the dataset lookup answers the new title (asked every 10 ms, each time
 * on a new connection: a request on a kept-alive connection during the reload waited 5 s more,
 * which is the keep-alive's matter, not the reload's).
 */
async function reloads(dir: string, served: ServedPortal, size: number): Promise<number> {
  const times: number[] = [];
  for (let turn = 0; turn < CATALOG_TURNS.reloads; turn++) {
    const id = copyId((turn * 104_729) % size);
    const file = path.join(dir, 'datasets', id, 'dataset.json');
    const parsed = JSON.parse(await readFile(file, 'utf8')) as { metas: { default: { title: string } } };
    const title = `Reloaded ${Date.now()} ${turn}`;
    parsed.metas.default.title = title;
    await writeFile(`${file}.new`, JSON.stringify(parsed));
    await rename(`${file}.new`, file);
    const url = `${served.base}${V21}/catalog/datasets/${id}?select=title`;
    const start = process.hrtime.bigint();
    process.kill(served.pid, 'SIGHUP');
    while ((JSON.parse(await getOnNewConnection(url)) as { title?: string }).title !== title) await sleep(10);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

/** The body of a GET sent on a connection of its own. */
function getOnNewConnection(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve(body));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The server's resident memory now and at its peak (VmRSS and VmHWM of /proc/<pid>/status), in MB. */
async function processMemory(pid: number): Promise<{ residentMB: number; peakMB: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kB = (name: string): number =>
    Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { residentMB: (kB('VmRSS') * 1024) / 1e6, peakMB: (kB('VmHWM') * 1024) / 1e6 };
}
