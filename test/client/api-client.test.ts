// The official client, @opendatasoft/api-client, unmodified, against a running duckportal: the
// catalog, records with the ODSQL clauses, facets, refine, an export URL and its error classes.
import { expect } from 'chai';
import odsClient from '@opendatasoft/api-client';
import { makePrivate, startFixtureServer } from '../helpers/fixture-portal.js';
import { useSampleSuite } from '../helpers/sample-portal.js';
import type { TestServer } from '../helpers/server.js';

const { ApiClient, AuthenticationError, NotFoundError, UserError, fromCatalog } = odsClient;

type Page = { total_count: number; results: Record<string, unknown>[] };

describe('@opendatasoft/api-client against duckportal (sample portal)', () => {
  const suite = useSampleSuite();
  let client: InstanceType<typeof ApiClient>;

  before(() => {
    // A full URL as domain: the client then talks to it as it would to a portal's own domain.
    client = new ApiClient({ domain: suite.server.base, hideDeprecatedWarning: true });
  });

  it('lists the catalog', async () => {
    const page = await client.get<Page>(fromCatalog().datasets().limit(10).orderBy('dataset_id'));
    expect(page.total_count).to.equal(5);
    expect(page.results.map((d) => d.dataset_id)).to.deep.equal([
      'airports',
      'earthquakes',
      'flights',
      'movies',
      'seattle-weather',
    ]);
  });

  it('looks up a dataset', async () => {
    const dataset = await client.get<{ dataset_id: string; metas: { default: { records_count: number } } }>(
      fromCatalog().dataset('movies').itself(),
    );
    expect(dataset.dataset_id).to.equal('movies');
    expect(dataset.metas.default.records_count).to.equal(3201);
  });

  it('queries records with where, select, group_by, order_by and limit', async () => {
    const query = fromCatalog()
      .dataset('airports')
      .records()
      .select('state, count(*) AS n')
      .where('country = "USA" AND latitude >= 40')
      .groupBy('state')
      .orderBy('n DESC, state')
      .limit(3);
    const page = await client.get<Page>(query);
    const expected = await suite.reference.rows(
      `SELECT state, count(*)::INTEGER AS n FROM airports WHERE country = 'USA' AND latitude >= 40
       GROUP BY state ORDER BY n DESC, state LIMIT 3`,
    );
    expect(page.results).to.deep.equal(expected);
  });

  it('reads one record', async () => {
    const record = await client.get<{ iata: string; city: string }>(
      fromCatalog().dataset('airports').record('SFO').select('iata, city'),
    );
    expect(record).to.deep.equal({ iata: 'SFO', city: 'San Francisco' });
  });

  it('enumerates facets and refines on them', async () => {
    const facets = await client.get<{
      facets: { name: string; facets: { name: string; count: number }[] }[];
    }>(fromCatalog().dataset('seattle-weather').facets().facet('weather'));
    const weather = facets.facets.find((f) => f.name === 'weather')!;
    const expected = await suite.reference.rows(
      `SELECT weather, count(*)::INTEGER AS n FROM "seattle-weather" GROUP BY weather`,
    );
    expect(Object.fromEntries(weather.facets.map((f) => [f.name, f.count]))).to.deep.equal(
      Object.fromEntries(expected.map((r) => [r.weather, r.n])),
    );
    const refined = await client.get<Page>(
      fromCatalog().dataset('seattle-weather').records().refine('weather:sun').limit(0),
    );
    expect(refined.total_count).to.equal(expected.find((r) => r.weather === 'sun')!.n);
  });

  it('builds an export URL that the server answers', async () => {
    const query = fromCatalog().dataset('airports').export('csv').where('state = "NV"').select('iata, city');
    const response = await fetch(new URL(query.toString(), client.defaultConfig.baseUrl));
    expect(response.status).to.equal(200);
    const lines = (await response.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).to.equal('iata;city');
    const [row] = await suite.reference.rows(
      `SELECT count(*)::INTEGER AS n FROM airports WHERE state = 'NV'`,
    );
    expect(lines.length - 1).to.equal(row!.n);
  });

  it('raises NotFoundError for 404 and UserError for 400', async () => {
    const missing = await client.get(fromCatalog().dataset('nope').itself()).catch((e: unknown) => e);
    expect(missing).to.be.instanceOf(NotFoundError);
    expect((missing as InstanceType<typeof NotFoundError>).response.status).to.equal(404);
    const wrong = await client
      .get(fromCatalog().dataset('airports').records().where('nofield = 1'))
      .catch((e: unknown) => e);
    expect(wrong).to.be.instanceOf(UserError);
    expect(wrong).not.to.be.instanceOf(NotFoundError);
    expect((wrong as InstanceType<typeof UserError>).details).to.include({ error_code: 'QueryLangError' });
  });
});

describe('@opendatasoft/api-client against a private portal', () => {
  let server: TestServer;
  let key: string;

  before(async () => {
    server = await startFixtureServer(async (dir) => {
      key = await makePrivate(dir);
    });
  });
  after(() => server.close());

  it('raises AuthenticationError without a key, and answers with one', async () => {
    const anonymous = new ApiClient({ domain: server.base });
    const refused = await anonymous.get(fromCatalog().datasets()).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(AuthenticationError);
    const withKey = new ApiClient({ domain: server.base, apiKey: key });
    const page = await withKey.get<Page>(fromCatalog().datasets());
    expect(page.total_count).to.be.greaterThan(0);
  });
});
