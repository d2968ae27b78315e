// One DuckDB instance for the whole server: locked down at start, a pool of connections,
// each query interruptible. Knows nothing of HTTP or ODSQL.
import { rm, mkdir } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import type { TableColumn } from '../../catalog/schema.js';
import { quoteString } from '../../sql/quoting.js';
import { HOLISTIC_BUDGET_BYTES } from '../../odsql/limits.js';
import { CountCache, DEFAULT_COUNT_ENTRIES } from '../count-cache.js';
import {
  type CopyFormat,
  type CopyFrame,
  type Engine,
  type EngineLabels,
  type JsonValue,
  type PageRows,
  type ViewKind,
  type ParquetFiles,
  type JsonLines,
  type RowChange,
} from '../engine.js';
import { streamThroughPipe } from './copy-stream.js';
import { DuckDBExportConnection } from './export-connection.js';
import { interruptible, type Deadline } from './interrupt.js';
import { lockDown } from './lockdown.js';
import { MEMORY_SETTINGS } from './memory-settings.js';
import { PreparedStatements } from './prepared.js';
import { CountLookups } from './count-lookup.js';
import { DEFAULT_SMALL_TABLES_BYTES, limitBytes, SmallTables, SMALL_TABLES_SHARE } from './small-tables.js';
import { dropServed, serveParquet, type Held } from './views.js';
import { HOT_DATABASE, HotDatasets, hotBudget } from './hot-datasets.js';
import { EngineLoad } from '../waiting-line.js';
import { inTransaction, jsonRowsSql, jsonTableSql, withJsonLines } from './storage-types.js';
import { chunksOf, readJsonRows } from './values.js';
import type { EngineOptions } from './engine-options.js';

export type { EngineOptions } from './engine-options.js';

/** A result read whole: column names, DuckDB type names and rows of DuckDB values. */
export interface QueryResult {
  readonly columns: readonly { readonly name: string; readonly type: string }[];
  readonly rows: readonly (readonly DuckDBValue[])[];
}

export class DuckDBEngine extends EngineLoad<DuckDBConnection> implements Engine, ParquetFiles {
  readonly labels: EngineLabels = { engine: 'duckdb', server: 'local' };
  /** The spill folder: the one writable place DuckDB may use, where export pipes are made. */
  readonly tempDirectory: string;
  private readonly deadlineMs: number;
  private readonly counts: CountCache;
  /** Pooled queries' statements kept prepared by their SQL (prepared.ts). */
  private readonly prepared: PreparedStatements;
  /** Small Parquet files served from memory (small-tables.ts), tables of value counts as lookups too. */
  private readonly held: Held;
  /** Datasets asked often, copied into memory under a budget (hot-datasets.ts). */
  readonly hot: HotDatasets;

  private constructor(
    private readonly instance: DuckDBInstance,
    pool: readonly DuckDBConnection[],
    options: EngineOptions,
  ) {
    super(pool, {
      exportConnections: options.exportConnections ?? DEFAULT_EXPORT_CONNECTIONS,
      targetWaitMs: options.targetWaitMs,
      maxWaiting: options.maxWaiting,
      memoryBudgetBytes: options.memoryBudgetBytes ?? HOLISTIC_BUDGET_BYTES,
    });
    this.counts = new CountCache(options.countEntries ?? DEFAULT_COUNT_ENTRIES);
    this.prepared = new PreparedStatements();
    const limit = limitBytes(options.memoryLimit);
    const small = new SmallTables(limit === null ? DEFAULT_SMALL_TABLES_BYTES : limit / SMALL_TABLES_SHARE);
    this.held = { small, lookups: new CountLookups() };
    const host = { connect: () => instance.connect(), storageChanged: () => this.prepared.forget() };
    this.hot = new HotDatasets(options.hotBytes ?? hotBudget(options.memoryLimit), host);
    this.deadlineMs = options.queryDeadlineMs ?? 30_000;
    this.tempDirectory = options.tempDirectory;
  }

  /** Opens the instance, wipes the spill folder, locks DuckDB down and fills the pool. */
  static async open(options: EngineOptions): Promise<DuckDBEngine> {
    await rm(options.tempDirectory, { recursive: true, force: true });
    await mkdir(options.tempDirectory, { recursive: true });
    const config: Record<string, string> = {
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      temp_directory: options.tempDirectory,
      ...MEMORY_SETTINGS,
    };
    if (options.threads) config.threads = String(options.threads);
    if (options.memoryLimit) config.memory_limit = options.memoryLimit;
    const instance = await DuckDBInstance.create(':memory:', config);
    const first = await instance.connect();
    // Parquet footers kept in memory (DuckDB checks each file's modification time) instead of read
    // for every query, a large share of a short query's time (bench/README.md, Measurements behind
    // the code).
    await first.run('SET GLOBAL parquet_metadata_cache = true');
    await first.run(`ATTACH ':memory:' AS ${HOT_DATABASE} (COMPRESS)`);
    await lockDown(first, [...options.allowedDirectories, options.tempDirectory]);
    const pool = [first];
    const connections = options.connections ?? DEFAULT_CONNECTIONS;
    for (let i = 1; i < connections; i++) pool.push(await instance.connect());
    return new DuckDBEngine(instance, pool, options);
  }

  /** Runs `work` on a pooled connection; `signal`, or `deadline` passing, interrupts the running statement. */
  async withConnection<T>(
    work: (connection: DuckDBConnection) => Promise<T>,
    signal?: AbortSignal,
    deadline?: Deadline,
  ): Promise<T> {
    return this.line.use((connection) => interruptible(connection, work, signal, deadline), signal);
  }

  /**
   * Runs an export's `work` on a new connection of its own, closed after: an export lasts as long
   * as its reader, and must not hold a pooled connection that JSON queries wait for. Past the
   * engine's export cap it is refused at once (EngineSaturated: 503, try again).
   */
  async withExportConnection<T>(
    work: (connection: DuckDBExportConnection) => Promise<T>,
    signal: AbortSignal,
  ): Promise<T> {
    return this.exports.run(async () => {
      const connection = await this.instance.connect();
      try {
        return await interruptible(connection, () => work(new DuckDBExportConnection(connection)), signal);
      } finally {
        connection.closeSync();
      }
    }, signal);
  }

  /**
   * Streams DuckDB's COPY of `selectSql` in `format` through a named pipe in the spill folder, on
   * an export connection (src/engine/duckdb/copy-stream.ts).
   */
  copyToStream(
    selectSql: string,
    format: CopyFormat,
    signal: AbortSignal,
    frame?: CopyFrame,
  ): Promise<Readable> {
    return streamThroughPipe(
      this.tempDirectory,
      (pipe) => this.withExportConnection((connection) => connection.copy(selectSql, pipe, format), signal),
      frame,
    );
  }

  /** Runs one statement and reads its whole result. */
  async query(sql: string, params: readonly DuckDBValue[] = [], signal?: AbortSignal): Promise<QueryResult> {
    return this.withDeadline(async (connection) => {
      const result = await this.prepared.run(connection, sql, params);
      const columns = result
        .columnNames()
        .map((name, i) => ({ name, type: result.columnType(i).toString() }));
      return { columns, rows: chunksOf(result).flatMap((chunk) => chunk.getRows()) };
    }, signal);
  }

  /** Runs one statement and reads its whole result as JSON objects (for pages of records, not exports). */
  async queryJson(
    sql: string,
    params: readonly DuckDBValue[] = [],
    signal?: AbortSignal,
  ): Promise<Record<string, JsonValue>[]> {
    return this.withDeadline(
      async (connection) => readJsonRows(await this.prepared.run(connection, sql, params)),
      signal,
    );
  }

  /** A page's rows; DuckDB tells no count beside them (a page of groups counts them by a window). */
  async queryPage(sql: string, signal?: AbortSignal): Promise<PageRows> {
    return { rows: await this.queryJson(sql, [], signal), rowsBeforeLimit: null };
  }

  /**
   * The `total_count` a count query answers: looked up when it counts equalities over a table of
   * value counts held (count-lookup.ts, no statement run), else kept until a view is defined or
   * dropped again.
   */
  async count(sql: string, signal?: AbortSignal): Promise<number> {
    const looked = this.held.lookups.count(sql);
    if (looked !== null) return looked;
    return this.counts.count(sql, async () =>
      Number((await this.queryJson(sql, [], signal))[0]?.total_count ?? 0),
    );
  }

  /**
   * Runs `work` on a pooled connection within the engine's deadline, counted from now (a wait in
   * line counts): past it the statement is interrupted and QueryDeadlineExceeded thrown. No
   * controller joins the caller's signal to a timer (AbortSignal.any and AbortSignal.timeout
   * cost many times more, for the weak references they keep: bench/README.md, Measurements behind
   * the code); interruptible watches both.
   */
  private async withDeadline<T>(work: (connection: DuckDBConnection) => Promise<T>, signal?: AbortSignal) {
    const deadline = { at: performance.now() + this.deadlineMs, ms: this.deadlineMs };
    return this.withConnection(work, signal, deadline);
  }

  /** Defines (or redefines) a view over a Parquet file; a dataset's view adds its records' ordinals. */
  async defineView(name: string, parquetPath: string, kind: ViewKind = 'plain'): Promise<void> {
    await this.served(name, async (connection) => {
      await serveParquet(connection, this.held, name, parquetPath, kind);
      return kind === 'dataset' ? parquetPath : null;
    });
  }

  /** Bytes of DuckDB's memory the copies of datasets asked often hold. */
  get hotBytes(): number {
    return this.hot.bytes;
  }

  /** A request asked for dataset view `name`: asked often, it is copied into memory (hot-datasets.ts). */
  used(name: string): void {
    this.hot.used(name);
  }

  /** Redefines or drops view `name` by `work` (its pinned file, if a candidate copy), after any copy's swap. */
  private async served(name: string, work: (connection: DuckDBConnection) => Promise<string | null>) {
    await this.hot.exclusive(() =>
      this.withConnection(async (connection) => this.hot.redefined(connection, name, await work(connection))),
    );
    this.viewsChanged();
  }

  /** Views changed: counts and prepared statements over the old ones are forgotten. */
  private viewsChanged(): void {
    this.counts.clear();
    this.prepared.forget();
  }

  /** (Re)creates an in-memory table from JSON lines read by DuckDB from a file, or replaces rows of it (`change`). */
  async defineJsonTable(name: string, columns: readonly TableColumn[], rows: JsonLines, change?: RowChange) {
    const define = (select: string) => this.runStatements(jsonTableSql(name, select, change));
    await withJsonLines(this.tempDirectory, columns, rows, define);
  }

  /** Runs the server's own statements (never a request's SQL) in one transaction: all or none apply. */
  async runStatements(statements: readonly string[]): Promise<void> {
    await this.withDeadline((connection) => inTransaction(connection, statements));
    this.viewsChanged();
  }

  /**
   * Writes JSON rows of `columns` as the Parquet file `file` (inside the allowed directories: the
   * server's own files, such as the monitoring calls, never a path from a request).
   */
  async writeJsonParquet(file: string, columns: readonly TableColumn[], rowsJson: string): Promise<void> {
    await this.query(`COPY (${jsonRowsSql(columns)}) TO ${quoteString(file)} (FORMAT parquet)`, [rowsJson]);
  }

  /** Writes the rows of the Parquet files `files` (of one schema) as the Parquet file `file`. */
  async mergeParquet(files: readonly string[], file: string): Promise<void> {
    const list = files.map(quoteString).join(', ');
    await this.query(`COPY (SELECT * FROM read_parquet([${list}])) TO ${quoteString(file)} (FORMAT parquet)`);
  }

  /** Drops a view if it exists. */
  async dropView(name: string): Promise<void> {
    await this.served(name, async (connection) => {
      await dropServed(connection, this.held, name);
      return null;
    });
  }

  close(): void {
    this.hot.stop();
    for (const connection of this.line.takeIdle()) connection.closeSync();
    this.instance.closeSync();
  }
}

export { parquetViewSql } from './views.js';

/** Pooled connections for JSON queries by default. */
export const DEFAULT_CONNECTIONS = 8;

/** Exports that may run at once by default (see EngineOptions.exportConnections). */
export const DEFAULT_EXPORT_CONNECTIONS = 32;
