// v1's query language on v2.1 (`qv1`, as the public service's widgets and this portal's search
// boxes send it): records, exports, facets and the catalog answer as v1's q does, checked against
// plain DuckDB over the same Parquet files.
import { expect } from 'chai';
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
