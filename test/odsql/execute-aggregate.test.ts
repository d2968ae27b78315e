// Compile-then-execute: aggregations, group_by (fields, functions, every range form, geo_cluster),
// order_by, paging, and the null rules of explore-api.md.
import { expect } from 'chai';
import type { QueryParams } from '../../src/odsql/index.js';
import { openFixture, type Fixture } from './fixture.js';

type Row = Record<string, unknown>;

/** Every [lon, lat] pair of a GeoJSON geometry. */
function positions(geometry: { coordinates: unknown }): [number, number][] {
  const flat: [number, number][] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value) && typeof value[0] === 'number') flat.push(value as [number, number]);
    else if (Array.isArray(value)) value.forEach(walk);
  };
  walk(geometry.coordinates);
  return flat;
}

describe('ODSQL aggregations, groups and order, executed', () => {
  let fixture: Fixture;
  before(async () => {
    fixture = await openFixture();
  });
  after(async () => fixture.close());

  /** Rows of a grouped query as [key, count] pairs, and its total_count. */
  async function groups(groupBy: string, extra: QueryParams = {}): Promise<[unknown, unknown][]> {
    const params = { groupBy: `${groupBy} as k`, select: 'count(*) as c', ...extra };
    const rows = await fixture.rows(params);
    expect(await fixture.count(params)).to.equal(rows.length);
    return rows.map((r) => [r.k, r.c]);
  }

  describe('aggregations (select, no group_by: one group)', () => {
    it('count, avg, sum, min, max, median, percentile', async () => {
      const select =
        'count(*), count(n), count(distinct name), count(distinct ifnull(name, "none")), avg(n), sum(n), ' +
        'min(n), max(n), median(n), percentile(n, 90), percentile(n, 0), sum(x), avg(x), min(name)';
      const [row] = await fixture.rows({ select });
      expect(row).to.deep.equal({
        'count(*)': 6,
        'count(n)': 5,
        'count(distinct name)': 5,
        'count(distinct ifnull(name, "none"))': 6,
        'avg(n)': 37.2,
        'sum(n)': 186,
        'min(n)': 1,
        'max(n)': 100,
        'median(n)': 25,
        'percentile(n, 90)': 80,
        'percentile(n, 0)': 1,
        'sum(x)': 11.25,
        'avg(x)': 2.25,
        'min(name)': 'Alpha',
      });
      expect(await fixture.count({ select })).to.equal(1);
    });

    it('min and max of dates and datetimes keep their output shapes', async () => {
      const [row] = await fixture.rows({ select: 'min(d), max(d), max(t)' });
      expect(row).to.deep.equal({
        'min(d)': '2019-12-31',
        'max(d)': '2021-03-01',
        'max(t)': '2021-03-28T01:30:00+00:00',
      });
    });

    it('aggregations filter with where and take labels', async () => {
      const [row] = await fixture.rows({
        select: 'count(*) as total, sum(n) / count(n) as mean',
        where: ['n > 10'],
      });
      expect(row).to.deep.equal({ total: 3, mean: 175 / 3 });
    });

    it('bbox() and envelope() of points span the extreme points, as GeoJSON Features', async () => {
      const [row] = (await fixture.rows({ select: 'bbox(p) as b, envelope(p) as e' })) as Row[];
      for (const feature of [row!.b, row!.e] as {
        type: string;
        geometry: { type: string; coordinates: unknown };
      }[]) {
        expect(feature.type).to.equal('Feature');
        expect(feature.geometry.type).to.equal('Polygon');
        const points = positions(feature.geometry);
        expect(Math.min(...points.map((p) => p[0]))).to.be.closeTo(-74, 1e-9);
        expect(Math.max(...points.map((p) => p[0]))).to.be.closeTo(13.4, 1e-9);
        expect(Math.min(...points.map((p) => p[1]))).to.be.closeTo(40.7, 1e-9);
        expect(Math.max(...points.map((p) => p[1]))).to.be.closeTo(52.52, 1e-9);
      }
    });
  });

  describe('group_by', () => {
    it('a field: one group per value, a null group last (v2.1)', async () => {
      expect(await groups('`year`')).to.deep.equal([
        [2019, 1],
        [2020, 3],
        [2021, 1],
        [null, 1],
      ]);
      expect(await groups('ok')).to.deep.equal([
        [false, 2],
        [true, 2],
        [null, 2],
      ]);
    });

    it('a multivalued field groups by element; empty and null lists form the null group', async () => {
      expect(await groups('tags')).to.deep.equal([
        ['blue', 2],
        ['green', 1],
        ['red', 3],
        [null, 2],
      ]);
      expect(await groups('tags', { where: ["tags = 'red'"] })).to.deep.equal([
        ['blue', 1],
        ['green', 1],
        ['red', 3],
      ]);
    });

    it('static ranges: * ends, and the bracket forms of supplement 5', async () => {
      // n is an integer field: inclusive integer bounds, as the public service labels them.
      const open = [
        ['[*, 9]', 1],
        ['[10, 49]', 2],
        ['[50, *]', 2],
        [null, 1],
      ];
      expect(await groups('range(n, *, 10, 50, *)')).to.deep.equal(open);
      expect(await groups('range(n, ]10, 50[)')).to.deep.equal(open);
      expect(await groups('range(n, [10, 50, 100])')).to.deep.equal([
        ['[10, 49]', 2],
        ['[50, 99]', 1],
        [null, 1],
      ]);
      expect(await groups('range(n, 10, 50)')).to.deep.equal([
        ['[10, 49]', 2],
        [null, 1],
      ]);
      // A fractional bound, or a double field: the documented low-high.
      expect(await groups('range(n, *, 10.5, *)')).to.deep.equal([
        ['*-10.5', 2],
        ['10.5-*', 3],
        [null, 1],
      ]);
      expect(await groups('range(x, *, 1, *)')).to.deep.equal([
        ['*-1', 2],
        ['1-*', 3],
        [null, 1],
      ]);
    });

    it('static date ranges with ISO keys', async () => {
      expect(await groups("range(d, *, date'2020', date'2021', *)")).to.deep.equal([
        ['*-2020-01-01', 1],
        ['2020-01-01-2021-01-01', 3],
        ['2021-01-01-*', 1],
        [null, 1],
      ]);
    });

    it('equal-width numeric ranges', async () => {
      expect(await groups('range(n, 50)')).to.deep.equal([
        ['[0, 49]', 3],
        ['[50, 99]', 1],
        ['[100, 149]', 1],
        [null, 1],
      ]);
      expect(await groups('range(x, 2.5)')).to.deep.equal([
        ['-5--2.5', 1],
        ['0-2.5', 2],
        ['2.5-5', 1],
        ['10-12.5', 1],
        [null, 1],
      ]);
    });

    it('equal-width date ranges, aligned in the request time zone', async () => {
      expect(await groups('range(d, 1month)')).to.deep.equal([
        ['2019-12-01', 1],
        ['2020-01-01', 2],
        ['2020-06-01', 1],
        ['2021-03-01', 1],
        [null, 1],
      ]);
      expect(await groups('range(t, 1year)')).to.deep.equal([
        ['2019-01-01T00:00:00+00:00', 1],
        ['2020-01-01T00:00:00+00:00', 3],
        ['2021-01-01T00:00:00+00:00', 1],
        [null, 1],
      ]);
      expect(await groups('range(t, 1M)', { timezone: 'Europe/Paris' })).to.deep.equal([
        ['2020-01-01T00:00:00+01:00', 3],
        ['2020-07-01T00:00:00+02:00', 1],
        ['2021-03-01T00:00:00+01:00', 1],
        [null, 1],
      ]);
    });

    it('date parts, date_format, lower and ifnull', async () => {
      expect(await groups('year(d)')).to.deep.equal([
        [2019, 1],
        [2020, 3],
        [2021, 1],
        [null, 1],
      ]);
      expect(await groups("date_format(d, 'yyyy')")).to.deep.equal([
        ['2019', 1],
        ['2020', 3],
        ['2021', 1],
        [null, 1],
      ]);
      expect((await groups('lower(name)')).map(([k]) => k)).to.deep.equal([
        'alpha',
        'alphabet',
        'beta',
        'gamma ray',
        "o'brien \\ back",
        null,
      ]);
      expect(await groups("ifnull(name, 'none')", { where: ['n is null or n = 1'] })).to.deep.equal([
        ['Alpha', 1],
        ['none', 1],
      ]);
    });

    it('geo_cluster(): the key is the call text, the value the centroid and count of each cluster', async () => {
      const rows = (await fixture.rows({ groupBy: 'geo_cluster(p, 6)', where: ['p is not null'] })) as Row[];
      const clusters = rows.map(
        (r) => r['geo_cluster(p, 6)'] as { cluster_centroid: { lat: number; lon: number }; count: number },
      );
      expect(clusters.reduce((sum, c) => sum + c.count, 0)).to.equal(5);
      const paris = clusters.find((c) => c.count === 2);
      expect(paris?.cluster_centroid.lat).to.be.closeTo((48.85 + 48.86) / 2, 1e-9);
      expect(paris?.cluster_centroid.lon).to.be.closeTo((2.35 + 2.29) / 2, 1e-9);
    });

    it('several keys; the group keys come first, labels of group_by usable in select and order_by', async () => {
      const rows = await fixture.rows({
        groupBy: 'ok, year(d) as y',
        select: 'y, count(*) as c',
        orderBy: 'c desc, y',
      });
      expect(rows[0]).to.deep.equal({ ok: true, y: 2020, c: 2 });
      expect(rows).to.have.length(5);
      expect(Object.keys(rows[0]!)).to.deep.equal(['ok', 'y', 'c']);
    });

    it('orders groups by aggregations, then by the group keys', async () => {
      const rows = await fixture.rows({ groupBy: 'tags', select: 'count(*) as c', orderBy: 'c desc' });
      expect(rows.map((r) => [r.tags, r.c])).to.deep.equal([
        ['red', 3],
        ['blue', 2],
        [null, 2],
        ['green', 1],
      ]);
      const byCount = await fixture.rows({
        groupBy: '`year`',
        select: 'count(*)',
        orderBy: 'count(*) desc, `year` desc',
      });
      expect(byCount.map((r) => r.year)).to.deep.equal([2020, 2021, 2019, null]);
    });

    it('pages through groups; total_count is the number of groups', async () => {
      const params = { groupBy: '`year`', limit: 2, offset: 1 };
      expect((await fixture.rows(params)).map((r) => r.year)).to.deep.equal([2020, 2021]);
      expect(await fixture.count(params)).to.equal(4);
    });
  });

  describe('order_by and paging of records', () => {
    const ns = async (params: QueryParams) =>
      (await fixture.rows({ select: 'n', ...params })).map((r) => r.n);

    it('ASC by default, DESC, -field, nulls last whatever the direction', async () => {
      expect(await ns({ orderBy: 'n' })).to.deep.equal([1, 10, 25, 50, 100, null]);
      expect(await ns({ orderBy: 'n ASC' })).to.deep.equal([1, 10, 25, 50, 100, null]);
      expect(await ns({ orderBy: 'n desc' })).to.deep.equal([100, 50, 25, 10, 1, null]);
      expect(await ns({ orderBy: '-n' })).to.deep.equal([100, 50, 25, 10, 1, null]);
      expect(await ns({ orderBy: 'ok desc, n' })).to.deep.equal([1, 25, 10, 100, 50, null]);
      expect(await ns({ orderBy: 'name' })).to.deep.equal([1, 100, 50, 25, 10, null]);
    });

    it('random(seed): the same order for the same seed, page after page', async () => {
      const first = await ns({ orderBy: 'random(42)' });
      expect(await ns({ orderBy: 'random(42) desc' })).to.deep.equal(first);
      expect([...first].sort()).to.deep.equal([1, 10, 100, 25, 50, null].sort());
      const pages = [
        ...(await ns({ orderBy: 'random(42)', limit: 3 })),
        ...(await ns({ orderBy: 'random(42)', limit: 3, offset: 3 })),
      ];
      expect(pages).to.deep.equal(first);
      const orders = new Set<string>();
      for (let seed = 1; seed <= 8; seed++)
        orders.add(JSON.stringify(await ns({ orderBy: `random(${seed})` })));
      expect(orders.size).to.be.greaterThan(1);
    });

    it('limit and offset; the count ignores them', async () => {
      expect(await ns({ orderBy: 'n', limit: 2, offset: 1 })).to.deep.equal([10, 25]);
      expect(await ns({ orderBy: 'n', limit: 0 })).to.deep.equal([]);
      expect(await ns({ orderBy: 'n', limit: -1, offset: 4 })).to.deep.equal([100, null]);
      expect(await fixture.count({ orderBy: 'n', limit: 2, offset: 1 })).to.equal(6);
    });
  });

  describe('null rules (explore-api.md "Null handling")', () => {
    it('select returns nulls as null', async () => {
      const [row] = await fixture.rows({
        select: 'name, n, ok, d, t, p, s, tags, j, length(name), n + 1',
        recordId: 'r4',
      });
      expect(Object.values(row!).every((v) => v === null)).to.equal(true);
    });

    it('where: a comparison involving null is false', async () => {
      expect(await fixture.count({ where: ['n > 0'] })).to.equal(5);
      expect(await fixture.count({ where: ['n <= 0'] })).to.equal(0);
      expect(await fixture.count({ where: ['n != 1'] })).to.equal(4);
    });

    it('group_by keeps a null group; order_by puts nulls last in both directions', async () => {
      expect((await groups('`year`')).at(-1)).to.deep.equal([null, 1]);
      expect((await groups('`year`', { orderBy: 'k desc' })).map(([k]) => k)).to.deep.equal([
        2021,
        2020,
        2019,
        null,
      ]);
    });
  });
});
