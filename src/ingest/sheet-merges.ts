// Merged cells of a sheet: exceljs's stream reader skips a sheet's `<mergeCell ref="B1:E1"/>`
// elements, so they are noted from its XML on the way through, and each merged range gives the
// value of its top-left cell to every cell it covers, as the sheet shows it: a year over its
// quarters in a header, a region down the rows of its towns.
import type { SheetRow } from './sheet-header.js';

/** A rectangle of cells, rows and columns counted from 1 as the spreadsheet shows them. */
export interface CellRange {
  readonly top: number;
  readonly left: number;
  readonly bottom: number;
  readonly right: number;
}

const MERGE_REF =
  /<(?:\w+:)?mergeCell\b[^>]*?\bref\s*=\s*["']([A-Z]{1,3})(\d{1,7}):([A-Z]{1,3})(\d{1,7})["']/g;
/** Characters of a chunk carried to the next: longer than any `<mergeCell>` element. */
const CARRIED = 200;

/** `A` -> 1, `Z` -> 26, `AA` -> 27. */
function columnNumber(letters: string): number {
  let n = 0;
  for (const letter of letters) n = n * 26 + letter.charCodeAt(0) - 64;
  return n;
}

/**
 * Passes the chunks of a sheet's XML on unchanged, adding to `merges` each merged range found in
 * them (an element split across two chunks included).
 */
export async function* noteMerges(
  chunks: AsyncIterable<unknown>,
  merges: CellRange[],
): AsyncGenerator<unknown> {
  let carried = '';
  for await (const chunk of chunks) {
    // Latin-1 keeps every byte one character: the ASCII searched for cannot be misread.
    const text = carried + (Buffer.isBuffer(chunk) ? chunk.toString('latin1') : String(chunk));
    let end = 0;
    if (text.includes('mergeCell')) {
      for (const match of text.matchAll(MERGE_REF)) {
        const [rows, columns] = [
          [Number(match[2]), Number(match[4])],
          [columnNumber(match[1]!), columnNumber(match[3]!)],
        ];
        merges.push({
          top: Math.min(rows[0]!, rows[1]!),
          bottom: Math.max(rows[0]!, rows[1]!),
          left: Math.min(columns[0]!, columns[1]!),
          right: Math.max(columns[0]!, columns[1]!),
        });
        end = match.index + match[0].length;
      }
    }
    carried = text.slice(Math.max(end, text.length - CARRIED));
    yield chunk;
  }
}

/**
 * Fills the cells merged ranges cover, row after row in sheet order: each range's value is its
 * top-left cell's, given to every other empty cell of the range (an empty top-left cell gives
 * nothing). The rows given must come in increasing order; rows left out (empty ones) are fine.
 */
export class MergeSpreader {
  private readonly pending: readonly CellRange[];
  private next = 0;
  private active: { readonly range: CellRange; readonly value: string }[] = [];

  constructor(ranges: readonly CellRange[]) {
    this.pending = [...ranges].sort((a, b) => a.top - b.top);
  }

  /** Whether any range was given. */
  get any(): boolean {
    return this.pending.length > 0;
  }

  /** `row` with the cells merged ranges cover filled in; `copies` says which (indexes from 0). */
  spread(row: SheetRow): SheetRow {
    while (this.next < this.pending.length && this.pending[this.next]!.top <= row.number) {
      const range = this.pending[this.next++]!;
      const value = range.top === row.number ? (row.cells[range.left - 1] ?? '').trim() : '';
      if (value !== '') this.active.push({ range, value });
    }
    if (this.active.length === 0) return row;
    this.active = this.active.filter(({ range }) => range.bottom >= row.number);
    const cells = [...row.cells];
    const copies = new Set<number>();
    for (const { range, value } of this.active) {
      while (cells.length < range.right) cells.push('');
      for (let column = range.left; column <= range.right; column++) {
        if (cells[column - 1] !== '' || (range.top === row.number && column === range.left)) continue;
        cells[column - 1] = value;
        copies.add(column - 1);
      }
    }
    return copies.size === 0 ? row : { number: row.number, cells, copies };
  }
}
