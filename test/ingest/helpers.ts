// Shared by the ingest tests: temp portals, fixture files, and reading back what ingest wrote.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DuckDBInstance, type DuckDBConnection, type Json } from '@duckdb/node-api';
import { datasetFileSchema, RECORD_ID_COLUMN, type DatasetFile } from '../../src/catalog/schema.js';
import { STORAGE_TYPES } from '../../src/engine/duckdb/storage-types.js';
import { quoteString } from '../../src/sql/quoting.js';

export const VEGA_DATA = path.resolve('node_modules/vega-datasets/data');

/** A fresh temp directory; `cleanup` removes every one made so far. */
const made: string[] = [];
export async function tempDir(prefix = 'duckportal-ingest-test-'): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
export async function cleanup(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/**
 * Registers a describe block's hooks: before each test a fresh temp directory and a portal path
 * inside it (filled into the returned object), every directory removed after the block.
 */
export function useTempPortal(): { dir: string; portal: string } {
  const temp = { dir: '', portal: '' };
  beforeEach(async () => {
    temp.dir = await tempDir();
    temp.portal = path.join(temp.dir, 'portal');
  });
  after(cleanup);
  return temp;
}

/**
 * Registers a describe block's hooks for a local HTTP server answering with `handle`: its `base`
 * URL is filled in before the block's tests, and after them the server closes, cutting open
 * (stalled) responses.
 */
export function useHttpServer(handle: http.RequestListener): { base: string } {
  const served = { base: '' };
  const server = http.createServer(handle);
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    served.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return served;
}

const run = promisify(execFile);
const CLI = path.resolve('bin/duckportal.cjs');

/** Runs the real `duckportal ingest <file> --portal <portal> --id <id> ...flags`; a failure rejects with code, stdout, stderr. */
export function ingestCommand(
  file: string,
  portal: string,
  id: string,
  ...flags: string[]
): Promise<{ stdout: string; stderr: string }> {
  return run(CLI, ['ingest', file, '--portal', portal, '--id', id, ...flags]);
}

/** Writes a fixture file (text or raw bytes) into `dir` and returns its path. */
export async function fixture(dir: string, name: string, content: string | Buffer): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

let shared: { connection: DuckDBConnection } | null = null;
async function connection(): Promise<DuckDBConnection> {
  if (!shared) {
    const instance = await DuckDBInstance.create(':memory:');
    shared = { connection: await instance.connect() };
    await shared.connection.run("SET TimeZone = 'UTC'");
  }
  return shared.connection;
}

/** Runs SQL on a test-only DuckDB connection and returns rows as JSON objects. */
export async function query(sql: string): Promise<Record<string, Json>[]> {
  const reader = await (await connection()).runAndReadAll(sql);
  return reader.getRowObjectsJson();
}

/** The rows of a dataset's data.parquet, in file order. */
export function readRows(portal: string, id: string, select = '*'): Promise<Record<string, Json>[]> {
  return query(`SELECT ${select} FROM read_parquet(${quoteString(dataPath(portal, id))})`);
}

export function dataPath(portal: string, id: string): string {
  return path.join(portal, 'datasets', id, 'data.parquet');
}

/** dataset.json, validated by the catalog's own schema. */
export async function readDatasetFile(portal: string, id: string): Promise<DatasetFile> {
  const text = await readFile(path.join(portal, 'datasets', id, 'dataset.json'), 'utf8');
  return datasetFileSchema.parse(JSON.parse(text));
}

/** Field name -> type, from dataset.json. */
export async function fieldTypes(portal: string, id: string): Promise<Record<string, string>> {
  const file = await readDatasetFile(portal, id);
  return Object.fromEntries(file.fields.map((f) => [f.name, f.type]));
}

/**
 * Asserts the stored contract: dataset.json validates, and data.parquet has exactly `_recordid`
 * plus one column per field, each of the DuckDB type STORAGE_TYPES gives (VARCHAR[] when multivalued).
 */
export async function expectStorageMatchesSchema(portal: string, id: string): Promise<void> {
  const file = await readDatasetFile(portal, id);
  const columns = await query(`DESCRIBE SELECT * FROM read_parquet(${quoteString(dataPath(portal, id))})`);
  const actual = Object.fromEntries(columns.map((c) => [c.column_name as string, c.column_type as string]));
  const expected: Record<string, string> = { [RECORD_ID_COLUMN]: 'VARCHAR' };
  for (const field of file.fields) {
    const multivalued = field.annotations.multivalued !== undefined;
    expected[field.name] = multivalued ? 'VARCHAR[]' : STORAGE_TYPES[field.type];
  }
  expect(actual).to.deep.equal(expected);
}

/** sha256 of every file under `dir`, by relative path: equal maps mean identical trees. */
export async function treeDigest(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const digests: Record<string, string> = {};
  for (const entry of entries.filter((e) => e.isFile())) {
    const file = path.join(entry.parentPath, entry.name);
    digests[path.relative(dir, file)] = createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  }
  return digests;
}
