// A plain DuckDB instance over Parquet fixtures written in a temp dir: where geo and search SQL is executed.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { parquetViewSql } from '../../src/engine/duckdb/engine.js';
import { quoteString } from '../../src/sql/quoting.js';

/** Plain JS of a DuckDB value: BIGINT as number (fixtures stay far below 2^53). */
function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

/** One DuckDB instance and a temp dir of Parquet files, each under a view of its name. */
export class FixtureDb {
  private constructor(
    readonly dir: string,
    private readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
  ) {}

  /** A fresh in-memory instance and an empty temp dir. */
  static async create(): Promise<FixtureDb> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-geo-search-'));
    const instance = await DuckDBInstance.create(':memory:');
    return new FixtureDb(dir, instance, await instance.connect());
  }

  /** Writes the rows of `selectSql` to `<name>.parquet` and defines view `name` over the file. */
  async parquet(name: string, selectSql: string): Promise<string> {
    const file = path.join(this.dir, `${name}.parquet`);
    await this.connection.run(`COPY (${selectSql}) TO ${quoteString(file)} (FORMAT parquet)`);
    await this.view(name, file);
    return file;
  }

  /** Defines (or replaces) view `name` over a Parquet file, as the server does (engine/duckdb/engine.ts). */
  async view(name: string, file: string, kind: 'dataset' | 'plain' = 'plain'): Promise<void> {
    await this.connection.run(parquetViewSql(name, file, kind));
  }

  /** Every row of a query, as plain objects. */
  async rows(sql: string): Promise<Record<string, unknown>[]> {
    const reader = await this.connection.runAndReadAll(sql);
    return reader.getRowObjectsJS().map((row) => plain(row) as Record<string, unknown>);
  }

  /** The first column of a query's rows. */
  async column(sql: string): Promise<unknown[]> {
    const reader = await this.connection.runAndReadAll(sql);
    return reader.getRowsJS().map((row) => plain(row[0]));
  }

  /** The single value of a one-row, one-column query. */
  async value(sql: string): Promise<unknown> {
    const [first] = await this.column(sql);
    return first;
  }

  /** Closes the instance and removes the temp dir. */
  async close(): Promise<void> {
    this.connection.closeSync();
    this.instance.closeSync();
    await rm(this.dir, { recursive: true, force: true });
  }
}
