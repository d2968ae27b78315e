// facet= takes a function of fields as group_by does (explore-api.md: "a facet field, or a
// function such as a grouping function"): each bucket's count is checked against a DuckDB
// GROUP BY over the Parquet files, and its value against the group_by key /records writes.
import { expect } from 'chai';
import { useSampleSuite } from '../helpers/sample-portal.js';

const V21 = '/api/explore/v2.1';

type Params = [string, string][];

describe('facets on functions: range() and the date parts (sample portal)', () => {
  const suite = useSampleSuite();

  const get = (path: string, params: Params) =>
    suite.server.json(`${V21}${path}?${new URLSearchParams(params).toString()}`);
  const facetGroups = async (dataset: string, params: Params) => {
    const { status, body } = await get(`/catalog/datasets/${dataset}/facets`, params);
    expect(status, JSON.stringify(body)).to.equal(200);
    return body.facets as { name: string; facets: { name: string; value: string; count: number }[] }[];
  };
  const countsOf = (values: { value: string; count: number }[]) =>
    Object.fromEntries(values.map((v) => [v.value, v.count]));
  const expected = async (sql: string) =>
    Object.fromEntries((await suite.reference.rows(sql)).map((r) => [String(r.v), Number(r.n)]));
  /** The group_by answer of /records for the same expression: its keys are the facet's values. */
  const grouped = async (dataset: string, expression: string, params: Params = []) => {
    const { status, body } = await get(`/catalog/datasets/${dataset}/records`, [
      ...params,
      ['select', 'count(*) AS n'],
      ['group_by', `${expression} AS k`],
      ['limit', '1000'],
    ]);
    expect(status, JSON.stringify(body)).to.equal(200);
    return Object.fromEntries(
      (body.results as { k: unknown; n: number }[])
        .filter((r) => r.k !== null)
        .map((r) => [String(r.k), r.n]),
    );
  };

  it('counts static range() buckets with open ends, named by the expression as written', async () => {
    const facet = 'range(delay, *, 90, 120, *)';
    const [group] = await facetGroups('flights', [['facet', facet]]);
    expect(group!.name).to.equal(facet);
    expect(group!.facets.map((v) => v.name).sort()).to.deep.equal(['[*, 89]', '[120, *]', '[90, 119]']);
    expect(group!.facets.every((v) => v.name === v.value)).to.equal(true);
    expect(countsOf(group!.facets)).to.deep.equal(
      await expected(
        `SELECT CASE WHEN delay < 90 THEN '[*, 89]' WHEN delay < 120 THEN '[90, 119]' ELSE '[120, *]' END AS v,
                count(*) AS n FROM flights WHERE delay IS NOT NULL GROUP BY v`,
      ),
    );
    expect(countsOf(group!.facets)).to.deep.equal(await grouped('flights', facet));
  });

  it('leaves out the rows outside closed range() bounds', async () => {
    const [group] = await facetGroups('flights', [['facet', 'range(distance, 100, 500, 1000)']]);
    expect(countsOf(group!.facets)).to.deep.equal(
      await expected(
        `SELECT CASE WHEN distance < 500 THEN '[100, 499]' ELSE '[500, 999]' END AS v, count(*) AS n
         FROM flights WHERE distance >= 100 AND distance < 1000 GROUP BY v`,
      ),
    );
  });

  it('counts equal-width range() buckets, labelled [low, high] as group_by writes them', async () => {
    const facet = 'range(distance, 500)';
    const [group] = await facetGroups('flights', [['facet', `facet(name="${facet}", limit=1000)`]]);
    expect(group!.name).to.equal(facet);
    expect(countsOf(group!.facets)).to.deep.equal(
      await expected(
        `SELECT '[' || (floor(distance / 500) * 500)::BIGINT || ', ' || (floor(distance / 500) * 500 + 499)::BIGINT || ']' AS v,
                count(*) AS n FROM flights WHERE distance IS NOT NULL GROUP BY v`,
      ),
    );
    expect(countsOf(group!.facets)).to.deep.equal(await grouped('flights', facet));
  });

  it('counts fractional range() widths over a double field', async () => {
    const facet = 'range(mag, 0.5)';
    const [group] = await facetGroups('earthquakes', [['facet', facet]]);
    const byLow = await expected(
      `SELECT floor(mag / 0.5) * 0.5 AS v, count(*) AS n FROM earthquakes WHERE mag IS NOT NULL GROUP BY v`,
    );
    expect(Object.values(countsOf(group!.facets)).sort()).to.deep.equal(Object.values(byLow).sort());
    expect(countsOf(group!.facets)).to.deep.equal(await grouped('earthquakes', facet));
    expect(group!.facets.map((v) => v.value)).to.include('1.5-2');
  });

  it('counts the date parts year, month, day, hour, minute and second', async () => {
    const cases: [string, string, string][] = [
      ['seattle-weather', 'year(date)', 'year(date)'],
      ['seattle-weather', 'month(date)', 'month(date)'],
      ['seattle-weather', 'day(date)', 'day(date)'],
      ['flights', 'hour(date)', "hour(timezone('UTC', date))"],
      ['flights', 'minute(date)', "minute(timezone('UTC', date))"],
      ['flights', 'second(date)', "second(timezone('UTC', date))"],
    ];
    for (const [dataset, facet, sql] of cases) {
      const [group] = await facetGroups(dataset, [['facet', `facet(name="${facet}", limit=100)`]]);
      expect(group!.name).to.equal(facet);
      const table = `"${dataset}"`;
      expect(countsOf(group!.facets), facet).to.deep.equal(
        await expected(`SELECT ${sql} AS v, count(*) AS n FROM ${table} WHERE date IS NOT NULL GROUP BY v`),
      );
    }
  });

  it('reads datetime parts in the request timezone', async () => {
    const [group] = await facetGroups('flights', [
      ['facet', 'hour(date)'],
      ['timezone', 'America/New_York'],
    ]);
    expect(countsOf(group!.facets)).to.deep.equal(
      await expected(
        `SELECT hour(timezone('America/New_York', date)) AS v, count(*) AS n FROM flights GROUP BY v`,
      ),
    );
  });

  it('counts a date range() width, each bucket written as group_by writes it', async () => {
    const facet = 'range(date, 1month)';
    const [group] = await facetGroups('seattle-weather', [['facet', `facet(name="${facet}", limit=100)`]]);
    expect(group!.facets).to.have.length(48);
    expect(countsOf(group!.facets)).to.deep.equal(
      await expected(
        `SELECT strftime(date_trunc('month', date), '%Y-%m-%d') AS v, count(*) AS n FROM "seattle-weather" GROUP BY v`,
      ),
    );
    expect(countsOf(group!.facets)).to.deep.equal(await grouped('seattle-weather', facet));
  });

  it('counts function facets beside field facets under the same refine and where', async () => {
    const params: Params = [
      ['where', 'delay > 0'],
      ['refine', 'origin:SFO'],
    ];
    const groups = await facetGroups('flights', [
      ...params,
      ['facet', 'range(delay, *, 90, 120, *)'],
      ['facet', 'destination'],
      ['facet', 'facet(name="hour(date)", sort="alphanum")'],
    ]);
    expect(groups.map((g) => g.name)).to.deep.equal([
      'range(delay, *, 90, 120, *)',
      'destination',
      'hour(date)',
    ]);
    expect(countsOf(groups[0]!.facets)).to.deep.equal(
      await expected(
        `SELECT CASE WHEN delay < 90 THEN '[*, 89]' WHEN delay < 120 THEN '[90, 119]' ELSE '[120, *]' END AS v,
                count(*) AS n FROM flights WHERE delay > 0 AND origin = 'SFO' GROUP BY v`,
      ),
    );
    expect(countsOf(groups[1]!.facets)).to.deep.equal(
      await expected(
        `SELECT destination AS v, count(*) AS n FROM flights WHERE delay > 0 AND origin = 'SFO' GROUP BY v`,
      ),
    );
    const hours = groups[2]!.facets.map((v) => v.value);
    expect(hours).to.deep.equal([...hours].sort());
  });

  it('counts a function facet on the v1 record search too', async () => {
    const { status, body } = await suite.server.json(
      '/api/records/1.0/search/?dataset=seattle-weather&rows=0&facet=year(date)',
    );
    expect(status).to.equal(200);
    const [group] = body.facet_groups as { name: string; facets: { path: string; count: number }[] }[];
    expect(group!.name).to.equal('year(date)');
    expect(Object.fromEntries(group!.facets.map((v) => [v.path, v.count]))).to.deep.equal(
      await expected('SELECT year(date) AS v, count(*) AS n FROM "seattle-weather" GROUP BY v'),
    );
  });

  it('answers 400 QueryLangError naming the function or the argument, never a 500', async () => {
    const cases: [string, RegExp][] = [
      ['nosuch(date)', /nosuch/],
      ['range(delay)', /range/],
      ['range(delay, 0)', /range\(\) on a number expects a positive width/],
      ['range(delay, 90, 60)', /increasing/],
      ['range(origin, 10)', /range\(\) expects a number or date field/],
      ['year(origin)', /year/],
      ['year(nope)', /nope/],
      ['count(*)', /count/],
      ['range(date, 1lightyear)', /lightyear/],
      ['range(delay, 10) AS d', /label/],
      ['year(date', /year\(date|expected|unexpected/i],
    ];
    for (const [facet, message] of cases) {
      const { status, body } = await get('/catalog/datasets/flights/facets', [['facet', facet]]);
      expect(status, `${facet}: ${JSON.stringify(body)}`).to.equal(400);
      expect(body.error_code, facet).to.equal('QueryLangError');
      expect(body.message, facet).to.match(message);
      expect(body.message, facet).to.contain('facet');
    }
  });

  it('refuses a function of a multivalued field, which has no single value per record', async () => {
    const { status, body } = await get('/catalog/datasets/earthquakes/facets', [
      ['facet', 'ifnull(types, "none")'],
    ]);
    expect(status).to.equal(400);
    expect(body.message).to.contain('types').and.to.contain('multivalued');
  });
});
