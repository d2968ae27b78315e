// The engine of the datasets whose records live in a ClickHouse server or cluster (issue 29),
// over the HTTP client (http-client.ts): JSON rows, counts (with the count cache), admission
// through a waiting line as DuckDB's, CSV and Parquet copies whose lines ClickHouse writes as text
// (written-copy.ts), other exports (and columns those lines cannot spell) streamed as chunks read
// from ClickHouse's TSVWithNamesAndTypes output, written in DuckDB's bytes (copy-text.ts).
// ClickHouse 18.16 writes no Parquet: a Parquet copy is encoded by DuckDB's engine (parquet-rows.ts,
// engine/duckdb/parquet-encoder.ts), refused without it (CopyUnsupported).
// A server down or silent is EngineUnavailable; its failures are the engine's errors (failures.ts).
// Knows nothing of HTTP routes or ODSQL.
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { CountCache, DEFAULT_COUNT_ENTRIES } from '../count-cache.js';
import {
  CopyUnsupported,
  type Chunk,
  type CopyFormat,
  type CopyFrame,
  type Engine,
  type EngineLabels,
  type ExportConnection,
  type JsonValue,
  type PageRows,
  type ParquetEncoder,
  type SqlParam,
} from '../engine.js';
import { copyEncoder, type CopyEncoder } from './copy-text.js';
import { EngineLoad } from '../waiting-line.js';
import { ClickHouseClient, type ClickHouseOptions } from './http-client.js';
import { csvRows, encodedColumns } from './parquet-rows.js';
import { tsvResult, type TsvResult } from './tsv-rows.js';
import { writtenCopy } from './written-copy.js';

export interface ClickHouseEngineOptions extends ClickHouseOptions {
  /** A folder of the server's own for an export's temporary files. */
  readonly tempDirectory: string;
  /** Queries sent to ClickHouse at once (JSON queries; exports apart). Default 8. */
  readonly connections?: number;
  /** Most exports streaming at once; one more is refused. Default 32. */
  readonly exportConnections?: number;
  /** total_count answers kept by their SQL; 0 keeps none. Default 4,096. */
  readonly countEntries?: number;
  /** Encodes a result as Parquet (DuckDB's engine); without it a Parquet copy is refused. */
  readonly parquetEncoder?: ParquetEncoder;
  /** The longest a caller should wait in line, in ms (src/engine/admission.ts). Default 2 s. */
  readonly targetWaitMs?: number;
  readonly maxWaiting?: number;
}

const DEFAULT_CONNECTIONS = 8;
const DEFAULT_EXPORT_CONNECTIONS = 32;

/** An export's queries: each a request of its own under the export's signal. */
class ClickHouseExportConnection implements ExportConnection {
  constructor(
    private readonly client: ClickHouseClient,
    private readonly signal: AbortSignal,
  ) {}

  readJson(sql: string): Promise<Record<string, JsonValue>[]> {
    return this.client.queryJson(sql, this.signal);
  }

  async *chunks(sql: string): AsyncIterable<Chunk> {
    const stream = await this.client.stream(sql, 'TSVWithNamesAndTypes', this.signal);
    try {
      yield* (await tsvResult(stream)).chunks;
    } finally {
      // Left before its end (the reader went away): the client kills the query on close.
      stream.destroy();
    }
  }
}

export class ClickHouseEngine extends EngineLoad<number> implements Engine {
  readonly labels: EngineLabels;
  readonly tempDirectory: string;
  private readonly client: ClickHouseClient;
  private readonly parquetEncoder: ParquetEncoder | undefined;
  private readonly counts: CountCache;

  constructor(options: ClickHouseEngineOptions) {
    // Its places are numbers: a query's place is the right to send one request.
    super(
      Array.from({ length: options.connections ?? DEFAULT_CONNECTIONS }, (_, i) => i),
      {
        exportConnections: options.exportConnections ?? DEFAULT_EXPORT_CONNECTIONS,
        targetWaitMs: options.targetWaitMs,
        maxWaiting: options.maxWaiting,
      },
    );
    this.labels = { engine: 'clickhouse', server: options.url };
    this.tempDirectory = options.tempDirectory;
    this.client = new ClickHouseClient(options);
    this.parquetEncoder = options.parquetEncoder;
    this.counts = new CountCache(options.countEntries ?? DEFAULT_COUNT_ENTRIES);
  }

  /** Statements running now, those being stopped (KILL QUERY not yet answered) included. */
  override get queriesInFlight(): number {
    return super.queriesInFlight + this.client.stopping;
  }

  /** Runs one SELECT as JSON rows; ClickHouse 18.16 binds no parameters, so there must be none. */
  async queryJson(
    sql: string,
    params: readonly SqlParam[] = [],
    signal?: AbortSignal,
  ): Promise<Record<string, JsonValue>[]> {
    if (params.length > 0) throw new Error('internal: ClickHouse queries take no parameters');
    return this.line.use(() => this.client.queryJson(sql, signal), signal);
  }

  /** A page's rows and ClickHouse's rows_before_limit_at_least, from one query. */
  queryPage(sql: string, signal?: AbortSignal): Promise<PageRows> {
    return this.line.use(() => this.client.queryPage(sql, signal), signal);
  }

  async count(sql: string, signal?: AbortSignal): Promise<number> {
    return this.counts.count(sql, async () =>
      Number((await this.queryJson(sql, [], signal))[0]?.total_count ?? 0),
    );
  }

  async withExportConnection<T>(
    work: (connection: ExportConnection) => Promise<T>,
    signal: AbortSignal,
  ): Promise<T> {
    return this.exports.run(() => work(new ClickHouseExportConnection(this.client, signal)), signal);
  }

  /**
   * Streams the rows of `selectSql` written as DuckDB writes `format` (Parquet by the Parquet
   * encoder, refused without one), between the frame's head and tail; settles at the first byte.
   */
  async copyToStream(
    selectSql: string,
    format: CopyFormat,
    signal: AbortSignal,
    frame: CopyFrame = {},
  ): Promise<Readable> {
    if (format.format === 'parquet' && !this.parquetEncoder) throw new CopyUnsupported('parquet');
    if (format.format !== 'json') {
      const engine = {
        client: this.client,
        take: (s: AbortSignal) => this.exports.take(s),
        parquetEncoder: this.parquetEncoder,
      };
      const written = await writtenCopy(engine, selectSql, format, signal, frame);
      if (written) return written;
    }
    const giveBack = this.exports.take(signal);
    const stop = new AbortController();
    const stopped = AbortSignal.any([signal, stop.signal]);
    let stream: Readable | undefined;
    let result: TsvResult;
    try {
      stream = await this.client.stream(selectSql, 'TSVWithNamesAndTypes', stopped);
      result = await tsvResult(stream);
    } catch (error) {
      giveBack();
      stream?.destroy();
      throw error;
    }
    if (format.format === 'parquet')
      return this.encodeParquet(stream, result, format.compression, stop, stopped, giveBack);
    const output = new PassThrough({ highWaterMark: 1 << 20 });
    output.once('close', () => stop.abort());
    void this.pump(output, stream, copyEncoder(result.columns, format), result.chunks, frame).finally(
      giveBack,
    );
    return output;
  }

  /**
   * The rows of a result encoded as Parquet (by DuckDB: ClickHouse 18.16 writes none); a reader
   * gone stops both the encoder and the query, and the export's place is freed at the end.
   */
  private async encodeParquet(
    stream: Readable,
    result: TsvResult,
    compression: 'snappy' | 'zstd',
    stop: AbortController,
    stopped: AbortSignal,
    giveBack: () => void,
  ): Promise<Readable> {
    const columns = encodedColumns(result.columns);
    const free = (): void => {
      giveBack();
      stream.destroy();
    };
    const rows = csvRows(result.chunks, columns, free);
    try {
      const output = await this.parquetEncoder!(rows, columns, compression, stopped);
      output.once('close', () => {
        stop.abort();
        rows.destroy();
      });
      return output;
    } catch (error) {
      rows.destroy();
      free();
      throw error;
    }
  }

  /**
   * Writes a copy's rows into `output` with back-pressure; an error or a reader gone stops it, and
   * the export's place is freed at the end (by the caller).
   */
  private async pump(
    output: PassThrough,
    stream: Readable,
    encoder: CopyEncoder,
    chunks: AsyncIterable<Chunk>,
    frame: CopyFrame,
  ): Promise<void> {
    try {
      output.write(frame.head ?? '');
      let first = true;
      for await (const chunk of chunks) {
        if (!output.write(encoder.rows(chunk, first)))
          await Promise.race([once(output, 'drain'), once(output, 'close')]);
        if (output.destroyed) return;
        first = false;
      }
      output.end((first ? encoder.empty() : '') + encoder.end() + (frame.tail ?? ''));
    } catch (error) {
      output.destroy(error as Error);
    } finally {
      stream.destroy();
    }
  }

  defineView(): Promise<void> {
    return Promise.reject(new Error('internal: a ClickHouse engine serves tables, not Parquet views'));
  }

  defineJsonTable(): Promise<void> {
    return Promise.reject(new Error('internal: a ClickHouse engine serves tables, not JSON tables'));
  }

  runStatements(): Promise<void> {
    return Promise.reject(new Error('internal: a ClickHouse engine serves tables, not tables of its own'));
  }

  /** Forgets the counts it keeps (a table of ClickHouse is not the portal's to drop). */
  dropView(): Promise<void> {
    this.counts.clear();
    return Promise.resolve();
  }

  close(): void {
    this.counts.clear();
  }
}
