// Excel workbooks: one sheet rewritten as a CSV that the delimited reader takes like any other,
// its cells written so that inference finds their types again (dates as ISO dates, datetimes as
// ISO without offset, i.e. UTC, numbers with a decimal point, booleans as true/false).
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import ExcelJS from 'exceljs';
import {
  addToSums,
  headerIndex,
  HEADER_SEARCH_ROWS,
  joinHeaderRows,
  totalsReason,
  type HeaderChoice,
  type SheetRow,
} from './sheet-header.js';
import { MergeSpreader, noteMerges, type CellRange } from './sheet-merges.js';

type Row = { readonly values: unknown; readonly number: number };
type Worksheet = { name: string; merges?: CellRange[] } & AsyncIterable<Row>;

/** exceljs's stream reader as far as used here: its workbook model and relationships. */
interface WorkbookStream extends AsyncIterable<Worksheet> {
  model?: unknown;
  workbookRels?: { Target: string }[];
  _parseRels(entry: unknown): Promise<void>;
  _parseWorkbook(entry: unknown): Promise<void>;
  _parseWorksheet(chunks: AsyncIterable<unknown>, sheetNo: string): Generator<{ value: unknown }>;
}
const WorkbookReader = ExcelJS.stream.xlsx.WorkbookReader as unknown as new (
  file: string,
  options: object,
) => WorkbookStream;

/**
 * Sheet names that hold whoever wrote the workbook (exceljs 4.4.0 is pinned: these override its
 * internals). exceljs names a sheet from the relationship whose target is `worksheets/sheetN.xml`;
 * openpyxl (so pandas) writes `/xl/worksheets/sheetN.xml`, and every sheet was called `SheetN`
 * (`--sheet cities`: no sheet named "cities" (sheets: Sheet1)): targets made relative. A sheet
 * stored before `xl/workbook.xml` but after the relationships and strings was read before its
 * name was known (a TypeError): the relationships are held back until the names are read, which
 * makes exceljs keep such a sheet aside (a temporary file) until the end.
 */
class PackageReader extends WorkbookReader {
  private heldRels: { Target: string }[] | undefined;

  override async _parseRels(entry: unknown): Promise<void> {
    await super._parseRels(entry);
    for (const rel of this.workbookRels ?? []) rel.Target = rel.Target.replace(/^\/xl\//, '');
    if (this.model === undefined) [this.heldRels, this.workbookRels] = [this.workbookRels, undefined];
  }

  override async _parseWorkbook(entry: unknown): Promise<void> {
    await super._parseWorkbook(entry);
    this.workbookRels ??= this.heldRels;
  }

  /** Each sheet's merged ranges, which exceljs's stream reader skips, noted in `merges` as its XML goes by. */
  override *_parseWorksheet(chunks: AsyncIterable<unknown>, sheetNo: string): Generator<{ value: unknown }> {
    const merges: CellRange[] = [];
    for (const event of super._parseWorksheet(noteMerges(chunks, merges), sheetNo)) {
      (event.value as Worksheet).merges = merges;
      yield event;
    }
  }
}

/** The sheets of a workbook, each read as a stream of rows, first to last. */
function sheets(file: string): AsyncIterable<Worksheet> {
  return new PackageReader(file, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
  });
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** A date cell: the day alone at midnight, else the instant without offset (Excel has none). */
function dateText(date: Date): string {
  const day = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const [h, m, s, ms] = [
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
    date.getUTCMilliseconds(),
  ];
  if (h === 0 && m === 0 && s === 0 && ms === 0) return day;
  return `${day}T${pad(h)}:${pad(m)}:${pad(s)}${ms ? `.${pad(ms, 3)}` : ''}`;
}

/** A cell's value as CSV text: formulas give their result, rich text its text, errors nothing. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : dateText(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean' || typeof value === 'string') return String(value);
  if (typeof value === 'object') {
    const cell = value as {
      result?: unknown;
      richText?: { text: string }[];
      text?: unknown;
      error?: unknown;
    };
    if ('result' in cell) return cellText(cell.result);
    if (Array.isArray(cell.richText)) return cell.richText.map((r) => r.text).join('');
    if ('text' in cell) return cellText(cell.text);
  }
  return '';
}

/** The cells of a row (exceljs counts columns from 1), as text. */
function rowCells(row: Row): string[] {
  const values = Array.isArray(row.values) ? (row.values as unknown[]).slice(1) : [];
  return Array.from(values, cellText);
}

/** Reads a sheet's rows to its end, keeping none. */
async function drain(rows: AsyncIterable<Row>): Promise<void> {
  const iterator = rows[Symbol.asyncIterator]();
  while (!(await iterator.next()).done);
}

const csvField = (text: string): string => (text === '' ? '' : `"${text.replaceAll('"', '""')}"`);

/**
 * Rows of the chosen sheet with a value in them, with their sheet row numbers; its merged ranges
 * are added to `merges` once the last row is read (a sheet's XML lists them after its rows).
 */
async function* sheetRows(
  file: string,
  displayName: string,
  sheet: string | undefined,
  merges: CellRange[],
): AsyncGenerator<SheetRow> {
  const names: string[] = [];
  for await (const worksheet of sheets(file)) {
    names.push(worksheet.name);
    // Excel refuses two sheet names that differ only in case: ignoring case names one sheet.
    if (sheet !== undefined && worksheet.name.toLowerCase() !== sheet.toLowerCase()) {
      await drain(worksheet); // a stream reader must read each sheet through
      continue;
    }
    for await (const row of worksheet) {
      const cells = rowCells(row);
      if (cells.some((c) => c !== '')) yield { number: row.number, cells };
    }
    merges.push(...(worksheet.merges ?? []));
    return;
  }
  if (sheet !== undefined) {
    throw new Error(`${displayName}: no sheet named "${sheet}" (sheets: ${names.join(', ')})`);
  }
  throw new Error(`${displayName}: the workbook has no sheet`);
}

/** Which sheet, and where its header is (`--sheet`, `--header-row`, `--skip-rows`, `--header-rows`). */
export interface SheetOptions extends HeaderChoice {
  readonly sheet?: string;
}

/** The sheet rewritten as CSV: its path, the sheet row of its header, and problems to report. */
export interface SheetCsv {
  readonly path: string;
  readonly headerRow: number;
  readonly problems: readonly string[];
}

/** Reads a workbook's rows, an unreadable workbook said in one line naming `displayName`. */
async function* readable(
  file: string,
  displayName: string,
  sheet: string | undefined,
  merges: CellRange[] = [],
): AsyncGenerator<SheetRow> {
  try {
    yield* sheetRows(file, displayName, sheet, merges);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (message.startsWith(displayName)) throw error;
    throw new Error(`${displayName}: not a readable .xlsx workbook (${message})`);
  }
}

/**
 * The first pass: the widest row, the merged ranges, and the first rows (merged cells filled in),
 * where the header is looked for.
 */
async function survey(file: string, displayName: string, options: SheetOptions) {
  let width = 0;
  const head: SheetRow[] = [];
  const merges: CellRange[] = [];
  const lookAt = Math.max(HEADER_SEARCH_ROWS, options.headerRow ?? 0, (options.skipRows ?? 0) + 1) + 10;
  for await (const row of readable(file, displayName, options.sheet, merges)) {
    width = Math.max(width, row.cells.length);
    if (head.length < lookAt) head.push(row);
  }
  if (width === 0) throw new Error(`${displayName}: the sheet holds no cell with a value`);
  const spreader = new MergeSpreader(merges);
  const spread = head.map((row) => spreader.spread(row));
  const first = headerIndex(spread, width, options);
  const headerRows = spread.slice(first, first + (options.headerRows ?? 1));
  return { width, merges, headerRows, labels: joinHeaderRows(headerRows, width, merges.length === 0) };
}

/**
 * Writes the sheet `options.sheet` (the first when undefined; its name matched ignoring case) of
 * the workbook `file` as `<workDir>/sheet.csv`: the header found below any title rows (or where
 * the options say) as one line, then the rows after it, every row as wide as the widest. An
 * unreadable workbook or a missing sheet is an Error naming `displayName`.
 */
export async function xlsxToCsv(
  file: string,
  workDir: string,
  displayName: string,
  options: SheetOptions = {},
): Promise<SheetCsv> {
  const { width, merges, headerRows, labels } = await survey(file, displayName, options);
  const spreader = new MergeSpreader(merges);
  const lastHeader = headerRows[headerRows.length - 1]!.number;
  const target = path.join(workDir, 'sheet.csv');
  const out = createWriteStream(target);
  const line = (cells: readonly string[]): string =>
    `${Array.from({ length: width }, (_, i) => csvField(cells[i] ?? '')).join(',')}\n`;
  out.write(line(labels));
  const sums: (number | null)[] = [];
  let last: SheetRow | null = null;
  for await (const read of readable(file, displayName, options.sheet)) {
    const row = spreader.spread(read);
    if (row.number <= lastHeader) continue;
    if (last) addToSums(sums, last.cells);
    last = row;
    if (!out.write(line(row.cells))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const reason = last ? totalsReason(last.cells, sums) : null;
  const problems = reason
    ? [
        `row ${last!.number} of the sheet looks like a totals row (${reason}): it is a record, counted twice in sums`,
      ]
    : [];
  return { path: target, headerRow: headerRows[0]!.number, problems };
}
