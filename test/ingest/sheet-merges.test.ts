// Merged cells of workbooks (built by exceljs as Excel writes them: `<mergeCells>` after the rows):
// a title merged across the table, a year over its quarters, a label merged down two header rows,
// a region down the rows of its towns; a blank upper header cell that is not merged stays blank.
import { expect } from 'chai';
import path from 'node:path';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { ingest } from '../../src/ingest/ingest.js';
import { MergeSpreader, noteMerges, type CellRange } from '../../src/ingest/sheet-merges.js';
import { readDatasetFile, readRows, useTempPortal } from './helpers.js';

/** A workbook of one sheet holding `rows`, the ranges `merged` merged. */
async function workbook(file: string, rows: unknown[][], merged: string[]): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('sales');
  for (const row of rows) sheet.addRow(row);
  for (const range of merged) sheet.mergeCells(range);
  await book.xlsx.writeFile(file);
  return file;
}

const labels = async (portal: string, id: string): Promise<string[][]> =>
  (await readDatasetFile(portal, id)).fields.map((f) => [f.name, f.label]);

describe('ingest: merged cells of a sheet', () => {
  const temp = useTempPortal();

  it('reads merges: a title across, a year over its quarters, labels down two rows, a region down its towns', async () => {
    const file = await workbook(
      path.join(temp.dir, 'sales.xlsx'),
      [
        ['Sales by quarter'],
        ['Region', 'Town', '2019', null, '2020', null],
        [null, null, 'Q1', 'Q2', 'Q1', 'Q2'],
        ['North', 'Upton', 10, 12, 11, 15],
        [null, 'Ashby', 7, 8, 9, 4],
        ['South', 'Carfax', 1, 2, 3, 4],
      ],
      ['A1:F1', 'A2:A3', 'B2:B3', 'C2:D2', 'E2:F2', 'A4:A5'],
    );
    const report = await ingest({ file, portal: temp.portal, id: 'sales', headerRows: 2 });
    expect(report.recordsCount).to.equal(3);
    expect(await labels(temp.portal, 'sales')).to.deep.equal([
      ['region', 'Region'],
      ['town', 'Town'],
      ['field_2019_q1', '2019 / Q1'],
      ['field_2019_q2', '2019 / Q2'],
      ['field_2020_q1', '2020 / Q1'],
      ['field_2020_q2', '2020 / Q2'],
    ]);
    expect(await readRows(temp.portal, 'sales', 'region, town')).to.deep.equal([
      { region: 'North', town: 'Upton' },
      { region: 'North', town: 'Ashby' },
      { region: 'South', town: 'Carfax' },
    ]);
  });

  it('gives a merged label to each column it covers; a blank cell not merged takes no label', async () => {
    const file = await workbook(
      path.join(temp.dir, 'towns.xlsx'),
      [
        ['Identity', null, 'Population', null],
        ['Name', 'Code', '2010', '2020'],
        ['Upton', '01', 1100, 1200],
        ['Ashby', '02', 700, 650],
      ],
      ['C1:D1'],
    );
    await ingest({ file, portal: temp.portal, id: 'two', headerRows: 2 });
    expect(await labels(temp.portal, 'two')).to.deep.equal([
      ['identity_name', 'Identity / Name'],
      ['code', 'Code'],
      ['population_2010', 'Population / 2010'],
      ['population_2020', 'Population / 2020'],
    ]);
    await ingest({ file, portal: temp.portal, id: 'one', headerRow: 1 });
    const one = await labels(temp.portal, 'one');
    expect(one.map(([, label]) => label)).to.deep.equal(['Identity', '', 'Population', 'Population']);
  });

  it('notes a mergeCell element split across two chunks, and spreads a range row by row', async () => {
    const merges: CellRange[] = [];
    const xml =
      '<sheetData/><mergeCells count="2"><mergeCell ref="B1:C1"/><mergeCell ref="AA10:AB12"/></mergeCells>';
    const chunks = [xml.slice(0, 50), xml.slice(50, 77), xml.slice(77)].map((text) => Buffer.from(text));
    const passed: unknown[] = [];
    for await (const chunk of noteMerges(Readable.from(chunks), merges)) passed.push(chunk);
    expect(passed).to.deep.equal(chunks);
    expect(merges).to.deep.equal([
      { top: 1, left: 2, bottom: 1, right: 3 },
      { top: 10, left: 27, bottom: 12, right: 28 },
    ]);
    const spreader = new MergeSpreader([{ top: 2, left: 1, bottom: 4, right: 1 }]);
    const rows = [
      { number: 2, cells: ['North', 'a'] },
      { number: 4, cells: ['', 'c'] },
      { number: 5, cells: ['', 'd'] },
    ].map((row) => spreader.spread(row));
    expect(rows.map((row) => [row.cells, [...(row.copies ?? [])]])).to.deep.equal([
      [['North', 'a'], []],
      [['North', 'c'], [0]],
      [['', 'd'], []],
    ]);
  });
});
