// CSV and Parquet copies whose rows ClickHouse writes as text itself (csv-lines.ts): the copy's
// columns read from the same SELECT under LIMIT 0 (names and types, no row), then its lines
// streamed as TabSeparatedRaw and passed on as bytes: to the reader between the frame's head and
// the header, and the tail (CSV), or to the Parquet encoder (Parquet). Measured on the bench's 3M
// flights attached (bench/clickhouse-attached.ts): see docs/clickhouse.md.
import { PassThrough, type Readable } from 'node:stream';
import { onlyOnce } from '../../once.js';
import type { CopyFormat, CopyFrame, EncodedColumn, ParquetEncoder } from '../engine.js';
import { copyEncoder } from './copy-text.js';
import { csvLinesSql, encodedLinesSql } from './csv-lines.js';
import type { ClickHouseClient } from './http-client.js';
import { encodedColumns } from './parquet-rows.js';
import { tsvResult, type ResultColumn } from './tsv-rows.js';

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
  let stream: Readable;
  let columns: readonly ResultColumn[];
  let encoded: EncodedColumn[] = [];
  try {
    columns = await describe(engine.client, selectSql, stopped);
    encoded = encodedColumns(columns);
    const sql =
      format.format === 'csv'
        ? csvLinesSql(selectSql, columns, format)
        : encodedLinesSql(
            selectSql,
            columns,
            encoded.map((c) => c.kind),
          );
    if (!sql) {
      giveBack();
      return null;
    }
    stream = await engine.client.stream(sql, 'TabSeparatedRaw', stopped);
  } catch (error) {
    giveBack();
    throw error;
  }
  const finish = (): void => {
    stop.abort();
    stream.destroy();
    giveBack();
  };
  if (format.format === 'parquet') {
    try {
      const output = await engine.parquetEncoder!(stream, encoded, format.compression, stopped);
      output.once('close', finish);
      return output;
    } catch (error) {
      finish();
      throw error;
    }
  }
  const output = new PassThrough({ highWaterMark: 1 << 20 });
  output.write((frame.head ?? '') + copyEncoder(columns, format).empty());
  stream.on('error', (error) => output.destroy(error));
  stream.on('end', () => output.end(frame.tail ?? ''));
  stream.pipe(output, { end: false });
  output.once('close', finish);
  return output;
}
