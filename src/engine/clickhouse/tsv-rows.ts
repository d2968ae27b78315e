// ClickHouse's TSVWithNamesAndTypes output read as the engine interface's chunks: names and types
// on the first two lines, then one row per line, cells split on tabs (tabs, newlines and
// backslashes inside a value are escaped), `\N` for null, arrays and tuples written as literals
// with quoted strings. Each cell is made the JS value DuckDB's chunks hand for the same value
// (64-bit integers as bigints, dates and instants as text, lists as arrays), and a column can be
// laid out as Arrow's arrays from those values.
import type { Readable } from 'node:stream';
import type { CellValue, Chunk, ColumnArrays, Utf8Arrays, Validity } from '../engine.js';
import { BOOLEAN_TYPE, ZERO_DATE_TEXT } from './types.js';

/** Rows per chunk, as DuckDB's vectors hold. */
export const CHUNK_ROWS = 2048;

/** What a backslash followed by a character stands for in ClickHouse's escaped and quoted text. */
const ESCAPES: ReadonlyMap<string, string> = new Map([
  ['b', '\b'],
  ['f', '\f'],
  ['r', '\r'],
  ['n', '\n'],
  ['t', '\t'],
  ['0', '\0'],
  ['a', '\x07'],
  ['v', '\v'],
]);

/** A TSV cell's text with its escapes undone. */
export function unescape(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\(.)/gsu, (_, c: string) => ESCAPES.get(c) ?? c);
}

/**
 * The items of an array literal of quoted strings (`['a','b\'c']`), NULL items as null; an empty
 * array is null (a portal table's arrays stand for lists, which are never empty: types.ts).
 */
function arrayItems(text: string): (string | null)[] | null {
  if (text === '[]') return null;
  const items: (string | null)[] = [];
  const item = /'((?:[^'\\]|\\.)*)'|NULL/gsu;
  for (let match = item.exec(text); match; match = item.exec(text))
    items.push(match[1] === undefined ? null : unescape(match[1]));
  return items;
}

/** The text inside a one-element tuple of a string (`('...')`, `(NULL)`): a JSON value's text. */
function tupleText(text: string): string | null {
  return text === '(NULL)' ? null : unescape(text.slice(2, -2));
}

/** A Float's text as a number: ClickHouse writes inf, -inf and nan. */
function float(text: string): number {
  if (text === 'inf' || text === '+inf') return Infinity;
  if (text === '-inf') return -Infinity;
  if (text === 'nan' || text === '-nan') return NaN;
  return Number(text);
}

/** An instant's text in UTC (the zone every DateTime of a portal table has) as DuckDB writes it. */
function instant(text: string): string {
  return text.startsWith(ZERO_DATE_TEXT) ? '1970-01-01 00:00:00+00' : `${text}+00`;
}

/** How the cells of one type read, and the Arrow layout its values take (null: none). */
interface ColumnKind {
  readonly cell: (text: string) => CellValue;
  readonly arrow: ColumnArrays['type'] | null;
}

/** Each ClickHouse type (without Nullable) -> its cells; the first matching pattern wins. */
const KINDS: readonly (readonly [RegExp, ColumnKind])[] = [
  [/^(?:String|FixedString\(\d+\)|UUID|Enum(?:8|16)\(.*\))$/su, { cell: unescape, arrow: 'utf8' }],
  [/^(?:U?Int64)$/u, { cell: (t) => BigInt(t), arrow: 'int64' }],
  [/^(?:U?Int(?:8|16|32))$/u, { cell: Number, arrow: null }],
  [/^Float(?:32|64)$/u, { cell: float, arrow: 'float64' }],
  [/^Date$/u, { cell: (t) => (t === ZERO_DATE_TEXT ? '1970-01-01' : t), arrow: 'date32' }],
  [/^DateTime(?:\('UTC'\))?$/u, { cell: instant, arrow: 'timestamp_us' }],
  [/^Array\((?:Nullable\()?String\)?\)$/u, { cell: arrayItems, arrow: 'list' }],
  [/^Tuple\((?:Nullable\()?String\)?\)$/u, { cell: tupleText, arrow: 'utf8' }],
  [
    /^Tuple\(.*\)$/su,
    {
      cell: (t) =>
        t
          .slice(1, -1)
          .split(',')
          .map((v) => (v === 'NULL' ? null : float(v))),
      arrow: null,
    },
  ],
  [/^Decimal(?:32|64|128)?\(.*\)$/u, { cell: (t) => t, arrow: null }],
];

/** The kind of a ClickHouse column type; a boolean is the Enum8 the compiler casts to. */
function kindOf(type: string): ColumnKind & { readonly nullable: boolean } {
  const nullable = /^Nullable\((.*)\)$/su.exec(type);
  const inner = nullable ? nullable[1]! : type;
  if (inner === BOOLEAN_TYPE)
    return { cell: (t) => t === 'true', arrow: 'bool', nullable: nullable !== null };
  const found = KINDS.find(([pattern]) => pattern.test(inner));
  if (!found) throw new Error(`no reading of ClickHouse type ${inner}`);
  return { ...found[1], nullable: nullable !== null };
}

/** A column of a result: its name, ClickHouse type and how its cells read. */
export interface ResultColumn {
  readonly name: string;
  readonly type: string;
  readonly kind: ColumnKind & { readonly nullable: boolean };
}

const encoder = new TextEncoder();

/** Arrow's validity of `values` (null where a value is null). */
function validity(values: readonly CellValue[]): Validity {
  const nullCount = values.reduce<number>((n, v) => (v === null ? n + 1 : n), 0);
  if (nullCount === 0) return { nullCount };
  const nullBitmap = new Uint8Array(Math.ceil(values.length / 8));
  values.forEach((v, i) => {
    if (v !== null) nullBitmap[i >> 3]! |= 1 << (i & 7);
  });
  return { nullBitmap, nullCount };
}

/** Strings (null where absent) as Arrow's UTF-8 offsets and bytes. */
function utf8(values: readonly (string | null)[]): Utf8Arrays {
  const bytes = values.map((v) => (v === null ? new Uint8Array(0) : encoder.encode(v)));
  const valueOffsets = new Int32Array(values.length + 1);
  bytes.forEach((b, i) => (valueOffsets[i + 1] = valueOffsets[i]! + b.length));
  const data = new Uint8Array(valueOffsets[values.length]!);
  bytes.forEach((b, i) => data.set(b, valueOffsets[i]));
  return { type: 'utf8', valueOffsets, data, ...validity(values) };
}

const DAY_MS = 86_400_000;

/** Arrow's layout of a column's values, null slots zeroed. */
function arrowOf(column: ResultColumn, values: readonly CellValue[]): ColumnArrays {
  const nulls = validity(values);
  switch (column.kind.arrow) {
    case 'utf8':
      return utf8(values as (string | null)[]);
    case 'int64':
      return {
        type: 'int64',
        ...nulls,
        values: BigInt64Array.from(values, (v) => (v as bigint | null) ?? 0n),
      };
    case 'float64':
      return {
        type: 'float64',
        ...nulls,
        values: Float64Array.from(values, (v) => (v as number | null) ?? 0),
      };
    case 'date32':
      return {
        type: 'date32',
        ...nulls,
        values: Int32Array.from(values, (v) =>
          v === null ? 0 : Date.parse(`${v as string}T00:00:00Z`) / DAY_MS,
        ),
      };
    case 'timestamp_us':
      return {
        type: 'timestamp_us',
        ...nulls,
        values: BigInt64Array.from(values, (v) =>
          v === null ? 0n : BigInt(Date.parse(`${(v as string).slice(0, 19).replace(' ', 'T')}Z`)) * 1000n,
        ),
      };
    case 'bool': {
      const bits = new Uint8Array(Math.ceil(values.length / 8));
      values.forEach((v, i) => {
        if (v === true) bits[i >> 3]! |= 1 << (i & 7);
      });
      return { type: 'bool', ...nulls, values: bits };
    }
    case 'list': {
      const lists = values as (readonly (string | null)[] | null)[];
      const valueOffsets = new Int32Array(lists.length + 1);
      lists.forEach((l, i) => (valueOffsets[i + 1] = valueOffsets[i]! + (l?.length ?? 0)));
      return { type: 'list', ...nulls, valueOffsets, child: utf8(lists.flatMap((l) => l ?? [])) };
    }
    case null:
      throw new Error(`no Arrow layout for ClickHouse type ${column.type}`);
  }
}

/** Rows of a result read into JS values by column. */
class ClickHouseChunk implements Chunk {
  constructor(
    private readonly columns: readonly ResultColumn[],
    private readonly cells: readonly CellValue[][],
    readonly rowCount: number,
  ) {}

  values(index: number): readonly CellValue[] {
    return this.cells[index]!;
  }

  arrays(index: number): ColumnArrays {
    return arrowOf(this.columns[index]!, this.cells[index]!);
  }
}

/** The lines of a stream, split on newlines (a row's own newlines are escaped). */
async function* linesOf(stream: Readable): AsyncIterable<string> {
  let rest = '';
  stream.setEncoding('utf8');
  for await (const text of stream as AsyncIterable<string>) {
    const lines = (rest + text).split('\n');
    rest = lines.pop()!;
    yield* lines;
  }
  if (rest !== '') yield rest;
}

/** The columns of a result from its names and types lines. */
function columnsOf(names: string, types: string): ResultColumn[] {
  const typeTexts = types.split('\t').map(unescape);
  return names.split('\t').map((name, i) => {
    const type = typeTexts[i]!;
    return { name: unescape(name), type, kind: kindOf(type) };
  });
}

/** A result being read: its columns, known from the first two lines, and its chunks. */
export interface TsvResult {
  readonly columns: readonly ResultColumn[];
  /** CHUNK_ROWS rows each (the last fewer). */
  readonly chunks: AsyncIterable<Chunk>;
}

/** Reads the names and types of a TSVWithNamesAndTypes stream; its rows follow as chunks. */
export async function tsvResult(stream: Readable): Promise<TsvResult> {
  const lines = linesOf(stream)[Symbol.asyncIterator]();
  const names = await lines.next();
  const types = await lines.next();
  if (names.done || types.done) throw new Error('internal: a ClickHouse answer without its header lines');
  const columns = columnsOf(names.value, types.value);
  return { columns, chunks: chunksOf(columns, lines) };
}

async function* chunksOf(
  columns: readonly ResultColumn[],
  lines: AsyncIterator<string>,
): AsyncIterable<Chunk> {
  let cells: CellValue[][] = columns.map(() => []);
  let rows = 0;
  for (let line = await lines.next(); !line.done; line = await lines.next()) {
    const texts = line.value.split('\t');
    columns.forEach((column, i) => {
      const text = texts[i]!;
      cells[i]!.push(column.kind.nullable && text === '\\N' ? null : column.kind.cell(text));
    });
    if (++rows === CHUNK_ROWS) {
      yield new ClickHouseChunk(columns, cells, rows);
      cells = columns.map(() => []);
      rows = 0;
    }
  }
  if (rows > 0) yield new ClickHouseChunk(columns, cells, rows);
}
