// The bench's datasets, built deterministically once and kept in data/bench (not committed):
// flights as shipped (3M rows, copied from the sample portal); flights30m, ten copies of it with
// each copy's dates shifted by a whole number of years; airports1m, the first 1,000,000 points of
// 297 copies of airports, each copy shifted east by 0.01 degree; all ingested like any user file.
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { ingest } from '../src/ingest/ingest.js';

/** The bench portal: quotas off so that load tests measure the engine, not the quota. */
export const BENCH_PORTAL = path.resolve('data/bench/portal');

const SETTINGS = {
  title: 'duckportal bench',
  quotas: { per_ip: null, per_key: null, portal: null, concurrent_exports: null },
};

/**
 * Builds what is missing of the bench portal from the sample portal; returns its path. Without
 * `withCopies`, flights and airports only (enough for the load and HTTP caching sections).
 */
export async function buildBenchPortal(
  samplePortal: string,
  log: (line: string) => void,
  withCopies = true,
): Promise<string> {
  const datasets = path.join(BENCH_PORTAL, 'datasets');
  await mkdir(datasets, { recursive: true });
  await writeFile(path.join(BENCH_PORTAL, 'portal.json'), JSON.stringify(SETTINGS));
  // Copied, not linked: the portal loader serves only real directories. Copied again when the
  // sample was ingested since (its dataset.json differs): the bench measures the layout ingest
  // writes today (e.g. its default sort key), and ClickHouse's table takes that copy's key.
  for (const id of ['flights', 'airports']) {
    const copy = path.join(datasets, id);
    const sample = path.resolve(samplePortal, 'datasets', id);
    if (!(await sameText(path.join(copy, 'dataset.json'), path.join(sample, 'dataset.json')))) {
      await rm(copy, { recursive: true, force: true });
      await cp(sample, copy, { recursive: true });
    }
  }
  if (withCopies) {
    await buildCopies(samplePortal, 'flights30m', log);
    await buildCopies(samplePortal, 'airports1m', log);
  }
  return BENCH_PORTAL;
}

/** Whether two files hold the same text (a missing file holds none). */
async function sameText(a: string, b: string): Promise<boolean> {
  const read = (file: string) => readFile(file, 'utf8').catch(() => null);
  const [left, right] = await Promise.all([read(a), read(b)]);
  return left !== null && left === right;
}

/** A dataset made of shifted copies of a sample dataset: the copying SELECT and how to ingest it. */
interface Copies {
  readonly source: string;
  readonly select: (file: string) => string;
  readonly title: string;
  readonly facets: readonly string[];
  readonly geoPoint?: { readonly lat: string; readonly lon: string };
}

const COPIES: Readonly<Record<'flights30m' | 'airports1m', Copies>> = {
  flights30m: {
    source: 'flights',
    select: (file) =>
      `SELECT date + to_years(copy::INTEGER) AS date, delay, distance, origin, destination
       FROM read_parquet('${file}'), range(10) AS copies(copy) ORDER BY copy`,
    title: 'US domestic flights, 10 x 3M rows',
    facets: ['origin', 'destination'],
  },
  airports1m: {
    source: 'airports',
    select: (file) =>
      `SELECT iata || '-' || copy AS iata, name, city, state, country, latitude,
              longitude + copy * 0.01 AS longitude
       FROM read_parquet('${file}', file_row_number = true), range(297) AS copies(copy)
       ORDER BY copy, file_row_number LIMIT 1000000`,
    title: 'US airports, 1,000,000 shifted copies',
    facets: ['state'],
    geoPoint: { lat: 'latitude', lon: 'longitude' },
  },
};

/** Writes the copies to a Parquet file and ingests it, unless the dataset is already there. */
async function buildCopies(samplePortal: string, id: keyof typeof COPIES, log: (line: string) => void) {
  const datasets = path.join(BENCH_PORTAL, 'datasets');
  if (existsSync(path.join(datasets, id, 'data.parquet'))) return;
  const copies = COPIES[id];
  const source = path.join(path.dirname(BENCH_PORTAL), `${id}-source.parquet`);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const file = path.resolve(samplePortal, 'datasets', copies.source, 'data.parquet').replaceAll("'", "''");
  log(`bench: writing ${id}-source.parquet`);
  await connection.run(`COPY (${copies.select(file)}) TO '${source.replaceAll("'", "''")}' (FORMAT parquet)`);
  connection.closeSync();
  instance.closeSync();
  await ingest({
    file: source,
    portal: BENCH_PORTAL,
    id,
    title: copies.title,
    facets: copies.facets,
    ...(copies.geoPoint ? { geoPoint: copies.geoPoint } : {}),
    progress: log,
  });
  await rm(source, { force: true });
}
