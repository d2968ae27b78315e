// XLSX: the sheet's rows formatted as SpreadsheetML by DuckDB (inline strings, numbers, booleans,
// dates as day numbers with a date format), streamed into a zip with the workbook's fixed parts.
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type { Chunk } from '../engine/engine.js';
import { cellSql, xmlEscapedSql as xmlEscaped, type OutputColumn } from '../odsql/index.js';
import type { ExportContext, Exporter } from './export-context.js';
import { streamQuery } from './query-stream.js';
import { typedCell, xmlText, type CellKind } from './sql-cells.js';

/**
 * VARCHAR of a DOUBLE as the record API writes it: a whole value without `.0` (`2`, not `2.0`),
 * others in DuckDB's shortest round-trip text (`0.25`, `1e+20`, `inf`, `nan`).
 */
function doubleText(sql: string): string {
  return `CASE WHEN ${sql} = trunc(${sql}) AND abs(${sql}) < 1e15 THEN CAST(CAST(${sql} AS BIGINT) AS VARCHAR) ELSE CAST(${sql} AS VARCHAR) END`;
}
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

/**
 * SQL of Excel's serial day number of a TIMESTAMP as text (days since 1899-12-30 and the fraction
 * of the day), null where a sheet cannot show the date: before 1900 or after 9999. Excel counts a
 * 1900-02-29 that never was, so days before 1900-03-01 are one less (as Excel and readers expect).
 */
function excelSerial(timestamp: string): string {
  const days = `(epoch_us(${timestamp}) / 86400000000 + 25569)`;
  return `CASE WHEN ${timestamp} >= TIMESTAMP '1900-03-01' AND year(${timestamp}) <= 9999 THEN ${doubleText(days)} WHEN ${timestamp} >= TIMESTAMP '1900-01-01' AND ${timestamp} < TIMESTAMP '1900-03-01' THEN ${doubleText(`${days} - 1`)} END`;
}

/** SQL of one cell element (an empty `<c r=".."/>` for null). */
function cellXml(column: OutputColumn, index: number, separator: string): string {
  const typed = typedCell(column, separator);
  const [kind, sql] = [typed.kind, cellSql(typed.cell)];
  const ref = `r="${columnLetters(index)}' || chr(1) || '"`;
  const inline = (xmlSql: string): string =>
    `'<c ${ref} t="inlineStr"><is><t xml:space="preserve">' || ${xmlSql} || '</t></is></c>'`;
  // A date out of a sheet's range stays its ISO text.
  const dated = (timestamp: string, style: number): string =>
    `coalesce('<c ${ref} s="${style}"><v>' || ${excelSerial(timestamp)} || '</v></c>', ${inline(sql)})`;
  // The wall-clock time of the request's time zone: the text without its offset.
  const wallClock = `TRY_CAST(regexp_replace(${sql}, '([+-][0-9][0-9]:?[0-9][0-9]|Z)$', '') AS TIMESTAMP)`;
  const forms: Record<CellKind, string> = {
    int: `'<c ${ref}><v>' || ${sql} || '</v></c>'`,
    double: `CASE WHEN isfinite(${sql}) THEN '<c ${ref}><v>' || ${doubleText(sql)} || '</v></c>' ELSE ${inline(`CAST(${sql} AS VARCHAR)`)} END`,
    bool: `'<c ${ref} t="b"><v>' || CAST(${sql} AS INTEGER) || '</v></c>'`,
    date: dated(`TRY_CAST(${sql} AS TIMESTAMP)`, DATE_STYLE),
    datetime: dated(wallClock, DATETIME_STYLE),
    text: inline(xmlEscaped(sql)),
    list: inline(xmlEscaped(`array_to_string(${sql}, '${separator.replaceAll("'", "''")}')`)),
  };
  return `coalesce(${forms[kind]}, '<c ${ref}/>')`;
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
  const sql = `SELECT ${cells.join(' || ') || "''"} FROM (${context.query.sql})`;
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
