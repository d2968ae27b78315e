// A refresh ingests new bytes with the flags the dataset was first ingested with (recorded in
// dataset.json's source): a sheet named by --sheet whose header --header-row gives (its title
// rows would otherwise be taken for one), --null, --sort-by, --geo-point, --no-auto-facets, --strict.
import { expect } from 'chai';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { runCli } from '../cli/run-cli.js';
import { cleanup, readDatasetFile, readRows, tempDir, useHttpServer } from './helpers.js';

/**
 * A workbook whose sheet "towns" opens with two title rows of two labels each over a table of
 * four columns: found by itself, the first title row would be the header.
 */
async function townsWorkbook(towns: readonly (readonly [string, number | string, number, number])[]) {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('notes').addRow(['Read me first', 'then the towns sheet']);
  const sheet = book.addWorksheet('Towns');
  sheet.addRow(['Towns of the valley', 'census 2021']);
  sheet.addRow(['Source', 'the valley office']);
  sheet.addRow(['Town', 'Population', 'Lat', 'Lon']);
  for (const town of towns) sheet.addRow([...town]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('refresh: the flags of the first ingest passed again', () => {
  const source = { body: Buffer.alloc(0), etag: '"1"' };
  const http = useHttpServer((request, response) => {
    if (request.headers['if-none-match'] === source.etag) response.writeHead(304).end();
    else response.writeHead(200, { ETag: source.etag }).end(source.body);
  });
  after(cleanup);

  it('a refreshed sheet keeps its header row, sheet, null token, sort, geo point and no facets', async () => {
    source.body = await townsWorkbook([
      ['Upton', 1200, 45.1, 5.2],
      ['Ashby', '?', 45.3, 5.1],
    ]);
    const portal = path.join(await tempDir('duckportal-refresh-flags-'), 'portal');
    const flags = ['--sheet', 'towns', '--header-row', '3', '--null', '?', '--sort-by', 'population'];
    const more = ['--geo-point', 'lat,lon', '--no-auto-facets', '--strict', '--refresh', '1d', '-q'];
    const url = `${http.base}/towns.xlsx`;
    const ingested = await runCli(['ingest', url, '--portal', portal, '--id', 'towns', ...flags, ...more]);
    expect(ingested).to.include({ code: 0 });
    const first = await readDatasetFile(portal, 'towns');
    expect(first.source).to.include({ sheet: 'towns', header_row: 3, skip_rows: null, auto_facets: false });
    expect(first.source).to.deep.include({
      null_tokens: ['?'],
      sort_by: ['population'],
      geo_point: { lat: 'lat', lon: 'lon' },
      strict: true,
    });

    Object.assign(source, {
      etag: '"2"',
      body: await townsWorkbook([
        ['Upton', 1250, 45.1, 5.2],
        ['Ashby', '?', 45.3, 5.1],
        ['Carfax', 300, 45.2, 5.3],
      ]),
    });
    const ran = await runCli(['refresh', '--portal', portal, '--all', '--no-reload']);
    expect(ran.stdout).to.match(/^towns: new version, 3 records/);
    const after = await readDatasetFile(portal, 'towns');
    expect(after.fields.map((f) => [f.name, f.type])).to.deep.equal([
      ['town', 'text'],
      ['population', 'int'],
      ['lat', 'double'],
      ['lon', 'double'],
      ['geo_point_2d', 'geo_point_2d'],
    ]);
    expect(after.fields.filter((f) => f.annotations.facet !== undefined)).to.deep.equal([]);
    expect(after.computed).to.deep.include({ sort_by: ['population'], auto_facets: [] });
    expect(after.source).to.deep.equal({ ...first.source, etag: '"2"', sha256: after.source!.sha256 });
    expect(await readRows(portal, 'towns', 'town, population::INT AS population')).to.deep.equal([
      { town: 'Carfax', population: 300 },
      { town: 'Upton', population: 1250 },
      { town: 'Ashby', population: null },
    ]);

    // --strict passed again: a point off the globe fails, the version served kept.
    Object.assign(source, { etag: '"3"', body: await townsWorkbook([['Upton', 1250, 95, 5.2]]) });
    const strict = await runCli(['refresh', '--portal', portal, '--all', '--no-reload']);
    expect(strict.code).to.equal(1);
    expect(strict.stdout).to.match(/^towns: failed, the version served is kept: .*--strict/);
    expect((await readDatasetFile(portal, 'towns')).computed).to.deep.equal(after.computed);
  });
});
