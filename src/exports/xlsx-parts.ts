// The fixed parts of an XLSX workbook around its one streamed sheet: content types, relations,
// the workbook, and the styles that make date cells dates.
import { xmlText } from './sql-cells.js';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELATIONS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const SHEET_ML = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

/** Cell style indexes (`s="…"`) of styles.xml's cellXfs: a date, a date and time of day. */
export const DATE_STYLE = 1;
export const DATETIME_STYLE = 2;

/** ISO-like formats (numFmt 14 and 22 are the reader's locale's): a date cell shows 2024-01-31. */
const STYLES =
  `${XML_HEAD}<styleSheet xmlns="${MAIN}">` +
  '<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/><numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>' +
  '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';

/** Every part but the sheet (xl/worksheets/sheet1.xml), by path in the zip. */
export function workbookParts(sheetName: string): Record<string, string> {
  const name = xmlText(sheetName.slice(0, 31).replace(/[\\/?*[\]:]/g, '_'));
  return {
    '[Content_Types].xml':
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/xl/workbook.xml" ContentType="${SHEET_ML}.sheet.main+xml"/>` +
      `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${SHEET_ML}.worksheet+xml"/>` +
      `<Override PartName="/xl/styles.xml" ContentType="${SHEET_ML}.styles+xml"/></Types>`,
    '_rels/.rels':
      `${XML_HEAD}<Relationships xmlns="${PACKAGE_RELATIONS}">` +
      `<Relationship Id="rId1" Type="${RELATIONS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/_rels/workbook.xml.rels':
      `${XML_HEAD}<Relationships xmlns="${PACKAGE_RELATIONS}">` +
      `<Relationship Id="rId1" Type="${RELATIONS}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${RELATIONS}/styles" Target="styles.xml"/></Relationships>`,
    'xl/workbook.xml':
      `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${RELATIONS}">` +
      `<sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/styles.xml': STYLES,
  };
}
