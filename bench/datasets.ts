// The bench's datasets, built deterministically once and kept in data/bench (not committed):
// flights as shipped (3M rows, copied from the sample portal) and flights30m, ten copies of it
// with each copy's dates shifted by a whole number of years, ingested like any user file.
import { existsSync } from 'node:fs';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { ingest } from '../src/ingest/ingest.js';

/** The bench portal: quotas off so that load tests measure the engine, not the quota. */
export const BENCH_PORTAL = path.resolve('data/bench/portal');

const SETTINGS = {
  title: 'duckportal bench',
  quotas: { per_ip: null, per_key: null, portal: null, concurrent_exports: null },
};

/** Builds what is missing of the bench portal from the sample portal; returns its path. */
export async function buildBenchPortal(samplePortal: string, log: (line: string) => void): Promise<string> {
  const datasets = path.join(BENCH_PORTAL, 'datasets');
  await mkdir(datasets, { recursive: true });
  await writeFile(path.join(BENCH_PORTAL, 'portal.json'), JSON.stringify(SETTINGS));
  // Copied, not linked: the portal loader serves only real directories.
  for (const id of ['flights', 'airports']) {
    const copy = path.join(datasets, id);
    if (!existsSync(path.join(copy, 'data.parquet'))) {
      await cp(path.resolve(samplePortal, 'datasets', id), copy, { recursive: true });
    }
  }
  if (!existsSync(path.join(datasets, 'flights30m', 'data.parquet'))) {
    const source = path.join(path.dirname(BENCH_PORTAL), 'flights30m-source.parquet');
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const flights = path.resolve(samplePortal, 'datasets', 'flights', 'data.parquet').replaceAll("'", "''");
    log('bench: writing flights30m-source.parquet (10 x 3M rows)');
    await connection.run(
      `COPY (SELECT date + to_years(copy::INTEGER) AS date, delay, distance, origin, destination
             FROM read_parquet('${flights}'), range(10) AS copies(copy) ORDER BY copy)
       TO '${source.replaceAll("'", "''")}' (FORMAT parquet)`,
    );
    connection.closeSync();
    instance.closeSync();
    await ingest({
      file: source,
      portal: BENCH_PORTAL,
      id: 'flights30m',
      title: 'US domestic flights, 10 x 3M rows',
      facets: ['origin', 'destination'],
      progress: log,
    });
    await rm(source, { force: true });
  }
  return BENCH_PORTAL;
}
