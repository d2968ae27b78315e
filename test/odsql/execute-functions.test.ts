// Compile-then-execute: every scalar function and predicate of the registry, and the output shapes of select.
import { expect } from 'chai';
import type { QueryParams } from '../../src/odsql/index.js';
import { openFixture, type Fixture } from './fixture.js';

type Ns = (number | null)[];
const PARIS_POLYGON = "geom'POLYGON((2 48, 3 48, 3 49, 2 49, 2 48))'";

describe('ODSQL functions, executed', () => {
  let fixture: Fixture;
  before(async () => {
    fixture = await openFixture();
  });
  after(async () => fixture.close());

  async function matching(where: string, extra: QueryParams = {}): Promise<Ns> {
    const rows = await fixture.rows({ select: 'n', where: [where], orderBy: 'n', ...extra });
    return rows.map((r) => r.n as number | null);
  }

  /** One selected expression, record by record in n order (r4, whose n is null, last). */
  async function values(select: string, extra: QueryParams = {}): Promise<unknown[]> {
    const rows = await fixture.rows({ select: `${select} as v`, orderBy: 'n', ...extra });
    return rows.map((r) => r.v);
  }

  describe('scalar functions', () => {
    it('length() counts characters', async () => {
      expect(await values('length(name)')).to.deep.equal([5, 4, 8, 14, 9, null]);
      expect(await matching('length(name) = 4')).to.deep.equal([10]);
    });

    it('lower() in select, where and order_by', async () => {
      expect(await values('lower(name)')).to.deep.equal([
        'alpha',
        'beta',
        'alphabet',
        "o'brien \\ back",
        'gamma ray',
        null,
      ]);
      expect(await matching("lower(name) = 'alpha'")).to.deep.equal([1]);
      const rows = await fixture.rows({ select: 'n', where: ['n < 30'], orderBy: 'lower(name) desc' });
      expect(rows.map((r) => r.n)).to.deep.equal([10, 25, 1]);
    });

    it('ifnull() replaces nulls with a value of the same type', async () => {
      expect(await values('ifnull(n, 0)')).to.deep.equal([1, 10, 25, 50, 100, 0]);
      expect(await matching("ifnull(name, 'none') = 'none'")).to.deep.equal([null]);
    });

    it('json_format() parses valid JSON, else gives the fallback or the original text', async () => {
      expect(await values('json_format(j)')).to.deep.equal([{ a: 1 }, [1, 2], 'str', 'not json', null, null]);
      expect(await values("json_format(j, 'bad')")).to.deep.equal([
        { a: 1 },
        [1, 2],
        'str',
        'bad',
        null,
        null,
      ]);
      expect(await values('json_format(j, null)')).to.deep.equal([{ a: 1 }, [1, 2], 'str', null, null, null]);
    });

    it('json_format() keeps the original text in native output (exports other than JSON)', async () => {
      const rows = await fixture.rows({ select: 'json_format(j) as v', orderBy: 'n' }, 'native');
      expect(rows.map((r) => r.v)).to.deep.equal(['{"a": 1}', '[1, 2]', '"str"', 'not json', null, null]);
    });

    it('arithmetic with precedence, unary minus and division by zero as null', async () => {
      expect(await values('n * 2 + 1')).to.deep.equal([3, 21, 51, 101, 201, null]);
      expect(await values('-(n - 2) / 4')).to.deep.equal([0.25, -2, -5.75, -12, -24.5, null]);
      expect(await values('n / (n - 1)')).to.deep.equal([null, 10 / 9, 25 / 24, 50 / 49, 100 / 99, null]);
    });
  });

  describe('date and time functions (request time zone)', () => {
    it('year, month, day, hour, minute, second of a datetime in the request time zone', async () => {
      const paris = { timezone: 'Europe/Paris' };
      expect(await values('year(t)', paris)).to.deep.equal([2020, 2020, 2020, 2021, 2020, null]);
      expect(await values('month(t)', paris)).to.deep.equal([1, 7, 1, 3, 1, null]);
      expect(await values('day(t)', paris)).to.deep.equal([15, 1, 1, 28, 1, null]);
      expect(await values('hour(t)', paris)).to.deep.equal([11, 1, 1, 3, 0, null]);
      expect(await values('minute(t)', paris)).to.deep.equal([0, 30, 0, 30, 59, null]);
      expect(await values('second(t)', paris)).to.deep.equal([0, 0, 0, 0, 59, null]);
      expect(await values('month(t)')).to.deep.equal([1, 6, 1, 3, 12, null]);
    });

    it('date parts of a date field; its time parts are 0', async () => {
      expect(await values('year(d)')).to.deep.equal([2020, 2020, 2020, 2021, 2019, null]);
      expect(await values('day(d)')).to.deep.equal([15, 30, 1, 1, 31, null]);
      expect(await values('hour(d)')).to.deep.equal([0, 0, 0, 0, 0, null]);
      expect(await matching('year(d) = 2020')).to.deep.equal([1, 10, 25]);
    });

    it('now() compares with instants, and moves by its named arguments', async () => {
      expect(await matching('t < now()')).to.deep.equal([1, 10, 25, 50, 100]);
      expect(await matching('t > now(years=-200)')).to.deep.equal([1, 10, 25, 50, 100]);
      expect(await matching('t < now(year=2020, month=6, day=15, hour=0, minute=0, second=0)')).to.deep.equal(
        [1, 25, 100],
      );
    });

    it('date_format() in the request language (fr by default)', async () => {
      expect(await values("date_format(d, 'yyyy')")).to.deep.equal([
        '2020',
        '2020',
        '2020',
        '2021',
        '2019',
        null,
      ]);
      expect((await values("date_format(d, 'MMMM')"))[0]).to.equal('janvier');
      expect((await values("date_format(d, 'MMMM')", { lang: 'en' }))[0]).to.equal('January');
      expect(await matching("date_format(d, 'yyyy') = '2020'")).to.deep.equal([1, 10, 25]);
    });

    it('datetimes are output in ISO 8601 with the offset of the request time zone', async () => {
      const rows = await fixture.rows({
        select: 't',
        where: ['n <= 10'],
        orderBy: 'n',
        timezone: 'Europe/Paris',
      });
      expect(rows.map((r) => r.t)).to.deep.equal(['2020-01-15T11:00:00+01:00', '2020-07-01T01:30:00+02:00']);
    });
  });

  describe('full-text predicates', () => {
    it('search() on one field or on all (* or none)', async () => {
      expect(await matching("search(name, 'gamma')")).to.deep.equal([100]);
      expect(await matching("search(*, 'GAMMA')")).to.deep.equal([100]);
      expect(await matching("search('alpha')")).to.deep.equal([1, 25]);
    });

    it('suggest() matches term prefixes', async () => {
      expect(await matching("suggest(name, 'alph')")).to.deep.equal([1, 25]);
    });

    it('startswith() is a case-sensitive prefix of the whole value, any element of a list', async () => {
      expect(await matching("startswith(name, 'alpha')")).to.deep.equal([25]);
      expect(await matching("startswith(name, 'Al')")).to.deep.equal([1]);
      expect(await matching("startswith(tags, 'gre')")).to.deep.equal([25]);
      expect(await matching("startswith(*, 'Gam')")).to.deep.equal([100]);
    });
  });

  describe('geo predicates and distance', () => {
    it('within_distance(), and distance() as its v2.0 spelling', async () => {
      expect(await matching("within_distance(p, geom'POINT(2.35 48.85)', 10km)")).to.deep.equal([1, 25]);
      expect(await matching("distance(p, geom'POINT(2.35 48.85)', 10km)")).to.deep.equal([1, 25]);
      expect(
        await matching('within_distance(p, geom\'{"type": "Point", "coordinates": [2.35, 48.85]}\', 1km)'),
      ).to.deep.equal([1]);
    });

    it('in_bbox(geo, south, west, north, east)', async () => {
      expect(await matching('in_bbox(p, 48, 2, 49, 3)')).to.deep.equal([1, 25]);
      expect(await matching('in_bbox(p, 40, -75, 41, -73)')).to.deep.equal([100]);
    });

    it('intersects, within, disjoint, and geometry(..., RELATION) of v2.0', async () => {
      expect(await matching(`intersects(p, ${PARIS_POLYGON})`)).to.deep.equal([1, 25]);
      expect(await matching(`within(p, ${PARIS_POLYGON})`)).to.deep.equal([1, 25]);
      expect(await matching(`disjoint(p, ${PARIS_POLYGON})`)).to.deep.equal([10, 50, 100]);
      expect(await matching(`geometry(p, ${PARIS_POLYGON}, INTERSECTS)`)).to.deep.equal([1, 25]);
      expect(await matching(`geometry(p, ${PARIS_POLYGON}, disjoint)`)).to.deep.equal([10, 50, 100]);
      expect(await matching("intersects(s, geom'POINT(2.35 48.85)')")).to.deep.equal([1]);
    });

    it('distance() in select and order_by, in meters', async () => {
      const rows = await fixture.rows({
        select: "n, distance(p, geom'POINT(2.35 48.85)') as m",
        where: ['p is not null'],
        orderBy: "distance(p, geom'POINT(2.35 48.85)')",
      });
      expect(rows.map((r) => r.n)).to.deep.equal([1, 25, 10, 50, 100]);
      expect(rows[0]!.m).to.be.closeTo(0, 1e-6);
      expect(rows[2]!.m).to.be.closeTo(343_500, 2_000);
    });
  });

  describe('select', () => {
    it('* is every field in schema order, in the JSON shapes of supplement 2', async () => {
      const [first] = await fixture.rows({ where: ['n = 1'] });
      expect(Object.keys(first!)).to.deep.equal([
        'name',
        'n',
        'x',
        'ok',
        'd',
        't',
        'p',
        's',
        'tags',
        'j',
        'year',
      ]);
      expect(first).to.deep.include({
        d: '2020-01-15',
        t: '2020-01-15T10:00:00+00:00',
        p: { lon: 2.35, lat: 48.85 },
      });
      expect(first!.tags).to.deep.equal(['red', 'blue']);
      expect(first!.j).to.deep.equal({ a: 1 });
      expect(first!.s).to.deep.include({ type: 'Feature', properties: {} });
      expect((first!.s as { geometry: { type: string } }).geometry.type).to.equal('Polygon');
    });

    it('native output keeps storage values: a shape is its GeoJSON text', async () => {
      const [first] = await fixture.rows({ select: 's, j', where: ['n = 10'] }, 'native');
      expect(JSON.parse(first!.s as string)).to.deep.equal({ type: 'Point', coordinates: [-0.12, 51.5] });
      expect(first!.j).to.equal('[1, 2]');
    });

    it('include() and exclude() narrow *, with prefix wildcards', async () => {
      const [included] = await fixture.rows({ select: 'include(n), include(na*)', where: ['n = 1'] });
      expect(included).to.deep.equal({ name: 'Alpha', n: 1 });
      const [excluded] = await fixture.rows({
        select: '*, exclude(t*), exclude(s), exclude(j), exclude(p)',
        where: ['n = 1'],
      });
      expect(Object.keys(excluded!)).to.deep.equal(['name', 'n', 'x', 'ok', 'd', 'year']);
    });

    it('keys are labels, field names, or the expression as written', async () => {
      const [row] = await fixture.rows({ select: 'n, n*2 AS twice, length(name),`year`', where: ['n = 1'] });
      expect(row).to.deep.equal({ n: 1, twice: 2, 'length(name)': 5, year: 2020 });
    });

    it('a label can be used in where and order_by', async () => {
      const rows = await fixture.rows({
        select: 'n, length(name) as l',
        where: ['l > 5'],
        orderBy: 'l desc',
      });
      expect(rows).to.deep.equal([
        { n: 50, l: 14 },
        { n: 100, l: 9 },
        { n: 25, l: 8 },
      ]);
    });
  });
});
