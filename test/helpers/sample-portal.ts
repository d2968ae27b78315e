// The sample portal built by `make data`, served once per suite, and an independent DuckDB to
// compute what its answers must be straight from the Parquet files.
import path from 'node:path';
import { existsSync } from 'node:fs';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { startTestServer, type TestServer } from './server.js';

export const SAMPLE_PORTAL = path.resolve('data/portal');

/** Serves the sample portal; fails with the command to run when it has not been built. */
export async function startSampleServer(): Promise<TestServer> {
  if (!existsSync(path.join(SAMPLE_PORTAL, '.built'))) {
    throw new Error(`the sample portal is missing: run \`make data\` (expected ${SAMPLE_PORTAL})`);
  }
  return startTestServer(SAMPLE_PORTAL);
}

/** A plain DuckDB connection where each sample dataset is a table named after its id. */
export interface Reference {
  rows(sql: string): Promise<Record<string, unknown>[]>;
  close(): void;
}

export async function openReference(): Promise<Reference> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection: DuckDBConnection = await instance.connect();
  for (const id of ['airports', 'flights', 'seattle-weather', 'earthquakes', 'movies']) {
    const file = path.join(SAMPLE_PORTAL, 'datasets', id, 'data.parquet').replaceAll("'", "''");
    await connection.run(`CREATE VIEW "${id}" AS SELECT * FROM read_parquet('${file}')`);
  }
  return {
    async rows(sql) {
      const reader = await connection.runAndReadAll(sql);
      return reader.getRowObjectsJson();
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** The sample server and the reference DuckDB of a suite, opened before it and closed after. */
export interface SampleSuite {
  readonly server: TestServer;
  readonly reference: Reference;
}

/** Registers the suite's before/after hooks; the returned object is filled before the first test. */
export function useSampleSuite(): SampleSuite {
  const suite = {} as { server: TestServer; reference: Reference };
  before(async () => {
    suite.server = await startSampleServer();
    suite.reference = await openReference();
  });
  after(async () => {
    await suite.server.close();
    suite.reference.close();
  });
  return suite;
}
