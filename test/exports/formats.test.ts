// Every dataset export format of the sample portal read back by a real reader: GDAL for the
// geometry formats, rapper for RDF, exceljs for XLSX, apache-arrow for Arrow; epsg, GPX options,
// refusals before the first byte.
import { expect } from 'chai';
import { rm } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import { tableFromIPC } from 'apache-arrow';
import ExcelJS from 'exceljs';
import { useSampleSuite } from '../helpers/sample-portal.js';
import { ogrFeatures, ogrSummary, rapperNTriples, rapperTriples, saved, tempFolder } from './readers.js';

const EXPORTS = '/api/explore/v2.1/catalog/datasets';

describe('exports in every format (sample portal, real readers)', () => {
  const suite = useSampleSuite();
  let dir: string;
  before(async () => {
    dir = await tempFolder();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** Downloads an export into `dir/name`; returns the file and the response. */
  const download = async (
    dataset: string,
    format: string,
    name: string,
    params: Record<string, string> = {},
  ) => {
    const response = await suite.server.get(
      `${EXPORTS}/${dataset}/exports/${format}?${new URLSearchParams(params)}`,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status, bytes.subarray(0, 300).toString()).to.equal(200);
    return { response, bytes, file: await saved(dir, name, bytes) };
  };

  describe('geometry formats read by GDAL', () => {
    for (const [format, name] of [
      ['geojson', 'airports.geojson'],
      ['kml', 'airports.kml'],
      ['fgb', 'airports.fgb'],
    ] as const) {
      it(`${format}: all 3,376 airports, SFO at its coordinates`, async () => {
        const { file } = await download('airports', format, name);
        expect((await ogrSummary(file)).count).to.equal(3376);
        const sfo = await ogrFeatures(file, "iata = 'SFO'");
        expect(sfo).to.include('POINT (-122.3748433 37.61900194)');
        expect(sfo).to.include('San Francisco International');
      });
    }

    it('geojson: properties keyed by name, or by label with use_labels, even labels differing only in case', async () => {
      const feature = async (params: Record<string, string>) => {
        const { bytes } = await download('airports', 'geojson', 'keys.geojson', {
          where: "iata = 'SFO'",
          ...params,
        });
        const collection = JSON.parse(bytes.toString('utf8')) as { features: { properties: object }[] };
        expect(collection.features).to.have.length(1);
        return collection.features[0]!.properties;
      };
      expect(await feature({ select: 'iata, latitude, geo_point_2d' })).to.deep.equal({
        iata: 'SFO',
        latitude: 37.61900194,
      });
      expect(await feature({ select: 'iata, geo_point_2d', use_labels: 'true' })).to.deep.equal({
        'IATA/FAA code': 'SFO',
      });
      // Labels that differ only in case from another key still make two properties.
      expect(
        await feature({ select: 'name, iata as AIRPORT, geo_point_2d', use_labels: 'true' }),
      ).to.deep.equal({ Airport: 'San Francisco International', AIRPORT: 'SFO' });
    });

    it('gpx: waypoints named by name_field, attributes as extensions', async () => {
      const { file } = await download('airports', 'gpx', 'airports.gpx', {
        select: 'iata, city, state, geo_point_2d',
        name_field: 'iata',
        description_field_list: 'city,state',
      });
      expect((await ogrSummary(file, 'waypoints')).count).to.equal(3376);
      const sfo = await ogrFeatures(file, "name = 'SFO'", 'waypoints');
      expect(sfo).to.include('POINT (-122.3748433 37.61900194)');
      expect(sfo).to.match(/desc \(String\) = city: San Francisco\s+state: CA/);
      const text = await readFile(file, 'utf8');
      expect(text).to.include('<extensions><iata>SFO</iata><city>San Francisco</city><state>CA</state>');
    });

    it('gpx with use_extension=false puts every attribute in the description', async () => {
      const { bytes } = await download('airports', 'gpx', 'airports-desc.gpx', {
        use_extension: 'false',
        where: "iata = 'SFO'",
      });
      const text = bytes.toString('utf8');
      expect(text).not.to.include('<extensions>');
      expect(text).to.include('<desc>iata: SFO&#10;name: San Francisco International');
    });

    it('shp: a zip of shp/shx/dbf/prj/cpg that GDAL opens, with the attributes', async () => {
      const { response, file } = await download('airports', 'shp', 'airports.zip');
      expect(response.headers.get('content-disposition')).to.equal('attachment; filename="airports.zip"');
      const summary = await ogrSummary(`/vsizip/${file}/airports.shp`);
      expect(summary.count).to.equal(3376);
      expect(summary.geometry).to.equal('Point');
      expect(summary.text).to.include('WGS 84');
      const sfo = await ogrFeatures(`/vsizip/${file}/airports.shp`, "iata = 'SFO'");
      expect(sfo).to.include('POINT (-122.3748433 37.61900194)');
      expect(sfo).to.include('city (String) = San Francisco');
    });

    it('earthquakes: shapes (with heights) in geojson, shp and fgb', async () => {
      for (const [format, name, path] of [
        ['geojson', 'quakes.geojson', 'quakes.geojson'],
        ['fgb', 'quakes.fgb', 'quakes.fgb'],
        ['shp', 'quakes.zip', '/vsizip/{dir}/quakes.zip/earthquakes.shp'],
      ] as const) {
        await download('earthquakes', format, name);
        const file = path.startsWith('/vsizip') ? path.replace('{dir}', dir) : `${dir}/${path}`;
        expect((await ogrSummary(file)).count, format).to.equal(1707);
      }
    });

    it('ov2: one 13-byte + name record per airport, coordinates in 1e-5 degrees', async () => {
      const { bytes } = await download('airports', 'ov2', 'airports.ov2', { name_field: 'iata' });
      let records = 0;
      let sfo: number[] | null = null;
      for (let at = 0; at < bytes.length; at += bytes.readInt32LE(at + 1)) {
        expect(bytes[at]).to.equal(2);
        const end = bytes.indexOf(0, at + 13);
        if (bytes.toString('utf8', at + 13, end) === 'SFO')
          sfo = [bytes.readInt32LE(at + 5), bytes.readInt32LE(at + 9)];
        records++;
      }
      expect(records).to.equal(3376);
      expect(sfo).to.deep.equal([-12237484, 3761900]);
    });

    it('reprojects with epsg: Web Mercator and Lambert-93 coordinates', async () => {
      const { file } = await download('airports', 'geojson', 'mercator.geojson', {
        epsg: '3857',
        where: "iata = 'SFO'",
      });
      const [x, y] = JSON.parse(await readFile(file, 'utf8')).features[0].geometry.coordinates;
      // Spherical Mercator by its formula, independently of proj4.
      const radius = 6378137;
      const [lon, lat] = [(-122.3748433 * Math.PI) / 180, (37.61900194 * Math.PI) / 180];
      expect(x).to.be.closeTo(radius * lon, 0.01);
      expect(y).to.be.closeTo(radius * Math.log(Math.tan(Math.PI / 4 + lat / 2)), 0.01);
      const lambert = await download('airports', 'shp', 'lambert.zip', {
        epsg: '2154',
        where: "iata = 'JFK'",
      });
      const summary = await ogrSummary(`/vsizip/${lambert.file}/airports.shp`);
      expect(summary.text).to.include('Lambert-93');
      expect(summary.count).to.equal(1);
    });

    it('refuses geometry formats for a dataset without a geo field, and unknown EPSG codes', async () => {
      const flights = await suite.server.json(`${EXPORTS}/flights/exports/geojson`);
      expect(flights.status).to.equal(400);
      expect(flights.body.message).to.include('has no geo_point_2d or geo_shape field');
      const selected = await suite.server.json(`${EXPORTS}/airports/exports/kml?select=iata`);
      expect(selected.status).to.equal(400);
      const epsg = await suite.server.json(`${EXPORTS}/airports/exports/geojson?epsg=999999`);
      expect(epsg.status).to.equal(400);
      expect(epsg.body.message).to.include('999999');
    });
  });

  describe('RDF formats read by rapper', () => {
    it('turtle and n3: 10 triples per airport (its dataset + 9 fields)', async () => {
      for (const format of ['turtle', 'n3']) {
        const { file } = await download('airports', format, `airports.${format}.ttl`);
        expect(await rapperTriples(file, 'turtle')).to.equal(3376 * 10);
      }
    });

    it('rdfxml: typed literals, multivalued fields as repeated properties', async () => {
      const { file } = await download('movies', 'rdfxml', 'movies.rdf', { where: "title = 'Titanic'" });
      const triples = await rapperNTriples(file, 'rdfxml');
      expect(triples).to.include('"Titanic"');
      expect(triples).to.match(
        /fields#release_date> "1997-12-19"\^\^<http:\/\/www.w3.org\/2001\/XMLSchema#date>/,
      );
      const genres = triples.split('\n').filter((t) => t.includes('fields#major_genre>'));
      expect(genres.length).to.be.greaterThan(0);
    });

    it('jsonld: @context maps every key to a property, @graph holds the rows', async () => {
      const { bytes } = await download('movies', 'jsonld', 'movies.jsonld');
      const document = JSON.parse(bytes.toString('utf8'));
      expect(document['@graph']).to.have.length(3201);
      expect(document['@context'].release_date['@type']).to.equal('http://www.w3.org/2001/XMLSchema#date');
      expect(document['@context'].title['@id']).to.match(/\/catalog\/datasets\/movies\/fields#title$/);
    });
  });

  describe('XLSX and Arrow', () => {
    it('xlsx: exceljs reads the header and typed cells', async () => {
      const { file } = await download('seattle-weather', 'xlsx', 'weather.xlsx', { use_labels: 'true' });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(file);
      const sheet = workbook.worksheets[0]!;
      expect(sheet.rowCount).to.equal(1462);
      const [reference] = await suite.reference.rows(
        `SELECT count(*)::INTEGER AS n, round(sum(precipitation), 4) AS rain FROM "seattle-weather"`,
      );
      let rain = 0;
      const header = sheet.getRow(1).values as string[];
      const column = header.findIndex((h) => typeof h === 'string' && /precipitation/i.test(h));
      expect(column).to.be.greaterThan(0);
      sheet.eachRow((row, n) => {
        if (n > 1) rain += Number(row.getCell(column).value ?? 0);
      });
      expect(Math.round(rain * 10000) / 10000).to.equal(reference!.rain);
    });

    it('xlsx refuses, before the first byte, more rows than a sheet holds', async () => {
      const { status, body } = await suite.server.json(`${EXPORTS}/flights/exports/xlsx`);
      expect(status).to.equal(400);
      expect(body.message).to.include('1048575');
    });

    it('xlsx counts the rows of the page asked for: limit and offset cut the count', async () => {
      const [counted] = await suite.reference.rows('SELECT count(*)::INTEGER AS n FROM flights');
      const flights = counted!.n as number;
      const over = 1_048_576;
      for (const query of [`limit=${over}`, `offset=${flights - over}`]) {
        const { status, body } = await suite.server.json(`${EXPORTS}/flights/exports/xlsx?${query}`);
        expect({ query, status }).to.deep.equal({ query, status: 400 });
        expect(body.message, query).to.include(`has ${over} rows`);
      }
      const { file } = await download('flights', 'xlsx', 'last.xlsx', {
        offset: String(flights - 3),
        limit: String(over),
      });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(file);
      expect(workbook.worksheets[0]!.rowCount).to.equal(4);
    });

    it('arrow: apache-arrow reads the stream, types and values', async () => {
      const { bytes } = await download('movies', 'arrow', 'movies.arrow');
      const table = tableFromIPC(bytes);
      expect(table.numRows).to.equal(3201);
      expect(String(table.schema.fields.find((f) => f.name === 'major_genre')!.type)).to.equal('List<Utf8>');
      const [reference] = await suite.reference.rows('SELECT sum(us_gross)::BIGINT AS gross FROM movies');
      const gross = table.getChild('us_gross')!.toArray() as BigInt64Array;
      expect(String(gross.reduce((a, b) => a + b, 0n))).to.equal(String(reference!.gross));
    });

    it('arrow: an empty export is still a stream with the schema', async () => {
      const { bytes } = await download('airports', 'arrow', 'none.arrow', { where: 'false' });
      const table = tableFromIPC(bytes);
      expect(table.numRows).to.equal(0);
      expect(table.schema.fields.map((f) => f.name)).to.include('iata');
    });
  });
});
