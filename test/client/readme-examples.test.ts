// Every example of @opendatasoft/api-client's README, run as written but for the host (the
// domain is this server; a browser's `window.fetch` and `location` are Node's), against a portal
// holding the datasets the examples name: each call answers, and the records are DuckDB's.
import { expect } from 'chai';
import odsClient from '@opendatasoft/api-client';
import { KeyStore } from '../../src/auth/keys.js';
import type { DatasetFile } from '../../src/catalog/schema.js';
import { addFixtureDataset, startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';

const { ApiClient, NotFoundError, UserError } = odsClient;
const { fromCatalog, fromDataNetwork, fromMonitoring, field, string, date, all, one, list } = odsClient;

type Field = DatasetFile['fields'][number];
const text = (name: string, facet = false): Field => ({
  name,
  label: name,
  type: 'text',
  description: null,
  annotations: facet ? { facet: [] } : {},
});
const int = (name: string): Field => ({ name, label: name, type: 'int', description: null, annotations: {} });

/** The README's datasets: doc-geonames-cities-5000 (with the fields its Query example names) and my-dataset. */
async function readmeDatasets(dir: string): Promise<void> {
  await addFixtureDataset(
    dir,
    'doc-geonames-cities-5000',
    `SELECT * FROM (VALUES
       ('c1', 'Paris', 'FR', 2138551, 1, 2, 3, 4, 5, 'value', DATE '2024-01-01', 1, 2),
       ('c2', 'Marseille', 'FR', 870731, 1, 2, 3, 4, 5, 'other', DATE '2024-01-02', 2, 3),
       ('c3', 'Lyon', 'FR', 522250, 1, 2, 3, 4, 5, 'value', DATE '2024-01-02', 3, 4),
       ('c4', 'Berlin', 'DE', 3426354, 1, 2, 3, 4, 5, 'value', DATE '2024-01-03', 4, 5)
     ) t(_recordid, name, country_code, population, f, f1, f2, f3, f4, field, day, a, b)`,
    [
      text('name'),
      text('country_code', true),
      int('population'),
      ...['f', 'f1', 'f2', 'f3', 'f4'].map(int),
      text('field', true),
      { name: 'day', label: 'day', type: 'date', description: null, annotations: {} },
      int('a'),
      int('b'),
    ],
  );
  await addFixtureDataset(
    dir,
    'my-dataset',
    `SELECT '2ee92a48178f784a5babfc06cb42d210cab57f55' AS _recordid, 'one' AS name`,
    [text('name')],
  );
}

describe("@opendatasoft/api-client's README examples against duckportal", () => {
  let server: TestServer;
  let admin = '';

  before(async () => {
    server = await startFixtureServer(
      async (dir) => {
        await readmeDatasets(dir);
        admin = new KeyStore(dir).create('root', ['admin']).key;
      },
      { monitoringDays: 30 },
    );
  });
  after(() => server.close());

  it('Get started: the 10 most populated French cities', async () => {
    const client = new ApiClient({ domain: server.base });
    const query = fromCatalog()
      .dataset('doc-geonames-cities-5000')
      .records()
      .where("country_code:'FR'")
      .groupBy('name as city, population')
      .orderBy('-population')
      .limit(10)
      .toString();
    const response = await client.get<{ results: unknown[] }>(query);
    expect(response.results).to.deep.equal([
      { city: 'Paris', population: 2138551 },
      { city: 'Marseille', population: 870731 },
      { city: 'Lyon', population: 522250 },
    ]);
  });

  it('ApiClient: its options as the README sets them (a wrong key answers 401 through the interceptor)', async () => {
    const options = {
      apiKey: 'secret',
      domain: server.base,
      fetch: globalThis.fetch,
      // eslint-disable-next-line @typescript-eslint/require-await -- as the README writes it
      interceptRequest: async (request: Request) => {
        request.headers.append('x-custom', 'custom');
        return request;
      },
      interceptResponse: async (response: Response) => {
        const apiResponse = await response.json();
        delete apiResponse['links'];
        return apiResponse;
      },
      hideDeprecatedWarning: true,
    };
    const client = new ApiClient(options);
    // interceptResponse reads every answer itself, the 401 of an unknown key included.
    const refused = await client.get<Record<string, unknown>>(fromCatalog().datasets());
    expect(refused).to.include({ error_code: 'InvalidAPIKey' });
    // The same options with a key of the portal: the interceptors see the answer.
    const withKey = new ApiClient({ ...options, apiKey: admin });
    const page = await withKey.get<{ total_count: number }>(fromCatalog().datasets().limit(1));
    expect(page.total_count).to.be.greaterThan(0);
  });

  it("get(): a URL relative to the page's own host", async () => {
    const saved = (globalThis as { location?: unknown }).location;
    (globalThis as { location?: unknown }).location = { origin: server.base };
    try {
      const client = new ApiClient();
      const response = await client.get<{ total_count: number; results: unknown[] }>(
        'catalog/datasets?limit=10',
      );
      expect(response.results).to.have.length(response.total_count);
    } finally {
      (globalThis as { location?: unknown }).location = saved;
    }
  });

  it('Query builder: the three sources and the catalog, each URL as the README comments it', async () => {
    const urls: string[] = [];
    const client = new ApiClient({
      domain: server.base,
      apiKey: admin,
      // eslint-disable-next-line @typescript-eslint/require-await -- as the README writes it
      interceptRequest: async (request) => {
        urls.push(request.url);
        return request;
      },
    });
    const monitoring = await client.get<{ links: { rel: string }[] }>(fromMonitoring().itself());
    expect(monitoring.links.map((l) => l.rel)).to.include('datasets');
    const catalog = await client.get<{ total_count: number }>(fromCatalog().datasets());
    expect(catalog.total_count).to.be.greaterThan(0);
    // The data network of a portal that belongs to none holds no dataset: sirene@data is missing.
    const network = await client
      .get(fromDataNetwork().dataset('sirene@data').facets().lang('fr'))
      .catch((e: unknown) => e);
    expect(network).to.be.instanceOf(NotFoundError);
    const selected = await client.get<{ results: Record<string, unknown>[] }>(
      fromCatalog().datasets().select('dataset_id, records_count'),
    );
    expect(selected.results).to.deep.include({ dataset_id: 'my-dataset', records_count: 1 });
    const record = await client.get<{ name: string }>(
      fromCatalog().dataset('my-dataset').record('2ee92a48178f784a5babfc06cb42d210cab57f55'),
    );
    expect(record.name).to.equal('one');
    const paths = urls.map((u) => new URL(u).pathname.replace('/api/explore/v2.1/', '../'));
    expect(paths).to.deep.equal([
      '../monitoring/',
      '../catalog/datasets/',
      '../opendatasoft/datasets/sirene@data/facets/',
      '../catalog/datasets/',
      '../catalog/datasets/my-dataset/records/2ee92a48178f784a5babfc06cb42d210cab57f55/',
    ]);
    // The monitoring source answers its dataset's records to an admin, as any dataset's.
    const calls = await client.get<{ total_count: number }>(
      fromMonitoring().dataset('ods-api-monitoring').records().limit(1),
    );
    expect(calls.total_count).to.be.at.least(0);
  });

  it('Query interface: the clauses as the README chains them reach the server, which names the problem', async () => {
    const searchTerm = 'Paris';
    const currentLimit = 10;
    const query = fromCatalog()
      .dataset('doc-geonames-cities-5000')
      .records()
      .select('count(*), avg(f)')
      .select(list('f1', 'f2', 'avg(f3) as n'))
      .select((previous) => list(previous, 'avg(f4)'))
      .where('field2 > 2')
      .where('field3 > 3')
      .where((condition) => condition + ' AND field4: 4')
      .where((filter) => all(filter, 'field4:4', 'field5: 5'))
      .where(one('field4:4', 'field5:5'))
      .where(`${field('name')}:${string('paul')}`)
      .where(`${field('day')} < ${date({ year: 2024, month: 1, day: 3 })}`)
      .where(searchTerm && `${field('name')}:${string(searchTerm)}`)
      .groupBy(`${field('day')} , ${field('a')}+${field('b')}`)
      .orderBy('count(*)')
      .limit(10)
      .offset(10)
      .limit(() => currentLimit + 10)
      .refine('field:value')
      .exclude('field:value')
      .lang('fr');
    const client = new ApiClient({ domain: server.base });
    // f1 and f2 are selected but neither grouped nor aggregated: the service refuses it too.
    const refused = await client.get(query).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(UserError);
    expect((refused as InstanceType<typeof UserError>).details).to.include({ error_code: 'QueryLangError' });
    // Its grouping as the README writes it, with the aggregations of its select.
    const grouped = await client.get<{ results: Record<string, unknown>[] }>(
      query.select('count(*) as n, avg(f3) as n3').offset(0).unset('refine').unset('exclude'),
    );
    expect(grouped.results).to.deep.equal([{ day: '2024-01-01', '`a`+`b`': 3, n: 1, n3: 4 }]);
  });
});
