// v1's query language on v2.1 (`qv1`, as the public service's widgets and this portal's search
// boxes send it): records, exports, facets and the catalog answer as v1's q does, checked against
// plain DuckDB over the same Parquet files.
import { expect } from 'chai';
import { addFixtureDataset, startFixtureServer } from '../helpers/fixture-portal.js';
import { useSampleSuite } from '../helpers/sample-portal.js';

const V21 = '/api/explore/v2.1/catalog';

describe('qv1 on v2.1 (sample portal)', () => {
  const suite = useSampleSuite();
  const count = async (sql: string): Promise<number> =>
    Number((await suite.reference.rows(`SELECT count(*)::INTEGER AS n FROM ${sql}`))[0]!.n);
  const qv1 = (q: string) => `qv1=${encodeURIComponent(q)}`;

  it('records: qv1 with where, ANDed, counted as DuckDB counts', async () => {
    const { status, body } = await suite.server.json(
      `${V21}/datasets/seattle-weather/records?limit=0&${qv1('weather:(rain OR snow) date<=2013/02')}&where=temp_max>5`,
    );
    expect(status, JSON.stringify(body)).to.equal(200);
    expect(body.total_count).to.equal(
      await count(
        `"seattle-weather" WHERE weather IN ('rain', 'snow') AND date < '2013-03-01' AND temp_max > 5`,
      ),
    );
  });

  it('facets and exports read qv1 too', async () => {
    const q = qv1('state:CA AND latitude>=38');
    const expected = await count(`airports WHERE state = 'CA' AND latitude >= 38`);
    const facets = await suite.server.json(`${V21}/datasets/airports/facets?facet=state&${q}`);
    const state = facets.body.facets.find((f: { name: string }) => f.name === 'state');
    expect(state.facets).to.deep.equal([{ name: 'CA', count: expected, state: 'displayed', value: 'CA' }]);
    const csv = await (
      await suite.server.get(`${V21}/datasets/airports/exports/csv?select=iata&${q}`)
    ).text();
    expect(csv.trim().split(/\r?\n/)).to.have.length(expected + 1);
  });

  it('the catalog reads qv1 over the metas', async () => {
    const { body } = await suite.server.json(
      `${V21}/datasets?limit=0&${qv1('records_count >= 3000 AND NOT title:weather')}`,
    );
    expect(body.total_count).to.equal(3);
  });

  it('a qv1 it cannot read is a 400 naming q', async () => {
    const { status, body } = await suite.server.json(
      `${V21}/datasets/airports/records?${qv1('latitude>=north')}`,
    );
    expect(status).to.equal(400);
    expect(body.message).to.match(/north is not a number for field latitude/);
  });
});

describe('qv1 over fields named like ODSQL keywords (fixture portal)', () => {
  // v1's q has no reserved words but its operators: a field named `count`, `not` or `to` is read
  // as the field (ODSQL would want it back-quoted; the q reader quotes every name it resolves).
  const field = (name: string) =>
    ({ name, label: name, type: 'int', description: null, annotations: {} }) as const;
  let server: Awaited<ReturnType<typeof startFixtureServer>>;
  before(async () => {
    server = await startFixtureServer((dir) =>
      addFixtureDataset(
        dir,
        'tallies',
        `SELECT 'r' || i AS _recordid, i AS "count", i % 2 AS "not", i % 3 AS "to" FROM range(10) t(i)`,
        [field('count'), field('not'), field('to')],
      ),
    );
  });
  after(() => server.close());

  for (const [q, expected] of [
    ['count:[3 TO *]', 7],
    ['count>=8', 2],
    ['count:4', 1],
    ['not:1 AND to:0', 2],
    ['NOT not:1', 5],
    ['#null(count)', 0],
  ] as const) {
    it(`${q} counts ${expected}`, async () => {
      const { status, body } = await server.json(
        `${V21}/datasets/tallies/records?limit=0&qv1=${encodeURIComponent(q)}`,
      );
      expect(status, JSON.stringify(body)).to.equal(200);
      expect(body.total_count).to.equal(expected);
    });
  }
});
