// Wide CSV files as portals receive them (many columns of mixed types), written from a seed: the
// ingest tests check that the one-pass inference types them as the column-by-column one did, and
// the bench's ingest section times them.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/** A deterministic generator of numbers in [0, 1) (mulberry32): the same seed writes the same file. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const between = (r: Random, low: number, high: number): number => low + Math.floor(r() * (high - low + 1));

const WORDS = ['north', 'river', 'station', 'market', 'école', 'garden', 'hill', 'bridge', 'park', 'mill'];
const CITIES = ['Lyon', 'Paris', 'Nantes', 'Lille', 'Metz', 'Brest', 'Nice', 'Dijon'];

/** A cell of one kind of column: its text as written in a file of `delimiter`, given the row. */
interface ColumnKind {
  readonly name: string;
  readonly cell: (r: Random, row: number, rows: number, delimiter: string) => string;
}

function day(r: Random): { y: number; m: number; d: number } {
  return { y: between(r, 1990, 2025), m: between(r, 1, 12), d: between(r, 1, 28) };
}

/** A decimal as the file's dialect writes it: a comma for the mark where the delimiter is not one. */
function decimal(r: Random, delimiter: string): string {
  const text = (r() * 10_000).toFixed(2);
  return delimiter === ',' ? text : text.replace('.', ',');
}

/** Thousands grouped as the dialect writes them (quoted where the comma is the delimiter). */
function grouped(r: Random, delimiter: string): string {
  const n = between(r, 1_000, 9_999_999).toLocaleString('en-US');
  return delimiter === ',' ? `"${n}"` : n.replace(/,/g, ' ');
}

/** The kinds, cycled through across the columns. */
export const WIDE_KINDS: readonly ColumnKind[] = [
  { name: 'int', cell: (r) => String(between(r, -500, 99_999)) },
  { name: 'double', cell: (r) => (r() * 1000 - 200).toFixed(3) },
  { name: 'decimal', cell: (r, _, __, delimiter) => decimal(r, delimiter) },
  { name: 'iso_date', cell: (r) => ((d) => `${d.y}-${pad(d.m)}-${pad(d.d)}`)(day(r)) },
  { name: 'day_first', cell: (r) => ((d) => `${pad(d.d)}/${pad(d.m)}/${d.y}`)(day(r)) },
  { name: 'code', cell: (r) => pad(between(r, 0, 99_999), 5) },
  { name: 'city', cell: (r) => CITIES[between(r, 0, CITIES.length - 1)]! },
  { name: 'sentence', cell: (r) => Array.from({ length: 4 }, () => WORDS[between(r, 0, 9)]).join(' ') },
  { name: 'flag', cell: (r) => (r() < 0.5 ? 'true' : 'FALSE') },
  { name: 'sparse', cell: (r) => (r() < 0.9 ? '' : r() < 0.5 ? 'NA' : String(between(r, 1, 9))) },
  { name: 'month_first', cell: (r) => ((d) => `${pad(d.m)}-${pad(d.d)}-${d.y}`)(day(r)) },
  { name: 'grouped', cell: (r, _, __, delimiter) => grouped(r, delimiter) },
  {
    name: 'datetime',
    cell: (r) =>
      ((d) => `${d.y}-${pad(d.m)}-${pad(d.d)}T${pad(between(r, 0, 23))}:${pad(between(r, 0, 59))}:00Z`)(
        day(r),
      ),
  },
  { name: 'points_date', cell: (r) => ((d) => `${pad(d.d)}.${pad(d.m)}.${d.y}`)(day(r)) },
  // All but one cell in 400 an int: typed int with the others reported, when the column is long enough.
  { name: 'mostly_int', cell: (r) => (r() < 0.0025 ? 'unknown' : String(between(r, 0, 999))) },
  { name: 'last_only', cell: (_, row, rows) => (row === rows - 1 ? '2020-02-29' : '') },
  { name: 'empty', cell: () => '' },
  { name: 'ambiguous', cell: (r) => `${pad(between(r, 1, 12))}/${pad(between(r, 1, 12))}/2020` },
  { name: 'month_name', cell: (r) => ((d) => `${pad(d.d)} Mar ${d.y}`)(day(r)) },
  { name: 'note', cell: (r) => (r() < 0.7 ? '' : `${WORDS[between(r, 0, 9)]}, ${between(r, 1, 99)}`) },
];

/** A cell of text quoted for CSV when it holds the delimiter, a quote or a line break. */
function quoted(cell: string, delimiter: string): string {
  if (cell.startsWith('"')) return cell;
  return cell.includes(delimiter) || /["\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** What to write: rows and columns, the delimiter, the seed. */
export interface WideCsvShape {
  readonly rows: number;
  readonly columns: number;
  readonly delimiter: ',' | ';';
  readonly seed: number;
}

/** The kind of column `index` (cycling through WIDE_KINDS). */
export function wideKindOf(index: number): ColumnKind {
  return WIDE_KINDS[index % WIDE_KINDS.length]!;
}

/** Writes the wide CSV to `file`; header `<kind> <index>`. */
export async function writeWideCsv(file: string, shape: WideCsvShape): Promise<void> {
  const r = random(shape.seed);
  const out = createWriteStream(file);
  const kinds = Array.from({ length: shape.columns }, (_, i) => wideKindOf(i));
  const write = async (line: string): Promise<void> => {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
  await write(kinds.map((k, i) => `${k.name} ${i}`).join(shape.delimiter));
  for (let row = 0; row < shape.rows; row++) {
    const cells = kinds.map((k) => quoted(k.cell(r, row, shape.rows, shape.delimiter), shape.delimiter));
    await write(cells.join(shape.delimiter));
  }
  out.end();
  await once(out, 'finish');
}
