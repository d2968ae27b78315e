// bbox(), envelope() and geo_cluster() executed as aggregates over Parquet fixtures of points and shapes.
import { expect } from 'chai';
import { QueryLangError } from '../../src/odsql/errors.js';
import {
  compileBbox,
  compileEnvelope,
  compileGeoCluster,
} from '../../src/odsql/dialect/duckdb/geo-builders.js';
import { FixtureDb } from '../search/fixture-db.js';

type Point = [number, number];

/** Andrew's monotone chain in JS: the reference hull (counterclockwise, from the lowest-leftmost point). */
function jsHull(points: Point[]): Point[] {
  const sorted = [...new Map(points.map((p) => [p.join(), p])).values()].sort(
    (a, b) => a[0] - b[0] || a[1] - b[1],
  );
  const cross = (o: Point, a: Point, b: Point) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const chain = (pts: Point[]) => {
    const out: Point[] = [];
    for (const p of pts) {
      while (out.length >= 2 && cross(out[out.length - 2]!, out[out.length - 1]!, p) <= 0) out.pop();
      out.push(p);
    }
    return out.slice(0, -1);
  };
  return [...chain(sorted), ...chain([...sorted].reverse())];
}

/** A deterministic cloud of points (a linear congruential generator). */
function cloud(count: number, seed: number): Point[] {
  let state = seed;
  const next = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 100 - 50;
  return Array.from({ length: count }, () => [
    Math.round(next() * 1000) / 1000,
    Math.round(next() * 1000) / 1000,
  ]);
}

describe('geo aggregates', () => {
  let db: FixtureDb;
  const random = cloud(3000, 7);
  // Every point is a hull vertex: nothing is dropped before the monotone chains.
  const circle = Array.from({ length: 500 }, (_, k): Point => [
    Math.round(Math.cos((2 * Math.PI * k) / 500) * 4e6) / 1e5 || 0, // no -0: SQL writes it 0
    Math.round(Math.sin((2 * Math.PI * k) / 500) * 4e6) / 1e5 || 0,
  ]);

  before(async () => {
    db = await FixtureDb.create();
    const groups: [string, (Point | null)[]][] = [
      // Corners, points on the edges (collinear: not hull vertices) and inside.
      [
        'square',
        [
          [0, 0],
          [10, 0],
          [10, 10],
          [0, 10],
          [5, 0],
          [10, 5],
          [5, 5],
          [2, 7],
          [0, 0],
        ],
      ],
      [
        'one',
        [
          [3, 4],
          [3, 4],
        ],
      ],
      [
        'line',
        [
          [0, 0],
          [2, 2],
          [1, 1],
          [3, 3],
        ],
      ],
      ['nothing', [null]],
      ['random', random],
      ['circle', circle],
    ];
    const rows = groups.flatMap(([g, pts]) =>
      pts.map((p) => (p ? `('${g}', ${p[0]}, ${p[1]})` : `('${g}', NULL, NULL)`)),
    );
    await db.parquet(
      'points',
      `SELECT g, CASE WHEN lon IS NOT NULL THEN {'lon': lon, 'lat': lat} END::STRUCT(lon DOUBLE, lat DOUBLE) AS p FROM (VALUES ${rows.join(', ')}) v(g, lon, lat)`,
    );
    await db.parquet(
      'shapes',
      `SELECT * FROM (VALUES ('{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,3],[0,0]]]}'), ('{"type":"LineString","coordinates":[[-2,1],[1,5]]}'), ('{"type":"Point","coordinates":[2,-1]}'), (NULL)) v(s)`,
    );
  });
  after(() => db.close());

  const perGroup = async (select: string) =>
    Object.fromEntries(
      (await db.rows(`SELECT g, ${select} AS v FROM points GROUP BY g`)).map((r) => [
        r.g,
        r.v === null ? null : JSON.parse(r.v as string),
      ]),
    );

  it('bbox: the bounding polygon of each group, null for no points', async () => {
    const boxes = await perGroup(compileBbox('p', 'geo_point_2d'));
    expect(boxes.square).to.deep.equal({
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [10, 0],
          [10, 10],
          [0, 10],
          [0, 0],
        ],
      ],
    });
    expect(boxes.one).to.deep.equal({
      type: 'Polygon',
      coordinates: [
        [
          [3, 4],
          [3, 4],
          [3, 4],
          [3, 4],
          [3, 4],
        ],
      ],
    });
    expect(boxes.nothing).to.equal(null);
  });

  it('envelope: a polygon hull without collinear points, a point, a line, null', async () => {
    const hulls = await perGroup(compileEnvelope('p', 'geo_point_2d'));
    expect(hulls.square).to.deep.equal({
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [10, 0],
          [10, 10],
          [0, 10],
          [0, 0],
        ],
      ],
    });
    expect(hulls.one).to.deep.equal({ type: 'Point', coordinates: [3, 4] });
    expect(hulls.line).to.deep.equal({
      type: 'LineString',
      coordinates: [
        [0, 0],
        [3, 3],
      ],
    });
    expect(hulls.nothing).to.equal(null);
  });

  it('envelope of 3000 scattered points is the monotone-chain hull', async () => {
    const hulls = await perGroup(compileEnvelope('p', 'geo_point_2d'));
    const expected = jsHull(random);
    expect(expected.length).to.be.greaterThan(8);
    expect(hulls.random).to.deep.equal({ type: 'Polygon', coordinates: [[...expected, expected[0]]] });
  });

  it('envelope of 500 points on a circle keeps them all', async () => {
    const hulls = await perGroup(compileEnvelope('p', 'geo_point_2d'));
    const expected = jsHull(circle);
    expect(expected.length).to.be.greaterThan(490);
    expect(hulls.circle).to.deep.equal({ type: 'Polygon', coordinates: [[...expected, expected[0]]] });
  });

  it('bbox and envelope over shapes gather every vertex', async () => {
    const [row] = await db.rows(
      `SELECT ${compileBbox('s', 'geo_shape')} AS box, ${compileEnvelope('s', 'geo_shape')} AS hull FROM shapes`,
    );
    expect(JSON.parse(row!.box as string)).to.deep.equal({
      type: 'Polygon',
      coordinates: [
        [
          [-2, -1],
          [4, -1],
          [4, 5],
          [-2, 5],
          [-2, -1],
        ],
      ],
    });
    expect(JSON.parse(row!.hull as string)).to.deep.equal({
      type: 'Polygon',
      coordinates: [
        [
          [-2, 1],
          [2, -1],
          [4, 0],
          [4, 3],
          [1, 5],
          [-2, 1],
        ],
      ],
    });
  });

  describe('geo_cluster', () => {
    const clusters = async (precision: number, where = 'TRUE') => {
      const { keySql, centroidLatSql, centroidLonSql } = compileGeoCluster('p', precision);
      return db.rows(
        `SELECT ${keySql} AS k, count(*)::INTEGER AS n, ${centroidLatSql} AS lat, ${centroidLonSql} AS lon FROM points WHERE ${where} GROUP BY k ORDER BY k NULLS LAST`,
      );
    };

    it('precision 1 splits the world in four tiles', async () => {
      const quadrants = await clusters(1, "g = 'random'");
      const count = (west: boolean, north: boolean) =>
        random.filter(([lon, lat]) => lon < 0 === west && lat > 0 === north).length;
      expect(quadrants.map((r) => [r.k, r.n])).to.deep.equal([
        [0, count(true, true)],
        [1, count(false, true)],
        [2, count(true, false)],
        [3, count(false, false)],
      ]);
    });

    it('a cluster sits at the mean of its points; null points form no tile', async () => {
      const rows = await clusters(4, "g IN ('square', 'nothing')");
      expect(rows.at(-1)).to.deep.equal({ k: null, n: 1, lat: null, lon: null });
      const tile = rows.find((r) => r.n === 5);
      expect(tile).to.deep.include({ lat: 7.4, lon: 5.4 });
    });

    it('precision 24 separates points a few meters apart', async () => {
      const rows = await clusters(24, "g = 'random'");
      expect(rows).to.have.length(new Set(random.map((p) => p.join())).size);
    });

    it('refuses a precision outside 1..24', () => {
      for (const precision of [0, 25, 1.5]) {
        expect(() => compileGeoCluster('p', precision)).to.throw(
          QueryLangError,
          /precision must be an integer from 1 to 24/,
        );
      }
    });
  });
});
