// intersects / disjoint / within and in_bbox executed on Parquet fixtures of points and GeoJSON shapes.
import { expect } from 'chai';
import { QueryLangError } from '../../src/odsql/errors.js';
import { compileInBbox, compileSpatial } from '../../src/odsql/dialect/duckdb/geo-builders.js';
import { parseGeometryLiteral, type Geometry, type SpatialRelation } from '../../src/odsql/functions/geo.js';
import { FixtureDb } from '../search/fixture-db.js';

/** A square polygon ring from (x1, y1) to (x2, y2). */
const square = (x1: number, y1: number, x2: number, y2: number) => [
  [x1, y1],
  [x2, y1],
  [x2, y2],
  [x1, y2],
  [x1, y1],
];
const polygon = (...rings: number[][][]) => JSON.stringify({ type: 'Polygon', coordinates: rings });

/** Points by id: inside, in the hole, outside, on the edge, null, rays crossing the hole. */
const POINTS: [number, [number, number] | null][] = [
  [1, [1, 1]],
  [2, [5, 5]],
  [3, [20, 20]],
  [4, [10, 5]],
  [5, null],
  [6, [5, 4.5]],
  [7, [3, 5]],
  [8, [-1, 5]],
];

const SHAPES: [number, string | null][] = [
  [101, polygon(square(1, 1, 2, 2))],
  [102, polygon(square(-5, -5, 15, 15))],
  [103, polygon(square(8, 8, 12, 12))],
  [104, '{"type":"LineString","coordinates":[[-1,1],[11,1]]}'],
  [105, '{"type":"LineString","coordinates":[[4.5,5],[5.5,5]]}'],
  [106, '{"type":"Point","coordinates":[1,1]}'],
  [107, '{"type":"Point","coordinates":[20,20]}'],
  [
    108,
    JSON.stringify({ type: 'MultiPolygon', coordinates: [[square(1, 1, 2, 2)], [square(20, 20, 21, 21)]] }),
  ],
  [109, polygon(square(4.2, 4.2, 5.8, 5.8))],
  [110, polygon(square(3, 3, 7, 7))],
  [111, null],
  [112, polygon(square(0, 0, 10, 10), square(4, 4, 6, 6))],
  [113, '{"type":"MultiPoint","coordinates":[[1,1],[5,5]]}'],
  [114, '{"type":"LineString","coordinates":[[0,0],[10,0]]}'],
  [116, polygon(square(10, 10, 12, 12))],
  [117, '{"type":"MultiLineString","coordinates":[[[20,20],[21,21]],[[2,3],[3,3]]]}'],
];

const QUERY_WKT = 'POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (4 4, 6 4, 6 6, 4 6, 4 4))';
const QUERY_GEOJSON = polygon(square(0, 0, 10, 10), square(4, 4, 6, 6));

/** Even-odd ray casting in JS, to check the SQL of large polygons against. */
function jsContains(rings: number[][][], x: number, y: number): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 1; i < ring.length; i++) {
      const [x1, y1] = ring[i - 1]!;
      const [x2, y2] = ring[i]!;
      if (y1! > y !== y2! > y && x < x1! + ((y - y1!) * (x2! - x1!)) / (y2! - y1!)) inside = !inside;
    }
  }
  return inside;
}

describe('geo predicates', () => {
  let db: FixtureDb;

  before(async () => {
    db = await FixtureDb.create();
    const points = POINTS.map(([id, p]) =>
      p ? `(${id}, {'lon': ${p[0]}, 'lat': ${p[1]}})` : `(${id}, NULL)`,
    ).join(', ');
    await db.parquet(
      'points',
      `SELECT id, CAST(p AS STRUCT(lon DOUBLE, lat DOUBLE)) AS p FROM (VALUES ${points}) v(id, p)`,
    );
    const shapes = SHAPES.map(([id, s]) => `(${id}, ${s === null ? 'NULL' : `'${s}'`})`).join(', ');
    await db.parquet('shapes', `SELECT id, CAST(s AS VARCHAR) AS s FROM (VALUES ${shapes}) v(id, s)`);
  });
  after(() => db.close());

  const ids = (table: 'points' | 'shapes', where: string) =>
    db.column(`SELECT id FROM ${table} WHERE ${where} ORDER BY id`);
  const spatial = (op: SpatialRelation, table: 'points' | 'shapes', geometry: Geometry) =>
    ids(
      table,
      compileSpatial(
        op,
        table === 'points' ? 'p' : 's',
        table === 'points' ? 'geo_point_2d' : 'geo_shape',
        geometry,
      ),
    );

  for (const [name, text] of [
    ['WKT', QUERY_WKT],
    ['GeoJSON', QUERY_GEOJSON],
  ]) {
    describe(`against a polygon with a hole (${name})`, () => {
      const query = parseGeometryLiteral(text!);

      // Point 4 lies exactly on an edge, which ray casting may count either way: left out.
      const offEdge = (ids: unknown[]) => ids.filter((id) => id !== 4);
      it('points: intersects keeps the inside, not the hole', async () => {
        expect(offEdge(await spatial('intersects', 'points', query))).to.deep.equal([1, 7]);
      });
      it('points: within is the same for a polygon', async () => {
        expect(offEdge(await spatial('within', 'points', query))).to.deep.equal([1, 7]);
      });
      it('points: disjoint is the rest, without nulls', async () => {
        expect(offEdge(await spatial('disjoint', 'points', query))).to.deep.equal([2, 3, 6, 8]);
      });
      it('shapes: intersects (crossing, containing, contained, touching)', async () => {
        expect(await spatial('intersects', 'shapes', query)).to.deep.equal([
          101, 102, 103, 104, 106, 108, 110, 112, 113, 114, 116, 117,
        ]);
      });
      it('shapes: disjoint (outside, or inside the hole)', async () => {
        expect(await spatial('disjoint', 'shapes', query)).to.deep.equal([105, 107, 109]);
      });
      it('shapes: within the closed polygon (a shape round the hole is not)', async () => {
        expect(await spatial('within', 'shapes', query)).to.deep.equal([101, 106, 112, 114]);
      });
    });
  }

  it('points against a line and a point (within tolerance)', async () => {
    expect(
      await spatial('intersects', 'points', parseGeometryLiteral('LINESTRING(10 0, 10 10)')),
    ).to.deep.equal([4]);
    expect(await spatial('intersects', 'points', parseGeometryLiteral('POINT(1 1)'))).to.deep.equal([1]);
    expect(
      await spatial('intersects', 'points', parseGeometryLiteral('MULTIPOINT(3 5, 20 20)')),
    ).to.deep.equal([3, 7]);
  });

  it('shapes against a line', async () => {
    const line = parseGeometryLiteral('LINESTRING(1.5 0, 1.5 3)');
    expect(await spatial('intersects', 'shapes', line)).to.deep.equal([101, 102, 104, 108, 112, 114]);
  });

  it('shapes against a multipolygon', async () => {
    const two = parseGeometryLiteral(
      'MULTIPOLYGON(((0.5 0.5, 1.5 0.5, 1.5 1.5, 0.5 1.5, 0.5 0.5)), ((19 19, 22 19, 22 22, 19 22, 19 19)))',
    );
    expect(await spatial('intersects', 'shapes', two)).to.deep.equal([
      101, 102, 104, 106, 107, 108, 112, 113, 117,
    ]);
    expect(await spatial('within', 'shapes', two)).to.deep.equal([106, 107]);
  });

  it('within() needs an area', () => {
    expect(() =>
      compileSpatial('within', 's', 'geo_shape', parseGeometryLiteral('LINESTRING(0 0, 1 1)')),
    ).to.throw(QueryLangError, /within\(\) needs a POLYGON/);
  });

  /** A star of `tips` points around (5, 5). */
  const star = (tips: number) =>
    Array.from({ length: 2 * tips + 1 }, (_, i) => {
      const [angle, radius] = [(Math.PI * (i % (2 * tips))) / tips, i % 2 ? 5 : 3];
      return [5 + radius * Math.cos(angle), 5 + radius * Math.sin(angle)];
    });
  /** A comb: long teeth whose edges span every slab, so slabs hold many edges (list literals). */
  const comb = (teeth: number) => [
    [0, 0],
    ...Array.from({ length: teeth }, (_, t) => [
      [(10 * (2 * t)) / (2 * teeth), 10 - (t % 7) * 0.1],
      [(10 * (2 * t + 1)) / (2 * teeth), 10 - (t % 7) * 0.1],
      [(10 * (2 * t + 1)) / (2 * teeth), 1 + (t % 5) * 0.05],
      [(10 * (2 * t + 2)) / (2 * teeth), 1 + (t % 5) * 0.05],
    ]).flat(),
    [10, 0],
    [0, 0],
  ];
  const shapes: [string, number[][]][] = [
    ['a 20-edge star (one slab)', star(10)],
    ['a 400-edge star (slabs)', star(200)],
    ['a 4000-edge star (slabs)', star(2000)],
    ['a 600-edge comb (long edges, listed slabs)', comb(150)],
  ];
  for (const [name, ring] of shapes) {
    it(`${name} agrees with ray casting`, async () => {
      const grid = Array.from({ length: 1600 }, (_, k) => [
        (k % 40) * 0.2637 - 0.1,
        Math.floor(k / 40) * 0.2637 - 0.1,
      ]);
      const expected = grid.flatMap(([x, y], k) => (jsContains([ring], x!, y!) ? [k] : []));
      await db.parquet(
        'grid',
        `SELECT k::INTEGER AS id, {'lon': x, 'lat': y}::STRUCT(lon DOUBLE, lat DOUBLE) AS p FROM (VALUES ${grid.map(([x, y], k) => `(${k}, ${x}, ${y})`).join(', ')}) v(k, x, y)`,
      );
      const polygon = { type: 'Polygon', coordinates: [ring] } as unknown as Geometry;
      const sql = compileSpatial('intersects', 'p', 'geo_point_2d', polygon);
      expect(expected.length).to.be.within(200, 1400);
      expect(await db.column(`SELECT id FROM grid WHERE ${sql} ORDER BY id`)).to.deep.equal(expected);
    });
  }

  describe('in_bbox', () => {
    it('points: inclusive box', async () => {
      expect(await ids('points', compileInBbox('p', 'geo_point_2d', 0, 0, 10, 10))).to.deep.equal([
        1, 2, 4, 6, 7,
      ]);
    });
    it('points: the same box from any two opposite corners, in either order', async () => {
      for (const [lat1, lon1, lat2, lon2] of [
        [10, 0, 0, 10],
        [10, 10, 0, 0],
        [0, 10, 10, 0],
      ]) {
        expect(
          await ids('points', compileInBbox('p', 'geo_point_2d', lat1!, lon1!, lat2!, lon2!)),
        ).to.deep.equal([1, 2, 4, 6, 7]);
      }
    });
    it('points: a longitude past 180 crosses the antimeridian, from either corner', async () => {
      expect(await ids('points', compileInBbox('p', 'geo_point_2d', -10, 15, 30, 359.5))).to.deep.equal([
        3, 8,
      ]);
      expect(await ids('points', compileInBbox('p', 'geo_point_2d', 30, 359.5, -10, 15))).to.deep.equal([
        3, 8,
      ]);
      expect(await ids('points', compileInBbox('p', 'geo_point_2d', -10, -345, 30, -0.5))).to.deep.equal([
        3, 8,
      ]);
      expect(await ids('points', compileInBbox('p', 'geo_point_2d', 0, -200, 30, 200))).to.deep.equal([
        1, 2, 3, 4, 6, 7, 8,
      ]);
    });
    it('shapes: intersecting the box', async () => {
      expect(await ids('shapes', compileInBbox('s', 'geo_shape', 4.1, 4.1, 5.9, 5.9))).to.deep.equal([
        102, 105, 109, 110, 113,
      ]);
    });
    it('shapes: a box across the antimeridian', async () => {
      expect(await ids('shapes', compileInBbox('s', 'geo_shape', 25, 359.5, 19.5, 19.5))).to.deep.equal([
        107, 108, 117,
      ]);
    });
    it('refuses coordinates out of range', () => {
      expect(() => compileInBbox('p', 'geo_point_2d', -91, 0, 0, 0)).to.throw(QueryLangError, /latitudes/);
      expect(() => compileInBbox('p', 'geo_point_2d', 0, 0, 0, 361)).to.throw(QueryLangError, /longitudes/);
    });
  });
});
