// Excel workbooks: one sheet rewritten as a CSV that the delimited reader takes like any other,
// its cells written so that inference finds their types again (dates as ISO dates, datetimes as
// ISO without offset, i.e. UTC, numbers with a decimal point, booleans as true/false).
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import ExcelJS from 'exceljs';

type Row = { readonly values: unknown };

/** The sheets of a workbook, each read as a stream of rows, first to last. */
function sheets(file: string): AsyncIterable<{ name: string } & AsyncIterable<Row>> {
  return new ExcelJS.stream.xlsx.WorkbookReader(file, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
  }) as unknown as AsyncIterable<{ name: string } & AsyncIterable<Row>>;
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

/** Rows of the chosen sheet with a value in them; the first is the header. */
async function* sheetRows(file: string, displayName: string, sheet?: string): AsyncGenerator<string[]> {
  const names: string[] = [];
  for await (const worksheet of sheets(file)) {
    names.push(worksheet.name);
    if (sheet !== undefined && worksheet.name !== sheet) {
      await drain(worksheet); // a stream reader must read each sheet through
      continue;
    }
    for await (const row of worksheet) {
      const cells = rowCells(row);
      if (cells.some((c) => c !== '')) yield cells;
    }
    return;
  }
  if (sheet !== undefined) {
    throw new Error(`${displayName}: no sheet named "${sheet}" (sheets: ${names.join(', ')})`);
  }
  throw new Error(`${displayName}: the workbook has no sheet`);
}

/**
 * Writes sheet `sheet` (the first when undefined) of the workbook `file` as `<workDir>/sheet.csv`,
 * every row as wide as the widest, and returns its path; an unreadable workbook or a missing
 * sheet is an Error naming `displayName`.
 */
export async function xlsxToCsv(
  file: string,
  workDir: string,
  displayName: string,
  sheet?: string,
): Promise<string> {
  let width = 0;
  try {
    for await (const cells of sheetRows(file, displayName, sheet)) width = Math.max(width, cells.length);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      message.startsWith(displayName)
        ? message
        : `${displayName}: not a readable .xlsx workbook (${message})`,
    );
  }
  if (width === 0) throw new Error(`${displayName}: the sheet holds no cell with a value`);
  const target = path.join(workDir, 'sheet.csv');
  const out = createWriteStream(target);
  for await (const cells of sheetRows(file, displayName, sheet)) {
    const line = Array.from({ length: width }, (_, i) => csvField(cells[i] ?? '')).join(',');
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return target;
}
