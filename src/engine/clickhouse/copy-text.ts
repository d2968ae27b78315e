// CSV and JSON written from a result's chunks in the bytes DuckDB's COPY writes for the same
// values (the exports of a ClickHouse dataset equal a Parquet one's): DuckDB quotes a CSV cell
// holding the delimiter, a quote or a line break, and the empty string; it writes a double with
// `.0` when whole and in exponent form outside 1e-4..1e16 in CSV (1e-05), outside 1e-7..1e21 in
// JSON (1e-7); JSON rows are compact objects, one per line, or an array of tab-indented lines; a
// point is its struct {"lon":..,"lat":..}, a JSON value (types.ts) written as it is.
// Checked against DuckDB's own bytes in test/engine/results.test.ts.
import type { CellValue, Chunk, CopyFormat } from '../engine.js';
import type { ResultColumn } from './tsv-rows.js';
import { isJsonValueType, isPointType } from './types.js';

/** A double as DuckDB's CSV writer writes it. */
function csvDouble(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const [mantissa, exponentText] = value.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 16) return Number.isInteger(value) ? `${value}.0` : String(value);
  const digits = String(Math.abs(exponent)).padStart(2, '0');
  return `${mantissa}e${exponent < 0 ? '-' : '+'}${digits}`;
}

/** A double as DuckDB's JSON writer writes it. */
function jsonDouble(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  const text = String(value);
  if (text.includes('e')) return text.replace('e+', 'e');
  return Number.isInteger(value) ? `${text}.0` : text;
}

/** A cell's text in JSON: doubles as DuckDB writes them, lists as arrays. */
function jsonCell(value: CellValue, double: boolean): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return double ? jsonDouble(value) : String(value);
  if (typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) {
    const items = value as readonly CellValue[];
    return `[${items.map((v) => jsonCell(v, typeof v === 'number')).join(',')}]`;
  }
  return JSON.stringify(value);
}

/** Whether a column holds doubles (written apart from integers). */
const isDouble = (column: ResultColumn): boolean => /^(?:Nullable\()?Float(?:32|64)\)?$/.test(column.type);

/** A cell of a JSON row: points as DuckDB's struct, JSON values as they are, the rest by jsonCell. */
function jsonWriter(column: ResultColumn): (value: CellValue) => string {
  if (isPointType(column.type)) {
    return (value) => {
      const [lon, lat] = value as readonly (number | null)[];
      return lon === null || lat === null || lon === undefined || lat === undefined
        ? 'null'
        : `{"lon":${jsonDouble(lon)},"lat":${jsonDouble(lat)}}`;
    };
  }
  if (isJsonValueType(column.type)) return (value) => (value === null ? 'null' : (value as string));
  const double = isDouble(column);
  return (value) => jsonCell(value, double);
}

/** How one copy writes its rows: the text of a chunk, of an empty result, and after the last row. */
export interface CopyEncoder {
  rows(chunk: Chunk, first: boolean): string;
  /** What an empty result is between the frame's head and the end. */
  empty(): string;
  /** What follows the last row. */
  end(): string;
}

/** The rows of a chunk, each the list of its cells across columns. */
function rowsOf(chunk: Chunk, width: number): CellValue[][] {
  const columns = Array.from({ length: width }, (_, i) => chunk.values(i));
  return Array.from({ length: chunk.rowCount }, (_, r) => columns.map((c) => c[r]!));
}

function csvEncoder(
  columns: readonly ResultColumn[],
  format: Extract<CopyFormat, { format: 'csv' }>,
): CopyEncoder {
  const special = new RegExp(`[${format.delimiter.replace(/[\\\]^-]/g, '\\$&')}"\\n\\r]`);
  const quote = (text: string): string => `"${text.replaceAll('"', '""')}"`;
  const text = (value: string, forced: boolean): string =>
    forced || value === '' || special.test(value) ? quote(value) : value;
  const forced = columns.map((c) => format.forceQuote.includes(c.name));
  const doubles = columns.map(isDouble);
  const cell = (value: CellValue, i: number): string => {
    if (value === null) return '';
    if (typeof value === 'number') return doubles[i] ? csvDouble(value) : String(value);
    if (typeof value === 'string') return text(value, forced[i]!);
    if (Array.isArray(value)) return text(`[${value.join(', ')}]`, forced[i]!);
    return String(value);
  };
  const header = columns.map((c, i) => text(c.name, forced[i]!)).join(format.delimiter) + '\n';
  return {
    rows: (chunk, first) =>
      (first ? header : '') +
      rowsOf(chunk, columns.length)
        .map((row) => row.map(cell).join(format.delimiter) + '\n')
        .join(''),
    empty: () => header,
    end: () => '',
  };
}

function jsonEncoder(columns: readonly ResultColumn[], array: boolean): CopyEncoder {
  const keys = columns.map((c) => `${JSON.stringify(c.name)}:`);
  const writers = columns.map(jsonWriter);
  const object = (row: readonly CellValue[]): string =>
    `{${row.map((v, i) => keys[i]! + writers[i]!(v)).join(',')}}`;
  return {
    rows: (chunk, first) => {
      const objects = rowsOf(chunk, columns.length).map(object);
      if (!array) return objects.map((o) => `${o}\n`).join('');
      return (first ? '[\n' : ',\n') + objects.map((o) => `\t${o}`).join(',\n');
    },
    empty: () => (array ? '[\n\t' : ''),
    end: () => (array ? '\n]\n' : ''),
  };
}

/** The encoder of a CSV or JSON copy of a result with `columns`. */
export function copyEncoder(
  columns: readonly ResultColumn[],
  format: Exclude<CopyFormat, { format: 'parquet' }>,
): CopyEncoder {
  return format.format === 'csv' ? csvEncoder(columns, format) : jsonEncoder(columns, format.array);
}
