// Values as publishers write them, from public files where one exists: codes kept as text (postcodes
// with leading zeros, phone prefixes with a +), one column holding "lat,lon" made a point, TopoJSON.
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ingest } from '../../src/ingest/ingest.js';
import { expectError } from './csv.test.js';
import { quoteString } from '../../src/sql/quoting.js';
import {
  dataPath,
  expectStorageMatchesSchema,
  fieldTypes,
  fixture,
  query,
  readDatasetFile,
  readRows,
  useTempPortal,
  VEGA_DATA,
} from './helpers.js';

const WORLD_ATLAS = path.resolve('node_modules/world-atlas');

/** The first `count` records of a vega-datasets CSV (header included), as text. */
async function vegaHead(name: string, count: number): Promise<string[]> {
  const lines = (await readFile(path.join(VEGA_DATA, name), 'utf8')).split('\n');
  return lines.slice(0, count + 1);
}

describe('ingest: values', () => {
  const temp = useTempPortal();

  it('keeps postcodes with leading zeros as text (vega zipcodes.csv)', async () => {
    const file = await fixture(
      temp.dir,
      'zipcodes.csv',
      `${(await vegaHead('zipcodes.csv', 200)).join('\n')}\n`,
    );
    await ingest({ file, portal: temp.portal, id: 'zips' });
    expect(await fieldTypes(temp.portal, 'zips')).to.include({ zip_code: 'text', latitude: 'double' });
    const rows = await readRows(temp.portal, 'zips', 'zip_code');
    expect(rows.slice(0, 2)).to.deep.equal([{ zip_code: '00501' }, { zip_code: '00544' }]);
  });

  it('keeps phone prefixes written with a + as text, and signed numbers as numbers', async () => {
    const file = await fixture(
      temp.dir,
      'prefixes.csv',
      'country,prefix,change\nCameroon,+237,+2\nFrance,+33,-1\nUnited States,+1,0\nEgypt,+20,+12\n',
    );
    await ingest({ file, portal: temp.portal, id: 'prefixes' });
    expect(await fieldTypes(temp.portal, 'prefixes')).to.deep.equal({
      country: 'text',
      prefix: 'text',
      change: 'int',
    });
    expect(await readRows(temp.portal, 'prefixes', 'prefix, change')).to.deep.equal([
      { prefix: '+237', change: '2' },
      { prefix: '+33', change: '-1' },
      { prefix: '+1', change: '0' },
      { prefix: '+20', change: '12' },
    ]);
  });

  /** Vega's airports with latitude and longitude joined into one column as `spell` writes them. */
  async function airportsWithPairs(spell: (lat: string, lon: string) => string): Promise<string> {
    const [, ...rows] = await vegaHead('airports.csv', 20);
    const lines = rows.map((row) => {
      const cells = row.split(',');
      return `${cells[0]},"${spell(cells[5]!, cells[6]!)}"`;
    });
    return fixture(temp.dir, 'airports.csv', `iata,position\n${lines.join('\n')}\nXXX,somewhere\n`);
  }

  const SPELLINGS: Record<string, (lat: string, lon: string) => string> = {
    'lat,lon': (lat, lon) => `${lat},${lon}`,
    'lat, lon': (lat, lon) => `${lat}, ${lon}`,
    '[lat, lon]': (lat, lon) => `[${lat}, ${lon}]`,
  };
  for (const [spelling, spell] of Object.entries(SPELLINGS)) {
    it(`makes one column of "${spelling}" a point with --geo-point FIELD (vega airports.csv)`, async () => {
      const file = await airportsWithPairs(spell);
      const report = await ingest({
        file,
        portal: temp.portal,
        id: 'airports',
        geoPoint: { field: 'Position' },
      });
      expect(await fieldTypes(temp.portal, 'airports')).to.deep.equal({
        iata: 'text',
        position: 'geo_point_2d',
      });
      const rows = await readRows(temp.portal, 'airports', 'iata, position');
      expect(rows[0]).to.deep.equal({ iata: '00M', position: { lon: -89.23450472, lat: 31.95376472 } });
      expect(rows[20]).to.deep.equal({ iata: 'XXX', position: null });
      expect(report.summary).to.deep.equal([
        'position: 1 record without a point (latitude, longitude off the globe or not numbers): "somewhere" (line 22)',
      ]);
      const dataset = await readDatasetFile(temp.portal, 'airports');
      expect(dataset.computed.geo_point_from).to.deep.equal({ field: 'position' });
      expect(dataset.computed.geometry_types).to.deep.equal(['Point']);
      await expectStorageMatchesSchema(temp.portal, 'airports');
      // The next ingest, without the flag, makes the same field a point again.
      await ingest({ file, portal: temp.portal, id: 'airports' });
      expect((await fieldTypes(temp.portal, 'airports')).position).to.equal('geo_point_2d');
    });
  }

  it('makes a column named like a point (geo_point_2d, as exports write it) a point by itself', async () => {
    const file = await fixture(
      temp.dir,
      'export.csv',
      'name;geo_point_2d\nParis;48.8566, 2.3522\nLyon;45.764, 4.8357\nUnknown;\n',
    );
    await ingest({ file, portal: temp.portal, id: 'towns' });
    expect(await fieldTypes(temp.portal, 'towns')).to.deep.equal({
      name: 'text',
      geo_point_2d: 'geo_point_2d',
    });
    expect((await readDatasetFile(temp.portal, 'towns')).computed.geo_point_from).to.equal(null);
    // Text that is no pair is left alone.
    const words = await fixture(temp.dir, 'words.csv', 'name,coordinates\nParis,see the map\nLyon,north\n');
    await ingest({ file: words, portal: temp.portal, id: 'words' });
    expect(await fieldTypes(temp.portal, 'words')).to.deep.equal({ name: 'text', coordinates: 'text' });
  });

  it('refuses --geo-point FIELD on a field that is not text, or that does not exist', async () => {
    const file = await fixture(temp.dir, 'n.csv', 'name,size\nParis,3\n');
    await expectError(
      ingest({ file, portal: temp.portal, id: 'n', geoPoint: { field: 'size' } }),
      /--geo-point: field "size" is int, not text holding "lat,lon"/,
    );
    await expectError(
      ingest({ file, portal: temp.portal, id: 'n', geoPoint: { field: 'where' } }),
      /--geo-point: no field "where" \(fields: name, size\)/,
    );
  });

  it("converts TopoJSON to its objects' features (world-atlas countries-110m.json)", async () => {
    const file = path.join(WORLD_ATLAS, 'countries-110m.json');
    const report = await ingest({ file, portal: temp.portal, id: 'countries' });
    expect(report.format).to.equal('topojson');
    // 177 countries and the one land geometry: two objects, each record naming its own.
    expect(report.recordsCount).to.equal(178);
    expect(await fieldTypes(temp.portal, 'countries')).to.deep.equal({
      id: 'text',
      name: 'text',
      topojson_object: 'text',
      geo_point_2d: 'geo_point_2d',
      geo_shape: 'geo_shape',
    });
    const france = await query(
      `SELECT id, topojson_object, json_extract_string(geo_shape, '$.type') AS type
       FROM read_parquet(${quoteString(dataPath(temp.portal, 'countries'))}) WHERE name = 'France'`,
    );
    expect(france).to.deep.equal([{ id: '250', topojson_object: 'countries', type: 'MultiPolygon' }]);
    const dataset = await readDatasetFile(temp.portal, 'countries');
    expect(dataset.computed.geometry_types).to.include('MultiPolygon');
    await expectStorageMatchesSchema(temp.portal, 'countries');
  });

  it('reads a topology with one object without naming it, and refuses one that is not a topology', async () => {
    const land = path.join(WORLD_ATLAS, 'land-110m.json');
    const report = await ingest({ file: land, portal: temp.portal, id: 'land' });
    expect([report.format, report.recordsCount]).to.deep.equal(['topojson', 1]);
    expect(await fieldTypes(temp.portal, 'land')).to.deep.equal({
      geo_point_2d: 'geo_point_2d',
      geo_shape: 'geo_shape',
    });
    const bad = await fixture(temp.dir, 'bad.topojson', '{"type": "Topology",\n "objects": {}, "arcs": [\n}');
    await expectError(
      ingest({ file: bad, portal: temp.portal, id: 'bad' }),
      /bad\.topojson: line 3, column 1: invalid JSON/,
    );
    const other = await fixture(temp.dir, 'other.topojson', '{"type": "FeatureCollection", "features": []}');
    await expectError(
      ingest({ file: other, portal: temp.portal, id: 'bad' }),
      /other\.topojson: not a TopoJSON Topology \(no "type": "Topology" with "objects"\)$/,
    );
  });
});
