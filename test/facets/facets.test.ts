// Facets, refine and exclude on the sample portal; every count is checked against a plain
// `count(*) ... GROUP BY` over the Parquet files in a separate DuckDB.
import { expect } from 'chai';
import { useSampleSuite } from '../helpers/sample-portal.js';

const V21 = '/api/explore/v2.1';

type Params = [string, string][];

describe('facets, refine and exclude (sample portal)', () => {
  const suite = useSampleSuite();

  const get = (path: string, params: Params) =>
    suite.server.json(`${V21}${path}?${new URLSearchParams(params).toString()}`);
  const facets = async (dataset: string, params: Params) => {
    const { status, body } = await get(`/catalog/datasets/${dataset}/facets`, params);
    expect(status, JSON.stringify(body)).to.equal(200);
    return Object.fromEntries(body.facets.map((f: any) => [f.name, f.facets])) as Record<string, any[]>;
  };
  const total = async (dataset: string, params: Params) =>
    (await get(`/catalog/datasets/${dataset}/records`, [...params, ['limit', '0']])).body
      .total_count as number;
  const counts = (values: any[]) => Object.fromEntries(values.map((v) => [v.value, v.count]));
  const expected = async (sql: string) =>
    Object.fromEntries((await suite.reference.rows(sql)).map((r) => [String(r.v), r.n])) as Record<
      string,
      number
    >;

  it('enumerates every annotated facet when none is asked, in the shape of supplement 2', async () => {
    const { body } = await get('/catalog/datasets/airports/facets', []);
    expect(body.links).to.deep.equal([
      { rel: 'self', href: `${suite.server.base}${V21}/catalog/datasets/airports/facets` },
    ]);
    expect(body.facets.map((f: any) => f.name)).to.deep.equal(['state', 'country', 'location']);
    expect(body.facets[1].facets[0]).to.deep.equal({
      name: 'USA',
      value: 'USA',
      count: 3372,
      state: 'displayed',
    });
  });

  it('counts a plain facet exactly, in its facetsort order (-count)', async () => {
    const weather = (await facets('seattle-weather', [['facet', 'weather']])).weather!;
    expect(counts(weather)).to.deep.equal(
      await expected('SELECT weather AS v, count(*)::INTEGER AS n FROM "seattle-weather" GROUP BY weather'),
    );
    const ordered = weather.map((v) => v.count);
    expect(ordered).to.deep.equal([...ordered].sort((a, b) => b - a));
  });

  it('ORs the values of a disjunctive facet and keeps counting its alternatives', async () => {
    const refine: Params = [
      ['refine', 'origin:SFO'],
      ['refine', 'origin:"LAX"'],
    ];
    const [both] = await suite.reference.rows(
      "SELECT count(*)::INTEGER AS n FROM flights WHERE origin IN ('SFO', 'LAX')",
    );
    expect(await total('flights', refine)).to.equal(both!.n);
    const result = await facets('flights', [
      ...refine,
      ['facet', 'facet(name="origin", limit=5)'],
      ['facet', 'destination'],
    ]);
    const all = await expected('SELECT origin AS v, count(*)::INTEGER AS n FROM flights GROUP BY origin');
    const origin = counts(result.origin!);
    expect(origin.SFO).to.equal(all.SFO);
    expect(origin.LAX).to.equal(all.LAX);
    expect(origin.ORD).to.equal(all.ORD);
    expect(result.origin!.filter((v) => v.state === 'refined').map((v) => v.value)).to.have.members([
      'SFO',
      'LAX',
    ]);
    const destinations = await expected(
      "SELECT destination AS v, count(*)::INTEGER AS n FROM flights WHERE origin IN ('SFO', 'LAX') GROUP BY destination",
    );
    for (const value of result.destination!)
      expect(value.count, value.value).to.equal(destinations[value.value]);
  });

  it('ANDs the values of a facet that is not disjunctive', async () => {
    expect(
      await total('movies', [
        ['refine', 'mpaa_rating:R'],
        ['refine', 'mpaa_rating:PG'],
      ]),
    ).to.equal(0);
  });

  it('nests a hierarchical text facet on its separator under the refined value', async () => {
    const { location } = await facets('airports', [
      ['facet', 'location'],
      ['refine', 'location:USA'],
    ]);
    const [usa] = location!;
    expect(usa).to.include({ name: 'USA', value: 'USA', state: 'refined', count: 3372 });
    const states = await expected(
      "SELECT location AS v, count(*)::INTEGER AS n FROM airports WHERE starts_with(location, 'USA/') GROUP BY location",
    );
    expect(usa.facets.length).to.equal(Object.keys(states).length);
    for (const state of usa.facets) {
      expect(state.count, state.value).to.equal(states[state.value]);
      expect(state.name).to.equal(state.value.slice('USA/'.length));
    }
    expect(await total('airports', [['refine', 'location:USA/CA']])).to.equal(states['USA/CA']);
  });

  it('nests a date facet year -> month -> day, only under refined values', async () => {
    const top = await facets('seattle-weather', [['facet', 'date']]);
    expect(counts(top.date!)).to.deep.equal(
      await expected(
        `SELECT strftime(date, '%Y') AS v, count(*)::INTEGER AS n FROM "seattle-weather" GROUP BY v`,
      ),
    );
    expect(top.date!.every((year) => year.facets === undefined)).to.equal(true);
    const { date } = await facets('seattle-weather', [
      ['facet', 'date'],
      ['refine', 'date:2013/02'],
    ]);
    expect(date).to.have.length(1);
    const [year] = date!;
    expect(year).to.include({ value: '2013', state: 'refined', count: 28 });
    expect(year.facets.map((m: any) => [m.value, m.state])).to.deep.equal([['2013/02', 'refined']]);
    const days = year.facets[0].facets;
    expect(days.map((d: any) => d.name)).to.deep.equal(
      Array.from({ length: 28 }, (_, i) => String(i + 1).padStart(2, '0')),
    );
    expect(days.every((d: any) => d.count === 1 && d.state === 'displayed')).to.equal(true);
  });

  it('reads datetime facets and refinements in the request timezone', async () => {
    const { date } = await facets('flights', [
      ['facet', 'date'],
      ['refine', 'date:2001/01/01'],
      ['timezone', 'Asia/Tokyo'],
    ]);
    const tokyo = await suite.reference.rows(
      `SELECT count(*)::INTEGER AS n FROM flights WHERE strftime(timezone('Asia/Tokyo', date), '%Y/%m/%d') = '2001/01/01'`,
    );
    const day = date![0].facets[0].facets[0];
    expect(day).to.include({ value: '2001/01/01', state: 'refined', count: tokyo[0]!.n });
    expect(
      await total('flights', [
        ['refine', 'date:2001/01/01'],
        ['timezone', 'Asia/Tokyo'],
      ]),
    ).to.equal(tokyo[0]!.n);
  });

  it('counts and refines a multivalued facet per element', async () => {
    const { major_genre } = await facets('movies', [['facet', 'facet(name="major_genre", limit=100)']]);
    expect(counts(major_genre!)).to.deep.equal(
      await expected(
        'SELECT v, count(*)::INTEGER AS n FROM (SELECT unnest(major_genre) AS v FROM movies) GROUP BY v',
      ),
    );
    const [dramas] = await suite.reference.rows(
      "SELECT count(*)::INTEGER AS n FROM movies WHERE list_contains(major_genre, 'Drama')",
    );
    expect(await total('movies', [['refine', 'major_genre:Drama']])).to.equal(dramas!.n);
  });

  it('lists an excluded value without a count, and removes its records', async () => {
    const { mpaa_rating } = await facets('movies', [
      ['facet', 'mpaa_rating'],
      ['exclude', 'mpaa_rating:R'],
    ]);
    expect(mpaa_rating!.find((v) => v.value === 'R')).to.deep.equal({
      name: 'R',
      value: 'R',
      state: 'excluded',
    });
    const [kept] = await suite.reference.rows(
      "SELECT count(*)::INTEGER AS n FROM movies WHERE mpaa_rating IS DISTINCT FROM 'R'",
    );
    expect(await total('movies', [['exclude', 'mpaa_rating:R']])).to.equal(kept!.n);
  });

  it('combines refine with where, on records and on facets', async () => {
    const params: Params = [
      ['where', 'delay > 60'],
      ['refine', 'destination:JFK'],
    ];
    const [n] = await suite.reference.rows(
      "SELECT count(*)::INTEGER AS n FROM flights WHERE delay > 60 AND destination = 'JFK'",
    );
    expect(await total('flights', params)).to.equal(n!.n);
    const { origin } = await facets('flights', [...params, ['facet', 'origin']]);
    const byOrigin = await expected(
      "SELECT origin AS v, count(*)::INTEGER AS n FROM flights WHERE delay > 60 AND destination = 'JFK' GROUP BY origin",
    );
    expect(counts(origin!)).to.deep.equal(byOrigin);
  });

  it('sorts by each order and caps the values', async () => {
    const sorted = async (sort: string) =>
      (await facets('movies', [['facet', `facet(name="mpaa_rating", sort="${sort}", limit=3)`]]))
        .mpaa_rating!;
    const byCount = await expected(
      'SELECT mpaa_rating AS v, count(*)::INTEGER AS n FROM movies WHERE mpaa_rating IS NOT NULL GROUP BY v',
    );
    const values = Object.entries(byCount);
    const top = (order: (a: [string, number], b: [string, number]) => number) =>
      [...values]
        .sort(order)
        .slice(0, 3)
        .map(([v]) => v);
    expect((await sorted('-count')).map((v) => v.value)).to.deep.equal(
      top((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
    );
    expect((await sorted('count')).map((v) => v.value)).to.deep.equal(
      top((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1)),
    );
    expect((await sorted('alphanum')).map((v) => v.value)).to.deep.equal(
      top((a, b) => (a[0] < b[0] ? -1 : 1)),
    );
    expect((await sorted('-alphanum')).map((v) => v.value)).to.deep.equal(
      top((a, b) => (a[0] < b[0] ? 1 : -1)),
    );
    const states = (await facets('airports', [['facet', 'state']])).state!.map((v) => v.value);
    expect(states).to.deep.equal([...states].sort());
  });

  it('enumerates the catalog facets over dataset metas', async () => {
    const { status, body } = await get('/catalog/facets', []);
    expect(status).to.equal(200);
    const byName = Object.fromEntries(body.facets.map((f: any) => [f.name, counts(f.facets)]));
    expect(byName.theme).to.deep.equal({ Transport: 2, Environment: 2, Science: 1, Culture: 1 });
    expect(byName.features).to.deep.include({ analyze: 5, geo: 2 });
    expect(byName.language).to.deep.equal({ en: 5 });
    const refined = await get('/catalog/facets', [
      ['refine', 'theme:Environment'],
      ['facet', 'features'],
    ]);
    expect(counts(refined.body.facets[0].facets)).to.deep.include({ analyze: 2, geo: 1 });
    const listed = await get('/catalog/datasets', [
      ['refine', 'theme:Environment'],
      ['select', 'dataset_id'],
    ]);
    expect(listed.body.total_count).to.equal(2);
  });

  it('answers 400 QueryLangError naming facet, refine or exclude', async () => {
    const cases: [Params, RegExp][] = [
      [[['facet', 'nope']], /^Unknown field: nope\. Clause\(s\) containing the error\(s\): facet\.$/],
      [[['facet', 'facet(name="weather", sort="random")']], /sort must be one of .*facet\.$/],
      [[['facet', 'facet(nam="weather")']], /no argument nam.*facet\.$/],
      [[['refine', 'nope:1']], /^Unknown field: nope\. .*refine\.$/],
      [[['refine', 'date:2013/13']], /Invalid date facet value 2013\/13.*refine\.$/],
      [[['exclude', 'weather']], /Expected facet:value.*exclude\.$/],
    ];
    for (const [params, message] of cases) {
      const { status, body } = await get('/catalog/datasets/seattle-weather/facets', params);
      expect(status, JSON.stringify(params)).to.equal(400);
      expect(body.error_code).to.equal('QueryLangError');
      expect(body.message).to.match(message);
    }
  });
});
