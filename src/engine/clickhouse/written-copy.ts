// CSV and Parquet copies written from ClickHouse's own output (copy-columns.ts), no value through
// JavaScript: the copy's columns read from the same SELECT under LIMIT 0 (names and types, no
// row), then its rows streamed: a CSV copy's TabSeparated bytes rewritten as CSV bytes
// (tsv-to-csv.ts), to the reader between the frame's head and the header, and the tail; a Parquet
// copy's rows in ClickHouse's FORMAT CSV handed to the Parquet encoder as they come. The copy
// settles only once ClickHouse's first bytes of rows arrived (or its answer ended): a failure or a
// reset connection before them is the caller's error (a 503 answer), after them the stream's (a
// cut transfer). Measured on the bench's 3M flights attached (bench/clickhouse-attached.ts): see
// docs/clickhouse.md.
import { PassThrough, Transform, type Readable, type TransformCallback } from 'node:stream';
import { onlyOnce } from '../../once.js';
import type { CopyFormat, CopyFrame, EncodedColumn, ParquetEncoder } from '../engine.js';
import { copyEncoder } from './copy-text.js';
import { csvColumns, encodedColumnsOf, type CopyColumns } from './copy-columns.js';
import type { ClickHouseClient } from './http-client.js';
import { encodedColumns } from './parquet-rows.js';
import { tsvResult, type ResultColumn } from './tsv-rows.js';
import { TsvToCsv } from './tsv-to-csv.js';

/** What a written copy needs of its engine: the client, an export's place, the Parquet encoder. */
export interface WrittenCopyEngine {
  readonly client: ClickHouseClient;
  /** Takes an export's place (refusing past the most); the function gives it back. */
  take(signal: AbortSignal): () => void;
  readonly parquetEncoder: ParquetEncoder | undefined;
}

/** The columns of `selectSql`'s result, from its header under LIMIT 0. */
async function describe(client: ClickHouseClient, selectSql: string, signal: AbortSignal) {
  const described = await client.stream(
    `SELECT * FROM (${selectSql}) LIMIT 0`,
    'TSVWithNamesAndTypes',
    signal,
  );
  const result = await tsvResult(described);
  // Read to its end (no row): a body left unread would be a query the client kills.
  for await (const chunk of result.chunks) void chunk;
  return result.columns;
}

/**
 * `body` once its first bytes are there (they are read again from it) or it ended empty; its error
 * before that (a reset connection, ClickHouse's failure) rejects.
 */
function firstBytes(body: Readable): Promise<Readable> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error): void => {
      body.off('readable', onReadable);
      body.off('error', settle);
      if (error) reject(error);
      else resolve(body);
    };
    const onReadable = (): void => settle();
    body.on('readable', onReadable);
    body.once('error', settle);
  });
}

/**
 * The copy's ClickHouse query: a CSV copy's SELECT and plans for its TSV (rewritten by TsvToCsv), or
 * a Parquet copy's SELECT whose CSV goes to the encoder as ClickHouse writes it, with the columns
 * the encoder reads; null when a column has no spelling here.
 */
function copyOf(
  selectSql: string,
  columns: readonly ResultColumn[],
  format: Exclude<CopyFormat, { format: 'json' }>,
): { sql: string; plans: CopyColumns['plans']; encoded: EncodedColumn[] } | null {
  if (format.format === 'csv') {
    const copy = csvColumns(selectSql, columns, format);
    return copy && { sql: copy.sql, plans: copy.plans, encoded: [] };
  }
  const encoded = encodedColumns(columns);
  const sql = encodedColumnsOf(
    selectSql,
    columns,
    encoded.map((c) => c.kind),
  );
  return sql === null ? null : { sql, plans: [], encoded };
}

/**
 * ClickHouse's CSV passed on as it comes, but for each chunk's bytes after its last newline, held
 * until the next: rows cut (a reset, a shard lost) leave the encoder whole lines, which it encodes
 * as it would the end (the cut is then the output's error), where a broken line would fail it
 * before its first byte. A text holding a newline can still be cut inside its quotes: that fails
 * the encoding, reported as the cut. A line longer than many chunks is held as its chunks, never
 * joined (joining at each chunk was quadratic in the line's length).
 */
export class WholeLines extends Transform {
  /** The chunks since the last newline, joined by nobody: each is passed on as it is once one comes. */
  private rest: Buffer[] = [];

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const end = chunk.lastIndexOf(10) + 1;
    if (end === 0) {
      this.rest.push(chunk);
      return done();
    }
    for (const part of this.rest) this.push(part);
    this.rest = end < chunk.length ? [chunk.subarray(end)] : [];
    done(null, chunk.subarray(0, end));
  }

  override _flush(done: TransformCallback): void {
    // ClickHouse ends every line with a newline: bytes after the last one are a cut answer's.
    if (this.rest.length > 0) return done(new Error('internal: a ClickHouse answer ends inside a line'));
    done();
  }
}

/**
 * The Parquet encoding of ClickHouse's lines `rows`. Cut mid-line (a connection reset, a shard
 * lost), they leave the encoder a CSV it fails to read: its failure, before or after the first
 * byte, is then the rows' own (EngineUnavailable...), not a CSV error of DuckDB's (a 500).
 */
async function encoded(
  encoder: ParquetEncoder,
  rows: Readable,
  columns: readonly EncodedColumn[],
  format: Extract<CopyFormat, { format: 'parquet' }>,
  signal: AbortSignal,
  finish: () => void,
): Promise<Readable> {
  let cut: Error | undefined;
  rows.once('error', (error) => (cut = error));
  let output: Readable;
  try {
    output = await encoder(rows, columns, format.compression, signal);
  } catch (error) {
    finish();
    throw cut ?? error;
  }
  const mapped = new PassThrough({ highWaterMark: 1 << 20 });
  output.once('error', (error) => mapped.destroy(cut ?? error));
  mapped.once('close', () => {
    output.destroy();
    finish();
  });
  return output.pipe(mapped);
}

/** The CSV or Parquet copy of `selectSql` with its lines written by ClickHouse; null when a column has none. */
export async function writtenCopy(
  engine: WrittenCopyEngine,
  selectSql: string,
  format: Exclude<CopyFormat, { format: 'json' }>,
  signal: AbortSignal,
  frame: CopyFrame,
): Promise<Readable | null> {
  const giveBack = onlyOnce(engine.take(signal));
  const stop = new AbortController();
  const stopped = AbortSignal.any([signal, stop.signal]);
  let body: Readable | undefined;
  let planned: ReturnType<typeof copyOf>;
  let columns: readonly ResultColumn[];
  try {
    columns = await describe(engine.client, selectSql, stopped);
    planned = copyOf(selectSql, columns, format);
    if (!planned) {
      giveBack();
      return null;
    }
    const clickhouseFormat = format.format === 'csv' ? 'TabSeparated' : 'CSV';
    body = await firstBytes(await engine.client.stream(planned.sql, clickhouseFormat, stopped));
  } catch (error) {
    body?.destroy();
    giveBack();
    throw error;
  }
  const source = body;
  const finish = (): void => {
    stop.abort();
    source.destroy();
    giveBack();
  };
  // ClickHouse's CSV is the encoder's as it comes: no byte of it through JavaScript but to pass it on.
  if (format.format === 'parquet') {
    const lines = new WholeLines({ highWaterMark: 1 << 20 });
    source.once('error', (error) => lines.destroy(error));
    return encoded(engine.parquetEncoder!, source.pipe(lines), planned.encoded, format, stopped, finish);
  }
  const rows = new TsvToCsv(
    planned.plans,
    format.delimiter,
    (frame.head ?? '') + copyEncoder(columns, format).empty(),
    frame.tail ?? '',
  );
  source.once('error', (error) => rows.destroy(error));
  source.pipe(rows);
  rows.once('close', finish);
  return rows;
}
