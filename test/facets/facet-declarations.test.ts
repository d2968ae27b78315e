// A `facet(name=..., disjunctive=true)` declaration applies to every operation that filters
// (supplement 3): records, exports and group_by queries OR the refines on that facet, like facets.
import { expect } from 'chai';
import { useSampleSuite } from '../helpers/sample-portal.js';

type Params = [string, string][];

describe('facet() declarations on records and exports (sample portal)', () => {
  const suite = useSampleSuite();

  const get = (prefix: string, path: string, params: Params) =>
    suite.server.json(`${prefix}${path}?${new URLSearchParams(params).toString()}`);
  const total = async (prefix: string, dataset: string, params: Params) => {
    const { status, body } = await get(prefix, `/catalog/datasets/${dataset}/records`, [
      ...params,
      ['limit', '0'],
    ]);
    expect(status, JSON.stringify(body)).to.equal(200);
    return body.total_count as number;
  };
  const exported = async (dataset: string, params: Params) => {
    const { status, body } = await get(
      '/api/explore/v2.1',
      `/catalog/datasets/${dataset}/exports/json`,
      params,
    );
    expect(status, JSON.stringify(body)).to.equal(200);
    return body as Record<string, unknown>[];
  };
  const count = async (sql: string) => Number((await suite.reference.rows(sql))[0]!.n);

  const palauOrUsa: Params = [
    ['facet', 'facet(name="country", disjunctive=true)'],
    ['refine', 'country:USA'],
    ['refine', 'country:Palau'],
  ];

  it('ORs the refines of a facet declared disjunctive on v2.1 and v2.0 records', async () => {
    const n = await count("SELECT count(*) AS n FROM airports WHERE country IN ('USA', 'Palau')");
    expect(n).to.be.greaterThan(3000);
    expect(await total('/api/explore/v2.1', 'airports', palauOrUsa)).to.equal(n);
    expect(await total('/api/explore/v2.0', 'airports', palauOrUsa)).to.equal(n);
  });

  it('ORs them in exports too, v2.1 and v2.0', async () => {
    const n = await count("SELECT count(*) AS n FROM airports WHERE country IN ('USA', 'Palau')");
    expect((await exported('airports', palauOrUsa)).length).to.equal(n);
    const csv = await suite.server.get(
      `/api/explore/v2.0/catalog/datasets/airports/exports/csv?${new URLSearchParams(palauOrUsa).toString()}`,
    );
    expect(csv.status).to.equal(200);
    const lines = (await csv.text()).split('\n').filter((l) => l !== '');
    expect(lines.length - 1).to.equal(n);
  });

  it('ORs them under group_by', async () => {
    const { status, body } = await get('/api/explore/v2.1', '/catalog/datasets/airports/records', [
      ...palauOrUsa,
      ['select', 'country, count(*) AS n'],
      ['group_by', 'country'],
      ['order_by', 'country'],
    ]);
    expect(status, JSON.stringify(body)).to.equal(200);
    const expected = await suite.reference.rows(
      "SELECT country, count(*)::INTEGER AS n FROM airports WHERE country IN ('USA', 'Palau') GROUP BY country ORDER BY country",
    );
    expect(body.results).to.deep.equal(expected);
  });

  it('keeps ANDing the refines of a facet without the declaration, or declared not disjunctive', async () => {
    const refines = palauOrUsa.slice(1);
    expect(await total('/api/explore/v2.1', 'airports', refines)).to.equal(0);
    expect((await exported('airports', refines)).length).to.equal(0);
    const declaredNot: Params = [['facet', 'facet(name="country", disjunctive=false)'], ...refines];
    expect(await total('/api/explore/v2.1', 'airports', declaredNot)).to.equal(0);
  });

  it('lets a declaration turn off the disjunctive annotation of a field', async () => {
    const refines: Params = [
      ['refine', 'origin:SFO'],
      ['refine', 'origin:LAX'],
    ];
    const either = await count("SELECT count(*) AS n FROM flights WHERE origin IN ('SFO', 'LAX')");
    expect(await total('/api/explore/v2.1', 'flights', refines)).to.equal(either);
    const anded = [['facet', 'facet(name="origin", disjunctive=false)'], ...refines] as Params;
    expect(await total('/api/explore/v2.1', 'flights', anded)).to.equal(0);
  });

  it('ORs the refines of a multivalued facet declared disjunctive, per element', async () => {
    const refines: Params = [
      ['refine', 'types:shakemap'],
      ['refine', 'types:dyfi'],
    ];
    const any = await count(
      "SELECT count(*) AS n FROM earthquakes WHERE list_has_any(types, ['shakemap', 'dyfi'])",
    );
    const all = await count(
      "SELECT count(*) AS n FROM earthquakes WHERE list_has_all(types, ['shakemap', 'dyfi'])",
    );
    expect(any).to.be.greaterThan(all);
    const declared: Params = [['facet', 'facet(name="types", disjunctive=true)'], ...refines];
    expect(await total('/api/explore/v2.1', 'earthquakes', declared)).to.equal(any);
    expect((await exported('earthquakes', declared)).length).to.equal(any);
    expect(await total('/api/explore/v2.1', 'earthquakes', refines)).to.equal(all);
  });

  it('answers 400 naming the facet parameter when a declaration on records is wrong', async () => {
    for (const facet of [
      'facet(name="nope", disjunctive=true)',
      'facet(name="country", disjunctive=maybe)',
    ]) {
      const { status, body } = await get('/api/explore/v2.1', '/catalog/datasets/airports/records', [
        ['facet', facet],
      ]);
      expect(status, facet).to.equal(400);
      expect(body.error_code).to.equal('QueryLangError');
      expect(body.message).to.match(/nope|maybe/);
      expect(body.message).to.contain('facet');
    }
  });
});
