// XLSX: the sheet's rows formatted as SpreadsheetML by the engine (inline strings, numbers,
// booleans, dates as day numbers with a date format), streamed into a zip with the workbook's
// fixed parts.
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type { Chunk } from '../engine/engine.js';
import { cell, shapedSql, type Cell, type OutputColumn } from '../odsql/index.js';
import type { ExportContext, Exporter } from './export-context.js';
import { streamQuery } from './query-stream.js';
import { typedCell, xmlText, type CellKind } from './sql-cells.js';
import { DATE_STYLE, DATETIME_STYLE, workbookParts } from './xlsx-parts.js';

/** Data rows a sheet holds below its header row (1,048,576 rows in all). */
export const XLSX_MAX_ROWS = 1_048_575;

/** The spreadsheet letters of a 0-based column index (A, B, ..., Z, AA, ...). */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/**
 * The row number inside cell references, filled in by JS per row: chr(1) cannot occur in the
 * values, which are stripped of the control characters XML forbids.
 */
const ROW_MARK = '\u0001';

/** Whole numbers a sheet shows as written: Excel keeps 15 significant digits. */
const SHEET_DIGITS = 1e15;

/** One cell element (an empty `<c r=".."/>` for null). */
function cellXml(column: OutputColumn, index: number, separator: string): Cell {
  const typed = typedCell(column, separator);
  const ref = `r="${columnLetters(index)}${ROW_MARK}"`;
  const valued = (attributes: string, value: Cell): Cell =>
    cell.concat(cell.literal(`<c ${ref}${attributes}><v>`), value, cell.literal('</v></c>'));
  const number = (value: Cell): Cell => cell.numberText(value, SHEET_DIGITS);
  const inline = (text: Cell): Cell =>
    cell.concat(
      cell.literal(`<c ${ref} t="inlineStr"><is><t xml:space="preserve">`),
      text,
      cell.literal('</t></is></c>'),
    );
  // A date out of a sheet's range stays its ISO text.
  const dated = (from: 'date' | 'datetime', style: number): Cell =>
    cell.coalesce(valued(` s="${style}"`, number(cell.excelSerial(typed.cell, from))), inline(typed.cell));
  const forms: Record<CellKind, () => Cell> = {
    int: () => valued('', typed.cell),
    // NaN and the infinities are no number of a sheet: they stay text.
    double: () =>
      cell.coalesce(valued('', number(cell.finite(typed.cell))), inline(cell.text(column, separator))),
    bool: () => valued(' t="b"', cell.cast(column, 'int')),
    date: () => dated('date', DATE_STYLE),
    datetime: () => dated('datetime', DATETIME_STYLE),
    text: () => inline(cell.xml(typed.cell)),
    list: () => inline(cell.xml(cell.join(typed.cell, separator))),
  };
  return cell.coalesce(forms[typed.kind](), cell.literal(`<c ${ref}/>`));
}

/** The workbook: a header row of names (or labels), then one row per record. */
async function writeXlsx(context: ExportContext): Promise<Readable> {
  const header = context.columns
    .map(
      (c, i) =>
        `<c r="${columnLetters(i)}1" t="inlineStr"><is><t>${xmlText(context.options.headers.get(c.key) ?? c.key)}</t></is></c>`,
    )
    .join('');
  const cells = context.columns.map((c, i) => cellXml(c, i, context.options.listSeparator));
  const rowXml = cells.length > 0 ? cell.concat(...cells) : cell.literal('');
  const sql = shapedSql(context.query, [{ name: null, cell: rowXml }]);
  const head =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
    `<row r="1">${header}</row>\n`;
  // Readers want row numbers; the cells of a row are in column order, which needs no reference.
  let row = 1;
  const encode = (chunk: Chunk): string =>
    (chunk.values(0) as readonly string[])
      .map((cells) => {
        const n = String(++row);
        return `<row r="${n}">${cells.replaceAll(ROW_MARK, n)}</row>\n`;
      })
      .join('');
  const sheet = await streamQuery(
    context.engine,
    sql,
    encode,
    { head, tail: '</sheetData></worksheet>' },
    context.signal,
  );
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(workbookParts(context.name)))
    zip.addBuffer(Buffer.from(text), name);
  zip.addReadStream(sheet, 'xl/worksheets/sheet1.xml');
  zip.end();
  const output = zip.outputStream as Readable;
  // yazl does not pass a source's failure on: break the zip so the transfer is not complete.
  sheet.once('error', (error) => output.destroy(error));
  zip.on('error', (error: Error) => output.destroy(error)); // never uncaught (see zipOf of shapefiles)
  output.once('close', () => sheet.destroy());
  return output;
}

export const XLSX_FORMAT = {
  xlsx: {
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    extension: 'xlsx',
    output: 'text',
    geo: false,
    maxRows: XLSX_MAX_ROWS,
    write: writeXlsx,
  },
} satisfies Record<string, Exporter>;
