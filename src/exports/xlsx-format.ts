// XLSX: the sheet's rows formatted as SpreadsheetML by DuckDB (inline strings, numbers, booleans),
// streamed into a zip with the few fixed parts a workbook needs.
import type { Readable } from 'node:stream';
import type { DuckDBDataChunk } from '@duckdb/node-api';
import yazl from 'yazl';
import type { OutputColumn } from '../odsql/index.js';
import type { ExportContext, Exporter } from './export-context.js';
import { streamQuery } from './query-stream.js';
import { typedCell, xmlEscaped, xmlText } from './sql-cells.js';

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

/** SQL of one cell element (an empty `<c r=".."/>` for null). */
function cellXml(column: OutputColumn, index: number, separator: string): string {
  const { kind, sql } = typedCell(column, separator);
  const ref = `r="${columnLetters(index)}' || chr(1) || '"`;
  const inline = (xmlSql: string): string =>
    `'<c ${ref} t="inlineStr"><is><t xml:space="preserve">' || ${xmlSql} || '</t></is></c>'`;
  const forms: Record<string, string> = {
    int: `'<c ${ref}><v>' || ${sql} || '</v></c>'`,
    double: `CASE WHEN isfinite(${sql}) THEN '<c ${ref}><v>' || ${sql} || '</v></c>' ELSE ${inline(`CAST(${sql} AS VARCHAR)`)} END`,
    bool: `'<c ${ref} t="b"><v>' || CAST(${sql} AS INTEGER) || '</v></c>'`,
    text: inline(xmlEscaped(sql)),
    list: inline(xmlEscaped(`array_to_string(${sql}, '${separator.replaceAll("'", "''")}')`)),
  };
  return `coalesce(${forms[kind]}, '<c ${ref}/>')`;
}

const PARTS: Record<string, string> = {
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
  '_rels/.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  'xl/_rels/workbook.xml.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
};

const workbook = (sheetName: string): string =>
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
  `<sheets><sheet name="${xmlText(sheetName.slice(0, 31).replace(/[\\/?*[\]:]/g, '_'))}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

/** The workbook: a header row of names (or labels), then one row per record. */
async function writeXlsx(context: ExportContext): Promise<Readable> {
  const header = context.columns
    .map(
      (c, i) =>
        `<c r="${columnLetters(i)}1" t="inlineStr"><is><t>${xmlText(context.options.headers.get(c.key) ?? c.key)}</t></is></c>`,
    )
    .join('');
  const cells = context.columns.map((c, i) => cellXml(c, i, context.options.listSeparator));
  const sql = `SELECT ${cells.join(' || ') || "''"} FROM (${context.sql})`;
  const head =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
    `<row r="1">${header}</row>\n`;
  // Readers want row numbers; the cells of a row are in column order, which needs no reference.
  let row = 1;
  const encode = (chunk: DuckDBDataChunk): string =>
    (chunk.getColumnValues(0) as string[])
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
  for (const [name, text] of Object.entries(PARTS)) zip.addBuffer(Buffer.from(text), name);
  zip.addBuffer(Buffer.from(workbook(context.name)), 'xl/workbook.xml');
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
    output: 'json',
    geo: false,
    maxRows: XLSX_MAX_ROWS,
    write: writeXlsx,
  },
} satisfies Record<string, Exporter>;
