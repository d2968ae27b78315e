// What the rest of the server knows of a query engine, whatever runs the SQL: JSON rows of one
// SELECT, a result streamed chunk by chunk or written whole in a format of the engine's own, the
// views it serves, and the errors a client may be told of. DuckDB's engine is in duckdb/. Knows
// nothing of HTTP or ODSQL.
import type { Readable } from 'node:stream';
import type { TableColumn } from '../catalog/schema.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Thrown when a query is stopped by its caller (client gone). */
export class QueryInterrupted extends Error {
  constructor() {
    super('query interrupted');
  }
}

/** Thrown when a query ran past the engine's deadline and was interrupted. */
export class QueryDeadlineExceeded extends Error {
  constructor(readonly deadlineMs: number) {
    super(`query stopped after ${deadlineMs} ms`);
  }
}

/** Thrown when the engine could not get the memory a query needed within the engine's memory limit. */
export class QueryOutOfMemory extends Error {
  constructor() {
    super('the query needed more memory than the engine may use now');
  }
}

/** Thrown when a view's Parquet file is gone (a dataset folder removed while serving). */
export class DataFileMissing extends Error {
  constructor() {
    super("a dataset's data file is missing");
  }
}

/** Thrown when a query or an export could not write to the disk: it is full. */
export class DiskFull extends Error {
  constructor() {
    super('no space left on device');
  }
}

/** Thrown when every connection is busy and the waiting line is full. */
export class EngineSaturated extends Error {
  /** `retryAfterSeconds`: when the caller may find room (the time the line takes to be served). */
  constructor(readonly retryAfterSeconds = 1) {
    super('every connection is busy and the waiting line is full');
  }
}

/**
 * Thrown when the engine's server (a remote one) does not answer: down, unreachable or too slow
 * (`part` false), or it answers but a server of its cluster behind it does not: a shard down, its
 * replicas unreachable or too far behind (`part` true).
 */
export class EngineUnavailable extends Error {
  /** `retryAfterSeconds`: when the caller may try again. */
  constructor(
    readonly retryAfterSeconds = 5,
    readonly part = false,
  ) {
    super(part ? "a server of the engine's cluster does not answer" : "the engine's server does not answer");
  }
}

/**
 * Thrown when the engine's server (a remote one) stopped a query itself: cancelled from outside
 * (KILL QUERY by its operator) or at one of its own limits (time, rows or bytes read, a quota).
 */
export class QueryStoppedByServer extends Error {
  /** `retryAfterSeconds`: when the caller may try again. */
  constructor(
    readonly reason: 'cancelled' | 'limit',
    readonly retryAfterSeconds = 5,
  ) {
    super(`the engine's server stopped the query (${reason})`);
  }
}

/** Thrown when the engine cannot write a result in a format (ClickHouse 18.16 writes no Parquet). */
export class CopyUnsupported extends Error {
  constructor(readonly format: string) {
    super(`this dataset's engine cannot write ${format}`);
  }
}

/** A dataset's rows (with ordinals), a plain file, a pinned one, or a pinned table of value counts. */
export type ViewKind = 'dataset' | 'plain' | 'pinned' | 'counts';

/** A page's rows, and how many rows its query had before its LIMIT when the engine tells it. */
export interface PageRows {
  readonly rows: Record<string, JsonValue>[];
  /** Counted in the same pass (ClickHouse's rows_before_limit_at_least); null when not told. */
  readonly rowsBeforeLimit: number | null;
}

/** A value bound to a statement's `$n` parameter. */
export type SqlParam = null | boolean | number | bigint | string;

/**
 * A value of a streamed result as JS holds it: lists are arrays; dates, times, decimals and the
 * other values JS has no type for are their text.
 */
export type CellValue = null | boolean | number | bigint | string | readonly CellValue[];

/** Arrow's validity of a column: a bitmap (least significant bit first), absent when no row is null. */
export interface Validity {
  readonly nullBitmap?: Uint8Array;
  readonly nullCount: number;
}

/** UTF-8 strings in Arrow's layout: offsets into one buffer of bytes. */
export interface Utf8Arrays extends Validity {
  readonly type: 'utf8';
  readonly valueOffsets: Int32Array;
  readonly data: Uint8Array;
}

/**
 * A column of a chunk in Arrow's memory layout, null slots zeroed. Timestamps are microseconds
 * since the epoch in UTC, dates days since the epoch, booleans packed in bits.
 */
export type ColumnArrays =
  | (Validity & { readonly type: 'int64' | 'timestamp_us'; readonly values: BigInt64Array })
  | (Validity & { readonly type: 'float64'; readonly values: Float64Array })
  | (Validity & { readonly type: 'date32'; readonly values: Int32Array })
  | (Validity & { readonly type: 'bool'; readonly values: Uint8Array })
  | Utf8Arrays
  | (Validity & { readonly type: 'list'; readonly valueOffsets: Int32Array; readonly child: Utf8Arrays });

/** Rows of a streamed result, as many as the engine hands over at once, read by column. */
export interface Chunk {
  readonly rowCount: number;
  /** The values of the column at `index`, one per row. */
  values(index: number): readonly CellValue[];
  /** The column at `index` in Arrow's layout, without a JS value per cell (the Arrow export). */
  arrays(index: number): ColumnArrays;
}

/** A format the engine writes a whole result in itself, streamed as it writes. */
export type CopyFormat =
  | {
      readonly format: 'csv';
      readonly delimiter: string;
      /** Columns (by their names in the result) whose values are always quoted. */
      readonly forceQuote: readonly string[];
    }
  | { readonly format: 'json'; readonly array: boolean }
  | { readonly format: 'parquet'; readonly compression: 'snappy' | 'zstd' };

/**
 * A column of rows handed to a Parquet encoder as CSV and the type it is stored as: 'point' is a
 * {lon, lat} struct, 'text-list' a list of texts. The CSV: one line per row, no header, cells
 * separated by commas; a null is `\N`, a text always between double quotes (doubled inside);
 * numbers as JavaScript writes them (inf, -inf, nan); booleans true or false, quoted or not; a
 * date its days since 1970-01-01, an instant its seconds since the epoch (ClickHouse's FORMAT CSV
 * of toUInt16/toUInt32); a list its JSON array as a text; a point two cells, longitude, latitude.
 */
export interface EncodedColumn {
  readonly name: string;
  readonly kind: 'text' | 'int' | 'double' | 'bool' | 'date' | 'instant' | 'text-list' | 'point';
}

/** Encodes rows streamed as CSV (EncodedColumn) as Parquet, streamed as written; settles at the first byte. */
export type ParquetEncoder = (
  rows: Readable,
  columns: readonly EncodedColumn[],
  compression: 'snappy' | 'zstd',
  signal: AbortSignal,
) => Promise<Readable>;

/** Bytes written before and after the engine's output (a BOM, a JSON document around an array). */
export interface CopyFrame {
  readonly head?: string;
  readonly tail?: string;
}

/** A connection of an export's own, held as long as its reader reads. */
export interface ExportConnection {
  /** Runs one statement and reads its whole result as JSON objects. */
  readJson(sql: string): Promise<Record<string, JsonValue>[]>;
  /** Runs one statement and yields its rows chunk by chunk, as the engine produces them. */
  chunks(sql: string): AsyncIterable<Chunk>;
}

/** How the metrics name an engine: its kind's name, and its server's address (`local`: in the process). */
export interface EngineLabels {
  readonly engine: string;
  readonly server: string;
}

/**
 * Parquet files the server writes of its own rows (the API calls it keeps), with the local
 * engine's writer, inside its allowed directories; never a path from a request.
 */
export interface ParquetFiles {
  /** Writes JSON rows (objects keyed by column name) of `columns` as the Parquet file `file`. */
  writeJsonParquet(file: string, columns: readonly TableColumn[], rowsJson: string): Promise<void>;
  /** Writes the rows of the Parquet files `files` (of one schema) as the Parquet file `file`. */
  mergeParquet(files: readonly string[], file: string): Promise<void>;
}

/** Rows as JSON lines, in chunks. */
export type JsonLines = AsyncIterable<Buffer> | Iterable<Buffer>;

/** How defineJsonTable replaces rows: the key column, the column a replaced row keeps, the keys removed. */
export interface RowChange {
  readonly key: string;
  readonly kept: string;
  readonly removed: readonly string[];
}

/**
 * What the server needs of the engine that runs its SQL (the seam of kysely's Driver: a small
 * interface, the engine's class behind it). Every query is interruptible by its signal; JSON
 * queries also by the engine's deadline; exports run on connections of their own.
 */
export interface Engine {
  /** Its name in the metrics (never a credential). */
  readonly labels: EngineLabels;
  /** A folder of the server's own for temporary files (an export's parts). */
  readonly tempDirectory: string;
  /** Pooled connections not in use now (for tests that count leaks). */
  readonly idleConnections: number;
  /** Exports running now, each on its own connection. */
  readonly runningExports: number;
  /** Statements running now: pooled connections in use, exports, and those being stopped. */
  readonly queriesInFlight: number;
  /** Queries waiting for a pooled connection. */
  readonly queueLength: number;
  /** Admits a request's work before any of it, or throws EngineSaturated (with when to retry). */
  admit(): void;
  /** Bytes of the engine's memory its copies of datasets asked often hold (none for ClickHouse). */
  readonly hotBytes?: number;
  /** Bytes of the process's memory outside the engine's limit reserved now (reserveMemory). */
  readonly reservedMemoryBytes: number;
  /**
   * Reserves `bytes` of the process's memory that the engine's own limit does not count (the
   * holistic aggregations of a compiled query) until the function returned is called: at once
   * when they fit in the process's budget, else after waiting for room; QueryOutOfMemory when
   * none came within the queue wait. An engine whose queries run on another server holds none.
   */
  reserveMemory(bytes: number, signal?: AbortSignal): Promise<() => void>;
  /** Runs one SELECT and reads its whole result as JSON objects (pages of records, not exports). */
  queryJson(
    sql: string,
    params?: readonly SqlParam[],
    signal?: AbortSignal,
  ): Promise<Record<string, JsonValue>[]>;
  /**
   * Runs one SELECT with a LIMIT and reads its rows as JSON objects, with the number of rows before
   * the LIMIT where the engine counts them in the same pass (a page of groups: its total).
   */
  queryPage(sql: string, signal?: AbortSignal): Promise<PageRows>;
  /** The `total_count` a count query answers, kept until a view is defined or dropped again. */
  count(sql: string, signal?: AbortSignal): Promise<number>;
  /** Runs an export's `work` on a connection of its own; past the export cap, EngineSaturated. */
  withExportConnection<T>(
    work: (connection: ExportConnection) => Promise<T>,
    signal: AbortSignal,
  ): Promise<T>;
  /**
   * Streams the whole result of `selectSql` written by the engine in `format`, between the
   * frame's head and tail; settles at the first byte, so that errors until then are answers.
   */
  copyToStream(
    selectSql: string,
    format: CopyFormat,
    signal: AbortSignal,
    frame?: CopyFrame,
  ): Promise<Readable>;
  /**
   * Defines (or redefines) a view over a Parquet file; a dataset's view adds its records' ordinals.
   * A 'dataset', 'pinned' or 'counts' file never changes under its path (a version's pin): the engine
   * may serve a copy held in memory, and answer equality counts over 'counts' without a statement.
   */
  defineView(name: string, parquetPath: string, kind?: ViewKind): Promise<void>;
  /** A request asked for a 'dataset' view (one asked often may be copied into memory). */
  used?(name: string): void;
  /**
   * (Re)creates a table from JSON lines (one object keyed by column name a line), of these columns;
   * with `change`, replaces rows of it in one transaction instead: each row of `rows` takes the
   * place of the row of its `key`, keeping that row's `kept` column, and the rows whose key is in
   * `removed` go.
   */
  defineJsonTable(
    name: string,
    columns: readonly TableColumn[],
    rows: JsonLines,
    change?: RowChange,
  ): Promise<void>;
  /** Runs the server's own statements (never a request's SQL) in one transaction. */
  runStatements(statements: readonly string[]): Promise<void>;
  /** Drops a view if it exists. */
  dropView(name: string): Promise<void>;
  close(): void;
}
