// Arrow IPC stream (no peer of the public service offers it): one record batch per DuckDB chunk,
// made from the chunk's own buffers, no JS value per cell. DuckDB's vectors already have Arrow's
// layout for numbers, dates and timestamps (little-endian values) and for validity (bitmaps,
// least significant bit first), so those are handed over as they are; strings are gathered from
// DuckDB's 16-byte entries (up to 12 bytes inline, else a pointer) into Arrow's offsets and
// bytes, and booleans are packed into bits. apache-arrow only frames the batches; it is loaded on
// the first Arrow export: 14 MiB resident that a server never asked for one does not hold.
import duckdb from '@duckdb/node-bindings';
import type { DuckDBDataChunk } from '@duckdb/node-api';
import type { Data, DataType } from 'apache-arrow';
import type { OutputColumn } from '../odsql/index.js';
import { quoteIdentifier } from '../sql-text.js';
import type { ExportContext, Exporter } from './export-context.js';
import { streamQuery } from './query-stream.js';
import { typedCell, typedSelect, type CellKind } from './sql-cells.js';

/** Bytes of the IPC end-of-stream marker (continuation, zero length). */
const END_OF_STREAM = 8;

/** The kind of an output column and the SQL giving its value: dates and datetimes kept typed. */
function arrowCell(column: OutputColumn, separator: string): { kind: CellKind; sql: string } {
  const name = quoteIdentifier(column.key);
  if (!column.multivalued && column.type === 'date') return { kind: 'date', sql: `CAST(${name} AS DATE)` };
  if (!column.multivalued && column.type === 'datetime') {
    return { kind: 'datetime', sql: `CAST(${name} AS TIMESTAMPTZ)` };
  }
  return typedCell(column, separator);
}

/** Bits set in each byte value. */
const BITS_SET = Uint8Array.from({ length: 256 }, (_, byte) => {
  let count = 0;
  for (let b = byte; b; b >>= 1) count += b & 1;
  return count;
});

/** Whether bit `i` of a bitmap is set. */
const bit = (bitmap: Uint8Array, i: number): boolean => ((bitmap[i >> 3]! >> (i & 7)) & 1) === 1;

/** A vector's validity bitmap over its first `rows` rows, or null when every row is valid. */
function validityOf(vector: duckdb.Vector, rows: number): Uint8Array | null {
  const words = duckdb.vector_get_validity(vector, Math.ceil(rows / 64) * 8);
  return words ? words.subarray(0, Math.ceil(rows / 8)) : null;
}

/** Arrow's null bitmap and null count from a validity bitmap of `rows` rows. */
function nulls(bitmap: Uint8Array | null, rows: number): { nullBitmap?: Uint8Array; nullCount: number } {
  if (!bitmap) return { nullCount: 0 };
  let valid = 0;
  const whole = rows >> 3;
  for (let i = 0; i < whole; i++) valid += BITS_SET[bitmap[i]!]!;
  for (let i = whole * 8; i < rows; i++) if (bit(bitmap, i)) valid += 1;
  return valid === rows ? { nullCount: 0 } : { nullBitmap: bitmap, nullCount: rows - valid };
}

/**
 * The values of `rows` rows of `width` bytes with every null slot zeroed (a copy when there are
 * nulls): DuckDB leaves whatever its memory held there, which must not leave the server.
 */
function zeroNulls(
  values: Uint8Array,
  width: number,
  bitmap: Uint8Array | undefined,
  rows: number,
): Uint8Array {
  if (!bitmap) return values;
  const copy = values.slice();
  for (let i = 0; i < rows; i++) if (!bit(bitmap, i)) copy.fill(0, i * width, (i + 1) * width);
  return copy;
}

/**
 * Utf8 buffers of the strings at `positions` of a VARCHAR vector of `size` entries, in that
 * order: lengths first (offsets), then the bytes, inline or behind each entry's pointer.
 */
function utf8Buffers(vector: duckdb.Vector, size: number, positions: Int32Array) {
  const entries = duckdb.vector_get_data(vector, size * 16);
  const view = new DataView(entries.buffer, entries.byteOffset, entries.byteLength);
  const valid = validityOf(vector, size);
  const count = positions.length;
  const valueOffsets = new Int32Array(count + 1);
  const bitmap = valid ? new Uint8Array(Math.ceil(count / 8)) : null;
  let total = 0;
  for (let k = 0; k < count; k++) {
    const p = positions[k]!;
    if (!valid || bit(valid, p)) {
      if (bitmap) bitmap[k >> 3]! |= 1 << (k & 7);
      total += view.getUint32(p * 16, true);
    }
    valueOffsets[k + 1] = total;
  }
  const data = new Uint8Array(total);
  for (let k = 0; k < count; k++) {
    const start = valueOffsets[k]!;
    const length = valueOffsets[k + 1]! - start;
    if (length === 0) continue;
    const entry = positions[k]! * 16;
    if (length <= 12) {
      for (let b = 0; b < length; b++) data[start + b] = entries[entry + 4 + b]!;
    } else {
      data.set(
        duckdb.get_data_from_pointer(entries.buffer as ArrayBuffer, entries.byteOffset + entry + 8, length),
        start,
      );
    }
  }
  return { valueOffsets, data, ...nulls(bitmap, count) };
}

/** 0, 1, ..., n - 1: the positions of a plain column's rows (a chunk has 2,048 at most). */
const FIRST_ROWS = Int32Array.from({ length: 2048 }, (_, i) => i);
const firstRows = (n: number): Int32Array =>
  n <= FIRST_ROWS.length ? FIRST_ROWS.subarray(0, n) : Int32Array.from({ length: n }, (_, i) => i);

/** Arrow IPC stream of the rows, columns named as in the other exports, stored types kept. */
async function writeArrow(context: ExportContext) {
  const arrow = await import('apache-arrow');
  const { Field, List, RecordBatch, Schema, Struct, Table, makeData, tableToIPC } = arrow;
  const item = new Field('item', new arrow.Utf8(), true);
  const ARROW_TYPES: Record<CellKind, () => DataType> = {
    int: () => new arrow.Int64(),
    double: () => new arrow.Float64(),
    bool: () => new arrow.Bool(),
    date: () => new arrow.DateDay(),
    datetime: () => new arrow.TimestampMicrosecond('UTC'),
    text: () => new arrow.Utf8(),
    list: () => new List(item),
  };
  const { cells, sql } = typedSelect(context, context.columns, [], arrowCell);
  const types = cells.map((c) => ARROW_TYPES[c.kind]());
  const schema = new Schema(
    cells.map(
      (c, i) => new Field(context.options.headers.get(c.column.key) ?? c.column.key, types[i]!, true),
    ),
  );

  /** One column of a chunk as Arrow data. */
  const column = (vector: duckdb.Vector, kind: CellKind, type: DataType, rows: number): Data => {
    const fixed = (width: number) => {
      const validity = nulls(validityOf(vector, rows), rows);
      const data = zeroNulls(duckdb.vector_get_data(vector, rows * width), width, validity.nullBitmap, rows);
      return { type, length: rows, data, ...validity };
    };
    switch (kind) {
      case 'int':
      case 'datetime': {
        const { data, ...rest } = fixed(8);
        return makeData({ ...rest, data: new BigInt64Array(data.buffer, data.byteOffset, rows) } as never);
      }
      case 'double': {
        const { data, ...rest } = fixed(8);
        return makeData({ ...rest, data: new Float64Array(data.buffer, data.byteOffset, rows) } as never);
      }
      case 'date': {
        const { data, ...rest } = fixed(4);
        return makeData({ ...rest, data: new Int32Array(data.buffer, data.byteOffset, rows) } as never);
      }
      case 'bool': {
        const { data: bytes, ...rest } = fixed(1);
        const data = new Uint8Array(Math.ceil(rows / 8));
        for (let i = 0; i < rows; i++) if (bytes[i]) data[i >> 3]! |= 1 << (i & 7);
        return makeData({ ...rest, data } as never);
      }
      case 'text':
        return makeData({ type, length: rows, ...utf8Buffers(vector, rows, firstRows(rows)) } as never);
      case 'list': {
        const pairs = duckdb.vector_get_data(vector, rows * 16);
        const entries = new BigUint64Array(pairs.buffer, pairs.byteOffset, rows * 2);
        const valid = validityOf(vector, rows);
        const valueOffsets = new Int32Array(rows + 1);
        const positions: number[] = [];
        for (let i = 0; i < rows; i++) {
          if (!valid || bit(valid, i)) {
            const offset = Number(entries[2 * i]!);
            const length = Number(entries[2 * i + 1]!);
            for (let j = 0; j < length; j++) positions.push(offset + j);
          }
          valueOffsets[i + 1] = positions.length;
        }
        const child = duckdb.list_vector_get_child(vector);
        const size = duckdb.list_vector_get_size(vector);
        const items = makeData({
          type: item.type,
          length: positions.length,
          ...utf8Buffers(child, size, Int32Array.from(positions)),
        } as never);
        return makeData({ type, length: rows, valueOffsets, child: items, ...nulls(valid, rows) } as never);
      }
    }
  };

  // Each chunk is serialised as a one-batch IPC stream; the schema message (the same every
  // time) is kept only once and the end-of-stream marker only at the end.
  const empty = tableToIPC(new Table(schema), 'stream');
  const schemaBytes = empty.length - END_OF_STREAM;
  let wroteRows = false;
  const encode = (chunk: DuckDBDataChunk, first: boolean): Buffer => {
    wroteRows = true;
    const rows = chunk.rowCount;
    const children = cells.map((c, i) =>
      column(duckdb.data_chunk_get_vector(chunk.chunk, i), c.kind, types[i]!, rows),
    );
    const data = makeData({ type: new Struct(schema.fields), length: rows, nullCount: 0, children });
    const bytes = tableToIPC(new Table([new RecordBatch(schema, data)]), 'stream');
    return Buffer.from(bytes.subarray(first ? 0 : schemaBytes, bytes.length - END_OF_STREAM));
  };
  const tail = (): Buffer => Buffer.from(wroteRows ? empty.subarray(schemaBytes) : empty);
  return streamQuery(context.engine, sql, encode, { head: '', tail }, context.signal);
}

export const ARROW_FORMAT = {
  arrow: {
    contentType: 'application/vnd.apache.arrow.stream',
    extension: 'arrow',
    output: 'native',
    geo: false,
    write: writeArrow,
  },
} satisfies Record<string, Exporter>;
