// A column of a DuckDB chunk in Arrow's memory layout, made from the chunk's own buffers, no JS
// value per cell. DuckDB's vectors already have Arrow's layout for numbers, dates and timestamps
// (little-endian values) and for validity (bitmaps, least significant bit first), so those are
// handed over as they are; strings are gathered from DuckDB's 16-byte entries (up to 12 bytes
// inline, else a pointer) into Arrow's offsets and bytes, and booleans are packed into bits.
import duckdb from '@duckdb/node-bindings';
import { DuckDBTypeId } from '@duckdb/node-api';
import type { ColumnArrays, Utf8Arrays, Validity } from '../engine.js';

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
function nulls(bitmap: Uint8Array | null, rows: number): Validity {
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
 * Utf8 arrays of the strings at `positions` of a VARCHAR vector of `size` entries, in that
 * order: lengths first (offsets), then the bytes, inline or behind each entry's pointer.
 */
function utf8Arrays(vector: duckdb.Vector, size: number, positions: Int32Array): Utf8Arrays {
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
  return { type: 'utf8', valueOffsets, data, ...nulls(bitmap, count) };
}

/** 0, 1, ..., n - 1: the positions of a plain column's rows (a chunk has 2,048 at most). */
const FIRST_ROWS = Int32Array.from({ length: 2048 }, (_, i) => i);
const firstRows = (n: number): Int32Array =>
  n <= FIRST_ROWS.length ? FIRST_ROWS.subarray(0, n) : Int32Array.from({ length: n }, (_, i) => i);

/** The values of a fixed-width vector with their validity, null slots zeroed. */
function fixed(vector: duckdb.Vector, rows: number, width: number): Validity & { data: Uint8Array } {
  const validity = nulls(validityOf(vector, rows), rows);
  const data = zeroNulls(duckdb.vector_get_data(vector, rows * width), width, validity.nullBitmap, rows);
  return { data, ...validity };
}

/** A list of VARCHAR: offsets over the rows, the strings of every valid row's items as its child. */
function listArrays(vector: duckdb.Vector, rows: number): ColumnArrays {
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
  return {
    type: 'list',
    valueOffsets,
    child: utf8Arrays(child, size, Int32Array.from(positions)),
    ...nulls(valid, rows),
  };
}

/**
 * Column `vector` of `rows` rows in Arrow's layout. `typeId` is its DuckDB type and `itemTypeId`
 * a list's item type; a type without a layout here (a list of anything but VARCHAR among them) is
 * a programming error: the export casts its columns to one that has.
 */
export function arrowArrays(
  vector: duckdb.Vector,
  rows: number,
  typeId: DuckDBTypeId,
  itemTypeId: DuckDBTypeId | null,
): ColumnArrays {
  const asInt64 = ({ data, ...rest }: Validity & { data: Uint8Array }) => ({
    ...rest,
    values: new BigInt64Array(data.buffer, data.byteOffset, rows),
  });
  switch (typeId) {
    case DuckDBTypeId.BIGINT:
      return { type: 'int64', ...asInt64(fixed(vector, rows, 8)) };
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return { type: 'timestamp_us', ...asInt64(fixed(vector, rows, 8)) };
    case DuckDBTypeId.DOUBLE: {
      const { data, ...rest } = fixed(vector, rows, 8);
      return { type: 'float64', ...rest, values: new Float64Array(data.buffer, data.byteOffset, rows) };
    }
    case DuckDBTypeId.DATE: {
      const { data, ...rest } = fixed(vector, rows, 4);
      return { type: 'date32', ...rest, values: new Int32Array(data.buffer, data.byteOffset, rows) };
    }
    case DuckDBTypeId.BOOLEAN: {
      const { data: bytes, ...rest } = fixed(vector, rows, 1);
      const values = new Uint8Array(Math.ceil(rows / 8));
      for (let i = 0; i < rows; i++) if (bytes[i]) values[i >> 3]! |= 1 << (i & 7);
      return { type: 'bool', ...rest, values };
    }
    case DuckDBTypeId.VARCHAR:
      return utf8Arrays(vector, rows, firstRows(rows));
    case DuckDBTypeId.LIST:
      if (itemTypeId === DuckDBTypeId.VARCHAR) return listArrays(vector, rows);
  }
  throw new Error(`no Arrow layout for DuckDB type ${DuckDBTypeId[typeId]}`);
}
