// Excel workbooks: the first sheet (or --sheet), dates and numbers kept as such, odd cells and bad workbooks.
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { ingest } from '../../src/ingest/ingest.js';
import { expectError } from './csv.test.js';
import { expectStorageMatchesSchema, fieldTypes, fixture, readRows, useTempPortal } from './helpers.js';

/** A workbook of two sheets: "Stations" typed cells (dates, datetimes, numbers, formulas, rich text), "Notes" text. */
async function workbook(file: string): Promise<void> {
  const book = new ExcelJS.Workbook();
  const stations = book.addWorksheet('Stations');
  stations.addRow(['Station', 'Opened', 'Last reading', 'Depth (m)', 'Staffed', 'Readings', 'Remark']);
  stations.addRow([
    'Brest',
    new Date(Date.UTC(1998, 5, 12)),
    new Date(Date.UTC(2024, 0, 31, 13, 5, 30)),
    12.5,
    true,
    { formula: '2*21', result: 42 },
    { richText: [{ text: 'tidal ' }, { font: { bold: true }, text: '"gauge"' }] },
  ]);
  stations.addRow([]);
  stations.addRow(['Sète', new Date(Date.UTC(2003, 0, 2)), null, 3, false, 7, 'NA']);
  stations.getColumn(2).numFmt = 'dd/mm/yyyy';
  stations.getColumn(3).numFmt = 'dd/mm/yyyy hh:mm:ss';
  book.addWorksheet('Notes').addRows([['Note'], ['first'], ['second']]);
  await book.xlsx.writeFile(file);
}

/** A message that starts with `text`, as written. */
const startingWith = (text: string): RegExp => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

describe('ingest: Excel workbooks', () => {
  const temp = useTempPortal();

  it('reads the first sheet with dates, datetimes, numbers and booleans kept as such', async () => {
    const file = path.join(temp.dir, 'stations.xlsx');
    await workbook(file);
    const report = await ingest({ file, portal: temp.portal, id: 'stations' });
    expect([report.format, report.recordsCount]).to.deep.equal(['xlsx', 2]);
    expect(await fieldTypes(temp.portal, 'stations')).to.deep.equal({
      station: 'text',
      opened: 'date',
      last_reading: 'datetime',
      depth_m: 'double',
      staffed: 'boolean',
      readings: 'int',
      remark: 'text',
    });
    const rows = await readRows(
      temp.portal,
      'stations',
      "station, CAST(opened AS VARCHAR) AS opened, strftime(last_reading, '%Y-%m-%dT%H:%M:%S') AS last_reading, depth_m, staffed, readings, remark",
    );
    expect(rows).to.deep.equal([
      {
        station: 'Brest',
        opened: '1998-06-12',
        last_reading: '2024-01-31T13:05:30',
        depth_m: 12.5,
        staffed: true,
        readings: '42',
        remark: 'tidal "gauge"',
      },
      {
        station: 'Sète',
        opened: '2003-01-02',
        last_reading: null,
        depth_m: 3,
        staffed: false,
        readings: '7',
        remark: 'NA',
      },
    ]);
    await expectStorageMatchesSchema(temp.portal, 'stations');
  });

  it('reads the sheet --sheet names, and names the sheets when it does not exist', async () => {
    const file = path.join(temp.dir, 'stations.xlsx');
    await workbook(file);
    await ingest({ file, portal: temp.portal, id: 'notes', sheet: 'Notes' });
    expect(await readRows(temp.portal, 'notes', 'note')).to.deep.equal([
      { note: 'first' },
      { note: 'second' },
    ]);
    await expectError(
      ingest({ file, portal: temp.portal, id: 'nope', sheet: 'Readings' }),
      startingWith(`${file}: no sheet named "Readings" (sheets: Stations, Notes)`),
    );
  });

  it('refuses a file that is not a workbook, naming it, and leaves no dataset', async () => {
    const file = await fixture(temp.dir, 'fake.xlsx', 'name,value\na,1\n');
    await expectError(
      ingest({ file, portal: temp.portal, id: 'fake' }),
      startingWith(`${file}: not a readable .xlsx workbook`),
    );
    expect(existsSync(path.join(temp.portal, 'datasets', 'fake'))).to.equal(false);
  });
});
