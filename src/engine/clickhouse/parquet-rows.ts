// A ClickHouse result handed to a Parquet encoder (ClickHouse 18.16 writes no Parquet; the DuckDB
// engine encodes it): each column's kind from its ClickHouse type, and the rows as the CSV the
// encoder reads (EncodedColumn in ../engine.ts), written chunk by chunk as they are read.
import { Readable } from 'node:stream';
import type { CellValue, Chunk, EncodedColumn } from '../engine.js';
import type { ResultColumn } from './tsv-rows.js';
import { BOOLEAN_TYPE, isPointType } from './types.js';

/** ClickHouse's types (without Nullable) -> the kind a column is encoded as; the first match wins. */
const KINDS: readonly (readonly [RegExp, EncodedColumn['kind']])[] = [
  [/^U?Int(?:8|16|32|64)$/, 'int'],
  [/^(?:Float(?:32|64)|Decimal(?:32|64|128)?\(.*\))$/, 'double'],
  [/^Date$/, 'date'],
  [/^DateTime(?:\('UTC'\))?$/, 'instant'],
  [/^Array\((?:Nullable\()?String\)?\)$/, 'text-list'],
];

/** The kind of a result's column: booleans are the compiler's Enum8, the rest text. */
function kindOf(column: ResultColumn): EncodedColumn['kind'] {
  if (isPointType(column.type)) return 'point';
  const inner = /^Nullable\((.*)\)$/s.exec(column.type)?.[1] ?? column.type;
  if (inner === BOOLEAN_TYPE) return 'bool';
  return KINDS.find(([pattern]) => pattern.test(inner))?.[1] ?? 'text';
}

/** The encoded columns of a result. */
export function encodedColumns(columns: readonly ResultColumn[]): EncodedColumn[] {
  return columns.map((column) => ({ name: column.name, kind: kindOf(column) }));
}

/** The encoder's null cell (EncodedColumn). */
const NULL = '\\N';
const DAY_MS = 86_400_000;

const quoted = (text: string): string => `"${text.replaceAll('"', '""')}"`;

/** A double as the encoder reads it. */
function double(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  return String(value);
}

/** Each kind's CSV cells of a value (not null). */
const CELLS: Record<EncodedColumn['kind'], (value: CellValue) => string> = {
  text: (value) => quoted(String(value)),
  int: String,
  double: (value) => double(value as number),
  bool: String,
  // 'YYYY-MM-DD' -> days, 'YYYY-MM-DD HH:MM:SS+00' -> seconds, since the epoch.
  date: (value) => String(Date.parse(`${value as string}T00:00:00Z`) / DAY_MS),
  instant: (value) => String(Date.parse(`${(value as string).slice(0, 19).replace(' ', 'T')}Z`) / 1000),
  'text-list': (value) => quoted(JSON.stringify(value)),
  point: (value) =>
    (value as readonly (number | null)[]).map((v) => (v === null ? NULL : double(v))).join(','),
};

/** The CSV lines of a chunk. */
function csvLines(chunk: Chunk, kinds: readonly EncodedColumn['kind'][]): string {
  const columns = kinds.map((_, i) => chunk.values(i));
  const lines: string[] = [];
  for (let row = 0; row < chunk.rowCount; row++) {
    const cells = kinds.map((kind, i) => {
      const value = columns[i]![row]!;
      if (value === null) return kind === 'point' ? `${NULL},${NULL}` : NULL;
      return CELLS[kind](value);
    });
    lines.push(cells.join(',') + '\n');
  }
  return lines.join('');
}

/** The rows of `chunks` as the encoder's CSV; `done` runs when it ends or is destroyed. */
export function csvRows(
  chunks: AsyncIterable<Chunk>,
  columns: readonly EncodedColumn[],
  done: () => void,
): Readable {
  const kinds = columns.map((c) => c.kind);
  return Readable.from(
    (async function* () {
      try {
        for await (const chunk of chunks) yield csvLines(chunk, kinds);
      } finally {
        done();
      }
    })(),
    { objectMode: false },
  );
}
