// Where a sheet's table starts: the header row found below title, blank and note rows (or the row
// the user names), several header rows joined into one label each, and a trailing totals row.

/** A row of a sheet with a value in it: its number as the spreadsheet shows it (from 1), its cells as text. */
export interface SheetRow {
  readonly number: number;
  readonly cells: readonly string[];
  /** The cells (indexes from 0) holding the value of a merged range they are part of, not their own. */
  readonly copies?: ReadonlySet<number>;
}

/** What the user says about the header: its sheet row, rows to skip before it, how many rows it spans. */
export interface HeaderChoice {
  readonly headerRow?: number;
  readonly skipRows?: number;
  readonly headerRows?: number;
}

/** Rows looked at for a header: a title block longer than this is not guessed past. */
export const HEADER_SEARCH_ROWS = 30;
/** Rows after a candidate header whose shape must match it. */
const FOLLOWING_ROWS = 5;

/** The cells with a value of their own (not copied from a merged range). */
const filled = (row: SheetRow): string[] =>
  row.cells.filter((c, i) => c.trim() !== '' && !row.copies?.has(i));
/** The cells showing a value, a merged range's included: how wide the row reads. */
const span = (row: SheetRow): number => row.cells.filter((c) => c.trim() !== '').length;
const isNumber = (cell: string): boolean => /^[+-]?(\d+([.,]\d+)?|[.,]\d+)([eE][+-]?\d+)?$/.test(cell.trim());
/** A year is a label in a header (`2019`, `2020` over columns of figures). */
const isLabel = (cell: string): boolean => !isNumber(cell) || /^(1[5-9]|2[0-9])\d\d$/.test(cell.trim());

/**
 * A header: at least two cells (one in a one-column sheet), mostly labels, all different, and
 * covering at least half as many columns as the rows after it (a title or a note has one or two
 * cells over a wider table; a label merged across columns covers each of them).
 */
function looksLikeHeader(rows: readonly SheetRow[], index: number, width: number): boolean {
  const cells = filled(rows[index]!);
  if (cells.length < Math.min(2, width)) return false;
  if (cells.filter(isLabel).length * 2 < cells.length) return false;
  if (new Set(cells.map((c) => c.trim())).size !== cells.length) return false;
  const after = rows.slice(index + 1, index + 1 + FOLLOWING_ROWS).map(span);
  return after.length === 0 || span(rows[index]!) * 2 >= Math.max(...after);
}

/** The index in `rows` of the first header row, as chosen by the user or found. */
export function headerIndex(rows: readonly SheetRow[], width: number, choice: HeaderChoice): number {
  if (choice.headerRow !== undefined) {
    const index = rows.findIndex((row) => row.number === choice.headerRow);
    if (index < 0) throw new Error(`--header-row: row ${choice.headerRow} of the sheet is empty or absent`);
    return index;
  }
  if (choice.skipRows !== undefined) {
    const index = rows.findIndex((row) => row.number > choice.skipRows!);
    if (index < 0) throw new Error(`--skip-rows: no row with a value after row ${choice.skipRows}`);
    return index;
  }
  const searched = Math.min(rows.length, HEADER_SEARCH_ROWS);
  for (let index = 0; index < searched; index++) if (looksLikeHeader(rows, index, width)) return index;
  return 0;
}

/**
 * One label per column from several header rows, the parts joined by ` / ` with a repeated part
 * written once (`2019 / Q1`). Merged cells are filled in already; in a workbook without any
 * (`fillLeft`), a blank cell of an upper row takes the cell on its left, as a label centred
 * across columns without merging them, `2019` over `Q1` to `Q4`, reads.
 */
export function joinHeaderRows(rows: readonly SheetRow[], width: number, fillLeft = true): string[] {
  const filledRight = rows.map((row, r) => {
    let left = '';
    return Array.from({ length: width }, (_, i) => {
      const cell = (row.cells[i] ?? '').trim();
      if (cell !== '') left = cell;
      return fillLeft && r < rows.length - 1 && cell === '' ? left : cell;
    });
  });
  return Array.from({ length: width }, (_, i) => {
    const parts = filledRight.map((row) => row[i]!).filter((part) => part !== '');
    return parts.filter((part, k) => part !== parts[k - 1]).join(' / ');
  });
}

/** Words a totals row opens with, in the languages of the portals' publishers. */
const TOTAL_WORDS = /^(grand[ -])?(total|totals|totaux|summe|gesamt|insgesamt|totale|suma|somme)\b/i;

/**
 * Why the last data row is a totals row, or null: its first cell says so (`Total`, `Totaux`,
 * `Summe`...), or it is empty and each number of the row is the sum of its column above
 * (`sums[i]`: the sum of the numbers of column i in the rows before it, null when one was text).
 */
export function totalsReason(last: readonly string[], sums: readonly (number | null)[]): string | null {
  const first = (last[0] ?? '').trim();
  if (TOTAL_WORDS.test(first)) return `its first cell says ${JSON.stringify(first)}`;
  if (first !== '') return null;
  const numbers = last.flatMap((cell, i) => (isNumber(cell) ? [{ value: Number(cell), i }] : []));
  if (numbers.length === 0 || numbers.length < last.filter((c) => c.trim() !== '').length) return null;
  const isSum = ({ value, i }: { value: number; i: number }): boolean => {
    const sum = sums[i];
    return sum !== null && sum !== undefined && Math.abs(sum - value) <= 1e-9 * Math.max(1, Math.abs(sum));
  };
  return numbers.every(isSum) ? 'it has no label and each of its numbers is the sum of its column' : null;
}

/** Adds a data row's numbers to the running sums of its columns (a text cell makes its column's sum null). */
export function addToSums(sums: (number | null)[], cells: readonly string[]): void {
  cells.forEach((cell, i) => {
    if (cell.trim() === '') return;
    const sum = sums[i] === undefined ? 0 : sums[i];
    sums[i] = sum !== null && isNumber(cell) ? sum + Number(cell) : null;
  });
}
