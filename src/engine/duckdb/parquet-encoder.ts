// DuckDB as the Parquet encoder of rows it did not compute (a ClickHouse dataset's: ClickHouse
// 18.16 writes no Parquet). The rows come as CSV (EncodedColumn in ../engine.ts) into a named pipe
// of the spill folder, which an export connection reads with read_csv, typed column by column, in
// a COPY to Parquet streamed through a second pipe (copy-stream.ts): memory stays that of one row
// group whatever the rows. Both pipes are the server's own, inside the one folder the lockdown
// lets DuckDB read and write; no path comes from a request.
import { randomUUID } from 'node:crypto';
import { close, constants, open as openCallback } from 'node:fs';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import type { EncodedColumn, ParquetEncoder } from '../engine.js';
import { quoteIdentifier, quoteString } from '../../sql/quoting.js';
import { openPipes, streamThroughPipe } from './copy-stream.js';
import type { DuckDBEngine } from './engine.js';
import { makeFifo, widenFifo } from './fifo.js';

const openFd = promisify(openCallback);

/** The CSV cells' types of each kind of column, and its value from them (`cells`: their names). */
const READINGS: Record<
  EncodedColumn['kind'],
  { readonly types: readonly string[]; readonly value: (cells: readonly string[]) => string }
> = {
  text: { types: ['VARCHAR'], value: ([c]) => c! },
  int: { types: ['BIGINT'], value: ([c]) => c! },
  double: { types: ['DOUBLE'], value: ([c]) => c! },
  bool: { types: ['BOOLEAN'], value: ([c]) => c! },
  // Days and seconds since the epoch: read as integers, several times cheaper than dates' texts.
  date: { types: ['INTEGER'], value: ([c]) => `CAST(DATE '1970-01-01' + ${c!} AS DATE)` },
  instant: { types: ['BIGINT'], value: ([c]) => `to_timestamp(${c!})` },
  'text-list': { types: ['VARCHAR'], value: ([c]) => `from_json(${c!}, '["VARCHAR"]')` },
  point: {
    types: ['DOUBLE', 'DOUBLE'],
    value: ([lon, lat]) =>
      `CASE WHEN ${lon!} IS NULL THEN NULL ELSE struct_pack(lon := ${lon!}, lat := ${lat!}) END`,
  },
};

/** The SELECT of the encoded columns over the CSV in `pipe`. */
function readSql(pipe: string, columns: readonly EncodedColumn[]): string {
  const cells: string[] = [];
  const values = columns.map((column) => {
    const reading = READINGS[column.kind];
    const names = reading.types.map((type) => {
      cells.push(`${quoteString(`c${cells.length}`)}: ${quoteString(type)}`);
      return quoteIdentifier(`c${cells.length - 1}`);
    });
    return `${reading.value(names)} AS ${quoteIdentifier(column.name)}`;
  });
  const options = [
    'header = false',
    'auto_detect = false',
    "delim = ','",
    `quote = '"'`,
    `escape = '"'`,
    `nullstr = '\\N'`,
    'allow_quoted_nulls = false',
    `columns = {${cells.join(', ')}}`,
  ];
  return `SELECT ${values.join(', ')} FROM read_csv(${quoteString(pipe)}, ${options.join(', ')})`;
}

/**
 * Writes `rows` into a named pipe made in `folder` for `reading` (DuckDB's statement) to read; the
 * pipe is removed once `reading` is over, and `rows` destroyed if it ends first; rows that fail
 * fail it. The write end is
 * opened only once DuckDB opened the read end (an open that waits, on a thread of libuv's pool):
 * a pipe whose last writer closes before any reader opened loses its bytes, and DuckDB must see
 * the pipe's end after the last row, when this, its one writer, closes.
 */
async function feedPipe(
  folder: string,
  rows: Readable,
  reading: (pipe: string) => Promise<unknown>,
): Promise<unknown> {
  const fifo = path.join(folder, `encode-${randomUUID()}.pipe`);
  await makeFifo(fifo);
  openPipes.add(fifo);
  const writer = openFd(fifo, constants.O_WRONLY);
  const feeding = writer.then(async (fd) => {
    const socket = new net.Socket({ fd, readable: false, writable: true });
    await widenFifo(fifo);
    await pipeline(rows, socket);
  });
  feeding.catch(() => rows.destroy());
  try {
    const result = await reading(fifo);
    // Rows that failed (their source cut or failed) closed the pipe as their end would: DuckDB
    // wrote a whole file of the rows before. Their failure is the encoding's, so that the reader
    // of the file sees a cut transfer, never a short file that looks complete.
    await feeding;
    return result;
  } finally {
    rows.destroy();
    // DuckDB failed before it opened the pipe: a reader of our own lets the waiting open end.
    const unblock = await openFd(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    await feeding.catch(() => undefined);
    await promisify(close)(unblock);
    await rm(fifo, { force: true });
    openPipes.delete(fifo);
  }
}

/** The Parquet encoder of `engine`: its export connections, its spill folder's pipes. */
export function parquetEncoder(engine: DuckDBEngine): ParquetEncoder {
  return (rows, columns, compression, signal) =>
    streamThroughPipe(engine.tempDirectory, (output) =>
      feedPipe(engine.tempDirectory, rows, (input) =>
        engine.withExportConnection(
          (connection) =>
            connection.copy(readSql(input, columns), output, { format: 'parquet', compression }),
          signal,
        ),
      ),
    );
}
