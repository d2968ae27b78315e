// A fixture portal that keeps its API calls (the monitoring source), with an admin's key and
// alice's, and DuckDB reading the calls' Parquet files: what the monitoring tests compare with.
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { KeyStore } from '../../src/auth/keys.js';
import { startFixtureServer } from './fixture-portal.js';
import type { TestServer } from './server.js';

/** The served portal, the keys of an admin and of alice (no group), and its calls' files. */
export interface MonitoredPortal {
  readonly server: TestServer & { dir: string };
  readonly admin: string;
  readonly alice: string;
  /** The calls' Parquet files as a table expression: `read_parquet('<dir>/monitoring/*.parquet')`. */
  readonly calls: string;
}

/** Starts the fixture portal with --monitoring-days 30, calls written only when flushed. */
export async function startMonitoredPortal(): Promise<MonitoredPortal> {
  let admin = '';
  let alice = '';
  const server = await startFixtureServer(
    (dir) => {
      admin = new KeyStore(dir).create('root', ['admin']).key;
      alice = new KeyStore(dir).create('alice').key;
      return Promise.resolve();
    },
    { monitoringDays: 30, monitoringBatch: { flushSeconds: 3600 } },
  );
  const files = path.join(server.dir, 'monitoring', '*.parquet').replaceAll("'", "''");
  return { server, admin, alice, calls: `read_parquet('${files}')` };
}

/** The rows of `sql` run by an in-memory DuckDB, as JSON values. */
export async function duckdbRows(sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
