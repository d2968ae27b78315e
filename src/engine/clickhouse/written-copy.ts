// CSV and Parquet copies written from ClickHouse's own TabSeparated output (copy-columns.ts), its
// bytes rewritten as CSV bytes (tsv-to-csv.ts), no value through JavaScript: the copy's columns
// read from the same SELECT under LIMIT 0 (names and types, no row), then its rows streamed and
// rewritten, to the reader between the frame's head and the header, and the tail (CSV), or to
// the Parquet encoder (Parquet). The copy settles only once
// ClickHouse's first bytes of rows arrived (or its answer ended): a failure or a reset connection
// before them is the caller's error (a 503 answer), after them the stream's (a cut transfer).
// Measured on the bench's 3M flights attached (bench/clickhouse-attached.ts): see docs/clickhouse.md.
import { PassThrough, type Readable } from 'node:stream';
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

/** The copy's SELECT and plans, and the columns the Parquet encoder reads. */
function copyOf(
  selectSql: string,
  columns: readonly ResultColumn[],
  format: Exclude<CopyFormat, { format: 'json' }>,
): { copy: CopyColumns | null; encoded: EncodedColumn[] } {
  if (format.format === 'csv') return { copy: csvColumns(selectSql, columns, format), encoded: [] };
  const encoded = encodedColumns(columns);
  const kinds = encoded.map((c) => c.kind);
  return { copy: encodedColumnsOf(selectSql, columns, kinds), encoded };
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
    if (!planned.copy) {
      giveBack();
      return null;
    }
    body = await firstBytes(await engine.client.stream(planned.copy.sql, 'TabSeparated', stopped));
  } catch (error) {
    body?.destroy();
    giveBack();
    throw error;
  }
  const rows =
    format.format === 'csv'
      ? new TsvToCsv(
          planned.copy.plans,
          format.delimiter,
          (frame.head ?? '') + copyEncoder(columns, format).empty(),
          frame.tail ?? '',
        )
      : new TsvToCsv(planned.copy.plans, ',');
  const source = body;
  source.once('error', (error) => rows.destroy(error));
  source.pipe(rows);
  const finish = (): void => {
    stop.abort();
    source.destroy();
    giveBack();
  };
  if (format.format === 'parquet')
    return encoded(engine.parquetEncoder!, rows, planned.encoded, format, stopped, finish);
  rows.once('close', finish);
  return rows;
}
