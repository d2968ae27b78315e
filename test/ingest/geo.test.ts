// Geo fields: coordinate pairs detected by name or given, GeoJSON shapes with centroids, and the computed extent.
import { expect } from 'chai';
import path from 'node:path';
import { ingest } from '../../src/ingest/ingest.js';
import { geoRowGroupRows } from '../../src/ingest/stored-data.js';
import { quoteString } from '../../src/sql/quoting.js';
import { expectError } from './csv.test.js';
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

describe('ingest: geo', () => {
  const temp = useTempPortal();

  const PAIRS: [string, string][] = [
    ['lat', 'lon'],
    ['Latitude', 'Longitude'],
    ['LAT', 'LNG'],
  ];
  for (const [lat, lon] of PAIRS) {
    it(`detects ${lat}/${lon} as a point, keeping both columns as doubles`, async () => {
      const file = await fixture(temp.dir, 'places.csv', `name,${lat},${lon}\nParis,48.85,2\nNowhere,,\n`);
      await ingest({ file, portal: temp.portal, id: 'places' });
      const latName = lat.toLowerCase();
      const lonName = lon.toLowerCase();
      expect(await fieldTypes(temp.portal, 'places')).to.deep.equal({
        name: 'text',
        [latName]: 'double',
        [lonName]: 'double',
        geo_point_2d: 'geo_point_2d',
      });
      expect(await readRows(temp.portal, 'places', 'geo_point_2d')).to.deep.equal([
        { geo_point_2d: { lon: 2, lat: 48.85 } },
        { geo_point_2d: null },
      ]);
      const { computed } = await readDatasetFile(temp.portal, 'places');
      expect(computed.bbox).to.deep.equal({ west: 2, south: 48.85, east: 2, north: 48.85 });
      expect(computed.geometry_types).to.deep.equal(['Point']);
      await expectStorageMatchesSchema(temp.portal, 'places');
    });
  }

  it('does not detect a pair that is not numeric or out of range', async () => {
    const text = await fixture(temp.dir, 'text.csv', 'lat,lon\nnorth,east\n');
    await ingest({ file: text, portal: temp.portal, id: 'text' });
    expect(await fieldTypes(temp.portal, 'text')).to.deep.equal({ lat: 'text', lon: 'text' });
    const far = await fixture(temp.dir, 'far.csv', 'lat,lon\n91,10\n');
    await ingest({ file: far, portal: temp.portal, id: 'far' });
    expect(await fieldTypes(temp.portal, 'far')).to.deep.equal({ lat: 'int', lon: 'int' });
  });

  it('uses --geo-point columns of any name, and names the point geo_point_2d_2 when geo_point_2d is taken', async () => {
    const file = await fixture(temp.dir, 'obs.csv', 'geo_point_2d,y,x\nfirst,45.5,-73.5\n');
    await ingest({ file, portal: temp.portal, id: 'obs', geoPoint: { lat: 'y', lon: 'x' } });
    expect(await fieldTypes(temp.portal, 'obs')).to.deep.equal({
      geo_point_2d: 'text',
      y: 'double',
      x: 'double',
      geo_point_2d_2: 'geo_point_2d',
    });
    expect(await readRows(temp.portal, 'obs', 'geo_point_2d_2 AS p')).to.deep.equal([
      { p: { lon: -73.5, lat: 45.5 } },
    ]);
  });

  it('uses the --geo-point columns again on a re-ingest that does not give them, while both are numeric fields', async () => {
    const first = await fixture(temp.dir, 'obs.csv', 'name,y,x\nfirst,45.5,-73.5\n');
    await ingest({ file: first, portal: temp.portal, id: 'obs', geoPoint: { lat: 'Y', lon: 'x' } });
    expect((await readDatasetFile(temp.portal, 'obs')).computed.geo_point_from).to.deep.equal({
      lat: 'y',
      lon: 'x',
    });

    const second = await fixture(temp.dir, 'obs2.csv', 'name,y,x\nsecond,46.5,-72.5\n');
    await ingest({ file: second, portal: temp.portal, id: 'obs' });
    expect(await readRows(temp.portal, 'obs', 'geo_point_2d AS p')).to.deep.equal([
      { p: { lon: -72.5, lat: 46.5 } },
    ]);
    expect((await readDatasetFile(temp.portal, 'obs')).computed.geo_point_from).to.deep.equal({
      lat: 'y',
      lon: 'x',
    });

    // x is text now: no point, no error, and nothing left to remember.
    const third = await fixture(temp.dir, 'obs3.csv', 'name,y,x\nthird,47.5,west\n');
    await ingest({ file: third, portal: temp.portal, id: 'obs' });
    expect(await fieldTypes(temp.portal, 'obs')).to.deep.equal({ name: 'text', y: 'double', x: 'text' });
    expect((await readDatasetFile(temp.portal, 'obs')).computed.geo_point_from).to.equal(null);
  });

  it('refuses a --geo-point naming a missing or textual column', async () => {
    const file = await fixture(temp.dir, 'obs.csv', 'name,y,x\nfirst,95,-73.5\n');
    await expectError(
      ingest({ file, portal: temp.portal, id: 'obs', geoPoint: { lat: 'lat', lon: 'x' } }),
      /--geo-point: no field "lat" \(fields: name, y, x\)/,
    );
    await expectError(
      ingest({ file, portal: temp.portal, id: 'obs', geoPoint: { lat: 'name', lon: 'x' } }),
      /field "name" is text, not a number/,
    );
  });

  it('reads a GeoJSON FeatureCollection: shapes as GeoJSON text, bbox-centre points, properties as fields', async () => {
    const collection = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          id: 'p1',
          properties: { name: 'point', n: 1 },
          geometry: { type: 'Point', coordinates: [2.35, 48.85, 35] },
        },
        {
          type: 'Feature',
          properties: { name: 'square', n: 2.5 },
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [4, 0],
                [4, 2],
                [0, 2],
                [0, 0],
              ],
            ],
          },
        },
        { type: 'Feature', properties: null, geometry: null },
        {
          type: 'Feature',
          properties: { name: 'line' },
          geometry: {
            type: 'LineString',
            coordinates: [
              [-10, -1],
              [-6, 3],
            ],
          },
        },
      ],
    };
    const file = await fixture(temp.dir, 'shapes.geojson', JSON.stringify(collection));
    const report = await ingest({ file, portal: temp.portal, id: 'shapes' });
    expect(report.format).to.equal('geojson');
    expect(await fieldTypes(temp.portal, 'shapes')).to.deep.equal({
      id: 'text',
      name: 'text',
      n: 'double',
      geo_point_2d: 'geo_point_2d',
      geo_shape: 'geo_shape',
    });
    const rows = await readRows(temp.portal, 'shapes', 'id, name, geo_point_2d AS p, geo_shape AS s');
    expect(rows).to.deep.equal([
      {
        id: 'p1',
        name: 'point',
        p: { lon: 2.35, lat: 48.85 },
        s: '{"type":"Point","coordinates":[2.35,48.85,35]}',
      },
      {
        id: null,
        name: 'square',
        p: { lon: 2, lat: 1 },
        s: '{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,2],[0,2],[0,0]]]}',
      },
      { id: null, name: null, p: null, s: null },
      {
        id: null,
        name: 'line',
        p: { lon: -8, lat: 1 },
        s: '{"type":"LineString","coordinates":[[-10,-1],[-6,3]]}',
      },
    ]);
    const { computed } = await readDatasetFile(temp.portal, 'shapes');
    expect(computed.bbox).to.deep.equal({ west: -10, south: -1, east: 4, north: 48.85 });
    expect(computed.geometry_types).to.deep.equal(['LineString', 'Point', 'Polygon']);
    await expectStorageMatchesSchema(temp.portal, 'shapes');
  });

  it('refuses a GeoJSON that is not a FeatureCollection', async () => {
    const file = await fixture(
      temp.dir,
      'one.geojson',
      JSON.stringify({ type: 'Feature', properties: {}, geometry: null }),
    );
    await expectError(
      ingest({ file, portal: temp.portal, id: 'one' }),
      /one\.geojson: not a GeoJSON FeatureCollection \(top-level "type" is "Feature"\)/,
    );
  });

  it('ingests the vega earthquakes.json (a .json FeatureCollection) with its points and depth', async () => {
    const report = await ingest({
      file: path.join(VEGA_DATA, 'earthquakes.json'),
      portal: temp.portal,
      id: 'quakes',
    });
    expect(report.format).to.equal('geojson');
    expect(report.recordsCount).to.equal(1707);
    const { computed } = await readDatasetFile(temp.portal, 'quakes');
    expect(computed.geometry_types).to.deep.equal(['Point']);
    expect(computed.bbox!.west).to.be.within(-180, -170);
    const [first] = await readRows(temp.portal, 'quakes', 'id, geo_point_2d AS p, geo_shape AS s');
    expect(first).to.deep.equal({
      id: 'ci37868143',
      p: { lon: -118.6671667, lat: 34.4945 },
      s: '{"type":"Point","coordinates":[-118.6671667,34.4945,26.49]}',
    });
  });
  describe('row groups', () => {
    const rowGroups = async (id: string): Promise<number[]> =>
      (
        await query(`SELECT row_group_num_rows AS n FROM parquet_metadata(${quoteString(dataPath(temp.portal, id))})
          GROUP BY row_group_id, n ORDER BY row_group_id`)
      ).map((row) => Number(row.n));

    it("holds about 12 MiB of JSON per row group of a geo dataset, in whole vectors, DuckDB's 122,880 at most", () => {
      expect(geoRowGroupRows(231)).to.equal(53_248); // airports1m
      expect(geoRowGroupRows(3_000)).to.equal(4_096);
      expect(geoRowGroupRows(100_000)).to.equal(2_048);
      expect(geoRowGroupRows(60)).to.equal(122_880);
      expect(geoRowGroupRows(null)).to.equal(122_880);
    });

    it('stores wide geo rows in smaller row groups, and the same rows without a point in one', async () => {
      const file = path.join(temp.dir, 'wide.parquet');
      await query(`COPY (SELECT i AS n, repeat('x', 2500) AS note, 45 + i / 10000 AS lat, 5.0 AS lon
        FROM range(12000) t(i)) TO ${quoteString(file)} (FORMAT parquet)`);
      await ingest({ file, portal: temp.portal, id: 'wide-points' });
      expect(await rowGroups('wide-points')).to.deep.equal([4_096, 4_096, 3_808]);
      expect(
        (await readRows(temp.portal, 'wide-points', 'CAST(n AS INTEGER) AS n')).map((row) => row.n),
      ).to.deep.equal(Array.from({ length: 12_000 }, (_, i) => i));
      const plain = path.join(temp.dir, 'wide-plain.parquet');
      await query(
        `COPY (SELECT n, note FROM read_parquet(${quoteString(file)})) TO ${quoteString(plain)} (FORMAT parquet)`,
      );
      await ingest({ file: plain, portal: temp.portal, id: 'wide-plain' });
      expect(await rowGroups('wide-plain')).to.deep.equal([12_000]);
    });
  });
});
