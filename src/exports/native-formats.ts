// The formats the engine writes itself: the shaped columns of the compiled rows, and the copy's format.
import type { CopyFormat } from '../engine/engine.js';
import { cell, type Cell, type Output, type OutputColumn, type ShapedColumn } from '../odsql/index.js';

/** What a writer needs to know of the request. */
export interface ExportOptions {
  /** Output key -> the header to write (field labels with use_labels). */
  readonly headers: ReadonlyMap<string, string>;
  readonly delimiter: string;
  readonly listSeparator: string;
  readonly quoteAll: boolean;
  readonly parquetCompression: 'snappy' | 'zstd';
  /** A byte order mark before CSV (with_bom; default true). */
  readonly withBom?: boolean;
}

/** A format the engine writes: how the compiled rows are shaped, and the copy's format. */
export interface NativeFormat {
  /** 'json': values in the JSON shapes of supplement 2; 'text': JSON text as stored; 'native': storage values. */
  readonly output: Output;
  readonly contentType: string;
  readonly extension: string;
  /** A BOM before the first byte (CSV with with_bom). */
  readonly bom?: boolean;
  shape(columns: readonly OutputColumn[], options: ExportOptions): ShapedColumn[];
  copyFormat(options: ExportOptions, columns: readonly OutputColumn[]): CopyFormat;
}

const renamed = (
  columns: readonly OutputColumn[],
  options: ExportOptions,
  value: (c: OutputColumn) => Cell = cell.value,
): ShapedColumn[] => columns.map((c) => ({ name: options.headers.get(c.key) ?? c.key, cell: value(c) }));

/**
 * A CSV cell: points, lists and JSON as the text cells of every format, numbers as JSON writes
 * them (DuckDB writes the double 2 as `2.0`, JSON as `2`).
 */
function csvCell(column: OutputColumn, options: ExportOptions): Cell {
  if (column.multivalued || ['geo_point_2d', 'json', 'geo_shape', 'json_blob'].includes(column.type)) {
    return cell.text(column, options.listSeparator);
  }
  return column.type === 'double' || column.type === 'number'
    ? cell.numberText(cell.value(column))
    : cell.value(column);
}

/** Columns written as numbers or booleans: quote_all leaves them unquoted ("Quote all strings"). */
const UNQUOTED: ReadonlySet<OutputColumn['type']> = new Set(['int', 'double', 'number', 'boolean']);

/** The string columns quoted with quote_all (header names as written), or none. */
function forceQuote(options: ExportOptions, columns: readonly OutputColumn[]): string[] {
  if (!options.quoteAll) return [];
  return columns
    .filter((c) => c.multivalued || !UNQUOTED.has(c.type))
    .map((c) => options.headers.get(c.key) ?? c.key);
}

export const NATIVE_FORMATS = {
  csv: {
    output: 'text',
    contentType: 'text/csv; charset=utf-8',
    extension: 'csv',
    shape: (columns, options) => renamed(columns, options, (c) => csvCell(c, options)),
    copyFormat: (options, columns) => ({
      format: 'csv',
      delimiter: options.delimiter,
      forceQuote: forceQuote(options, columns),
    }),
  },
  json: {
    output: 'json',
    contentType: 'application/json; charset=utf-8',
    extension: 'json',
    shape: (columns, options) => renamed(columns, options),
    copyFormat: () => ({ format: 'json', array: true }),
  },
  jsonl: {
    output: 'json',
    contentType: 'application/jsonlines; charset=utf-8',
    extension: 'jsonl',
    shape: (columns, options) => renamed(columns, options),
    copyFormat: () => ({ format: 'json', array: false }),
  },
  parquet: {
    output: 'native',
    contentType: 'application/vnd.apache.parquet',
    extension: 'parquet',
    shape: (columns, options) => renamed(columns, options),
    copyFormat: (options) => ({ format: 'parquet', compression: options.parquetCompression }),
  },
} satisfies Record<string, NativeFormat>;

export type NativeFormatName = keyof typeof NATIVE_FORMATS;
