// Sheets as people lay them out: title and note rows above the header, several header rows with
// cells merged across, a totals row at the end, sheet names written by other tools than Excel.
import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { ingest } from '../../src/ingest/ingest.js';
import { joinHeaderRows, totalsReason } from '../../src/ingest/sheet-header.js';
import { expectError } from './csv.test.js';
import { fieldTypes, readDatasetFile, readRows, useTempPortal } from './helpers.js';

/** A sheet "cities" the way statistics offices publish it: a title, a blank row, a note, the table, a total. */
async function citiesWorkbook(file: string): Promise<void> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('cities');
  sheet.addRow(['Population of the largest French cities']);
  sheet.addRow([]);
  sheet.addRow(['Source: INSEE, 2021 census']);
  sheet.addRow(['City', 'Department', 'Population']);
  sheet.addRow(['Paris', '75', 2133111]);
  sheet.addRow(['Marseille', '13', 873076]);
  sheet.addRow(['Bourg-en-Bresse', '01', 41365]);
  sheet.addRow(['Total', null, 3047552]);
  await book.xlsx.writeFile(file);
}

/**
 * Rewrites a workbook's relationships as openpyxl (so pandas) writes them, with absolute targets
 * (`/xl/worksheets/sheet1.xml`): exceljs's reader then called every sheet `Sheet1`.
 */
async function withAbsoluteTargets(file: string): Promise<void> {
  const zip = await JSZip.loadAsync(await readFile(file));
  const rels = await zip.file('xl/_rels/workbook.xml.rels')!.async('string');
  zip.file('xl/_rels/workbook.xml.rels', rels.replaceAll('Target="worksheets/', 'Target="/xl/worksheets/'));
  // Deflated as every spreadsheet program writes them (exceljs's stream reader, through unzipper
  // 0.10, now and then loses the last of stored entries: a flaky test, not the case at hand).
  await writeFile(file, await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
}

describe('ingest: tables in sheets', () => {
  const temp = useTempPortal();

  it('finds the header below a title, a blank row and a note, and reports the totals row', async () => {
    const file = path.join(temp.dir, 'cities.xlsx');
    await citiesWorkbook(file);
    const report = await ingest({ file, portal: temp.portal, id: 'cities' });
    expect(await fieldTypes(temp.portal, 'cities')).to.deep.equal({
      city: 'text',
      department: 'text',
      population: 'int',
    });
    expect(report.recordsCount).to.equal(4);
    expect((await readRows(temp.portal, 'cities', 'city'))[0]).to.deep.equal({ city: 'Paris' });
    expect(report.summary).to.deep.equal([
      'row 8 of the sheet looks like a totals row (its first cell says "Total"): it is a record, counted twice in sums',
    ]);
    await expectError(ingest({ file, portal: temp.portal, id: 'strict', strict: true }), /--strict/);
  });

  it('takes the header where --header-row or --skip-rows says', async () => {
    const file = path.join(temp.dir, 'cities.xlsx');
    await citiesWorkbook(file);
    await ingest({ file, portal: temp.portal, id: 'noted', headerRow: 3 });
    expect(Object.keys(await fieldTypes(temp.portal, 'noted'))).to.deep.equal([
      'source_insee_2021_census',
      'field',
      'field_2',
    ]);
    await ingest({ file, portal: temp.portal, id: 'skipped', skipRows: 3 });
    expect(Object.keys(await fieldTypes(temp.portal, 'skipped'))).to.deep.equal([
      'city',
      'department',
      'population',
    ]);
    await expectError(
      ingest({ file, portal: temp.portal, id: 'none', headerRow: 2 }),
      /--header-row: row 2 of the sheet is empty or absent/,
    );
  });

  it('joins two header rows, a label merged across columns repeated over each ("2019 / Q1")', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Sales');
    sheet.addRow(['Region', '2019', null, '2020', null]);
    sheet.addRow(['Region', 'Q1', 'Q2', 'Q1', 'Q2']);
    sheet.addRow(['North', 10, 12, 11, 15]);
    sheet.addRow(['South', 7, 8, 9, 4]);
    sheet.mergeCells('B1:C1');
    sheet.mergeCells('D1:E1');
    const file = path.join(temp.dir, 'sales.xlsx');
    await book.xlsx.writeFile(file);
    await ingest({ file, portal: temp.portal, id: 'sales', headerRows: 2 });
    const fields = (await readDatasetFile(temp.portal, 'sales')).fields;
    expect(fields.map((f) => [f.name, f.label, f.type])).to.deep.equal([
      ['region', 'Region', 'text'],
      ['field_2019_q1', '2019 / Q1', 'int'],
      ['field_2019_q2', '2019 / Q2', 'int'],
      ['field_2020_q1', '2020 / Q1', 'int'],
      ['field_2020_q2', '2020 / Q2', 'int'],
    ]);
  });

  it('reads a sheet named cities by its name in a workbook written with absolute part names (openpyxl, pandas)', async () => {
    const file = path.join(temp.dir, 'pandas.xlsx');
    await citiesWorkbook(file);
    await withAbsoluteTargets(file);
    for (const sheet of ['cities', 'CITIES']) {
      const report = await ingest({ file, portal: temp.portal, id: 'cities', sheet });
      expect(report.recordsCount).to.equal(4);
    }
    await expectError(
      ingest({ file, portal: temp.portal, id: 'towns', sheet: 'towns' }),
      /pandas\.xlsx: no sheet named "towns" \(sheets: cities\)$/,
    );
  });

  it('tells a totals row by its word or by its sums, and joins header rows', () => {
    expect(totalsReason(['Totaux', '', '12'], [null, null, 12])).to.equal('its first cell says "Totaux"');
    expect(totalsReason(['', '5', '12'], [null, 5, 12])).to.match(/sum of its column/);
    expect(totalsReason(['', '5', '13'], [null, 5, 12])).to.equal(null);
    expect(totalsReason(['Lyon', '5', '12'], [null, 5, 12])).to.equal(null);
    const rows = [
      { number: 1, cells: ['', 'Summe', ''] },
      { number: 2, cells: ['Land', '2019', '2020'] },
    ];
    expect(joinHeaderRows(rows, 3)).to.deep.equal(['Land', 'Summe / 2019', 'Summe / 2020']);
  });
});
