// distance() and within_distance() executed on Parquet fixtures: known distances, every unit, wrap-arounds.
import { expect } from 'chai';
import { QueryLangError } from '../../src/odsql/errors.js';
import { compileDistance, compileWithinDistance } from '../../src/odsql/dialect/duckdb/geo-builders.js';
import { parseDistance, parseGeometryLiteral } from '../../src/odsql/functions/geo.js';
import { FixtureDb } from '../search/fixture-db.js';

const R = 6371008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Haversine in JS, the reference the SQL must agree with. */
function haversine(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const h =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

/** Meters north of the equator at longitude 0: id is the distance in millimeters. */
const NORTH_MM = [
  2, 4, 400, 600, 3500, 3800, 270_000, 280_000, 900_000, 1_100_000, 1_600_000, 1_620_000, 9_000_000,
  11_000_000,
];

const point = (text: string) => parseGeometryLiteral(text);

describe('geo distances', () => {
  let db: FixtureDb;

  before(async () => {
    db = await FixtureDb.create();
    const north = NORTH_MM.map((mm) => `(${mm}, 0.0, ${((mm / 1000 / R) * 180) / Math.PI})`);
    const others = [
      '(101, 2.3522, 48.8566)', // Paris
      '(102, -0.1278, 51.5074)', // London
      `(103, ${10 + ((800 / (R * Math.cos(rad(60)))) * 180) / Math.PI}, 60.0)`, // 800 m east of (10, 60)
      `(104, ${10 + ((1200 / (R * Math.cos(rad(60)))) * 180) / Math.PI}, 60.0)`, // 1200 m east of (10, 60)
      '(105, -179.995, 0.0)', // 1113 m across the antimeridian from (179.995, 0)
      '(106, 180.0, 89.99)', // 2224 m across the north pole from (0, 89.99)
      '(107, NULL, NULL)',
    ];
    await db.parquet(
      'points',
      `SELECT id::BIGINT AS id, CASE WHEN lon IS NOT NULL THEN {'lon': lon, 'lat': lat} END::STRUCT(lon DOUBLE, lat DOUBLE) AS p FROM (VALUES ${[...north, ...others].join(', ')}) v(id, lon, lat)`,
    );
    await db.parquet(
      'shapes',
      `SELECT * FROM (VALUES (1, '{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}'), (2, NULL::VARCHAR)) v(id, s)`,
    );
  });
  after(() => db.close());

  const within = (center: string, distance: string, where = 'TRUE') =>
    db.column(
      `SELECT id FROM points WHERE (${where}) AND ${compileWithinDistance('p', 'geo_point_2d', point(center), parseDistance(distance))} ORDER BY id`,
    );
  const distanceTo = (center: string, table: 'points' | 'shapes', id: number) =>
    db.value(
      `SELECT ${compileDistance(table === 'points' ? 'p' : 's', table === 'points' ? 'geo_point_2d' : 'geo_shape', point(center))} FROM ${table} WHERE id = ${id}`,
    );

  it('Paris to London is about 343.5 km', async () => {
    const meters = (await distanceTo('POINT(2.3522 48.8566)', 'points', 102)) as number;
    expect(meters).to.be.closeTo(343_500, 500);
    expect(meters).to.be.closeTo(haversine(2.3522, 48.8566, -0.1278, 51.5074), 1e-6);
  });

  it('a null point has a null distance', async () => {
    expect(await distanceTo('POINT(0 0)', 'points', 107)).to.equal(null);
  });

  const byUnit: [string, number[]][] = [
    ['3mm', [2]],
    ['50cm', [2, 4, 400]],
    ['12ft', [2, 4, 400, 600, 3500]],
    ['100m', [2, 4, 400, 600, 3500, 3800]],
    ['300yd', [2, 4, 400, 600, 3500, 3800, 270_000]],
    ['1km', [2, 4, 400, 600, 3500, 3800, 270_000, 280_000, 900_000]],
    ['1mi', [2, 4, 400, 600, 3500, 3800, 270_000, 280_000, 900_000, 1_100_000, 1_600_000]],
    ['10km', NORTH_MM.slice(0, 13)],
  ];
  for (const [distance, expected] of byUnit) {
    it(`within_distance ${distance} keeps the points closer than that`, async () => {
      expect(await within('POINT(0 0)', distance, 'id < 100 OR id > 107')).to.deep.equal(expected);
    });
  }

  it('measures east-west at high latitude (the longitude pre-filter is wide enough)', async () => {
    expect(await within('POINT(10 60)', '1km', 'id IN (103, 104)')).to.deep.equal([103]);
    expect(await within('POINT(10 60)', '1300m', 'id IN (103, 104)')).to.deep.equal([103, 104]);
  });

  it('reaches across the antimeridian and across the pole', async () => {
    expect(await within('POINT(179.995 0)', '1200m', 'id IN (105, 106)')).to.deep.equal([105]);
    expect(await within('POINT(179.995 0)', '1km', 'id IN (105, 106)')).to.deep.equal([]);
    expect(await within('POINT(0 89.99)', '2300m', 'id IN (105, 106)')).to.deep.equal([106]);
    expect(await within('POINT(0 89.99)', '2200m', 'id IN (105, 106)')).to.deep.equal([]);
  });

  it('a radius beyond half the Earth keeps every non-null point', async () => {
    expect(await within('POINT(0 0)', '30000km')).to.have.length(NORTH_MM.length + 6);
  });

  it('distance to a shape: zero inside, perpendicular to an edge, haversine to a vertex', async () => {
    expect(await distanceTo('POINT(0.5 0.5)', 'shapes', 1)).to.equal(0);
    expect(await distanceTo('POINT(0.5 2)', 'shapes', 1)).to.be.closeTo((R * Math.PI) / 180, 1);
    expect(await distanceTo('POINT(2 0.5)', 'shapes', 1)).to.be.closeTo(haversine(2, 0.5, 1, 0.5), 20);
    expect(await distanceTo('POINT(2 2)', 'shapes', 1)).to.be.closeTo(haversine(2, 2, 1, 1), 1e-6);
    expect(await distanceTo('POINT(2 2)', 'shapes', 2)).to.equal(null);
  });

  it('within_distance of a shape', async () => {
    const shapes = (distance: string) =>
      db.column(
        `SELECT id FROM shapes WHERE ${compileWithinDistance('s', 'geo_shape', point('POINT(0.5 2)'), parseDistance(distance))}`,
      );
    expect(await shapes('112km')).to.deep.equal([1]);
    expect(await shapes('110km')).to.deep.equal([]);
  });

  it('measures from a POINT only', () => {
    expect(() => compileDistance('p', 'geo_point_2d', point('LINESTRING(0 0, 1 1)'))).to.throw(
      QueryLangError,
      /distance\(\) measures from a POINT, got a LineString/,
    );
    expect(() =>
      compileWithinDistance('p', 'geo_point_2d', point('POLYGON((0 0, 1 0, 1 1, 0 0))'), 10),
    ).to.throw(QueryLangError, /within_distance\(\)/);
  });
});
