// The official JS client's other sources under v2.0's two paths: `/api/v2/monitoring/...` and
// `/api/explore/v2.0/monitoring/...` answer the API calls in v2.0's shapes (records nested as
// `{links, record}`, aggregates, lookups), to admins alone, as DuckDB reads the files;
// `/api/v2/opendatasoft/...` is an empty v2.0 catalog, never an unknown path. The client is
// @opendatasoft/api-client, unmodified, its requests moved onto a v2.0 path by its own interceptor.
import { expect } from 'chai';
import odsClient from '@opendatasoft/api-client';
import { duckdbRows, startMonitoredPortal, type MonitoredPortal } from '../../helpers/monitored-portal.js';

const { ApiClient, NotFoundError, UserError, fromDataNetwork, fromMonitoring } = odsClient;
const PREFIXES = ['/api/v2', '/api/explore/v2.0'] as const;
const MONITORING = 'monitoring/datasets/ods-api-monitoring';

type Page = { total_count: number; links: { rel: string; href: string }[]; records: any[] };

/** The official client, every request moved from v2.1's path to `prefix` (its warning of v2.0 left out). */
function v20Client(base: string, prefix: string, apiKey?: string) {
  const client = new ApiClient({
    domain: base,
    ...(apiKey && { apiKey }),
    // eslint-disable-next-line @typescript-eslint/require-await -- the client awaits its interceptor
    interceptRequest: async (request: Request) =>
      new Request(request.url.replace('/api/explore/v2.1/', `${prefix}/`), request),
  });
  return {
    get: <T>(query: Parameters<typeof client.get>[0]) =>
      client.get<T>(query, { hideDeprecatedWarning: true }),
  };
}

describe('v2.0 paths of the monitoring and data network sources', () => {
  let server: MonitoredPortal['server'];
  let admin = '';
  let alice = '';
  let files = '';
  const duckdb = duckdbRows;
  const calls = () => files;

  before(async () => {
    ({ server, admin, alice, calls: files } = await startMonitoredPortal());
    for (const route of ['/api/v2/catalog/datasets/towns/records?limit=1', '/api/v2/catalog/datasets/nope']) {
      await (await server.get(route, { headers: { Authorization: `Apikey ${alice}` } })).arrayBuffer();
    }
    await server.portal.flush();
  });
  after(() => server.close());

  for (const prefix of PREFIXES) {
    it(`${prefix}: the client reads records as records[i].record.fields, with links under the source`, async () => {
      const client = v20Client(server.base, prefix, admin);
      const page = await client.get<Page>(
        fromMonitoring()
          .dataset('ods-api-monitoring')
          .records()
          .select('endpoint, status, user_id')
          .where('user_id = "alice"')
          .orderBy('timestamp')
          .limit(1),
      );
      const expected = await duckdb(
        `SELECT endpoint, status::INTEGER AS status, user_id FROM ${calls()} WHERE user_id = 'alice' ORDER BY timestamp`,
      );
      expect(page.total_count).to.equal(expected.length).and.to.be.at.least(2);
      expect(page.records.map((r) => r.record.fields)).to.deep.equal(expected.slice(0, 1));
      const source = `${server.base}${prefix}/${MONITORING}`;
      const [{ record, links }] = page.records;
      expect(Object.keys(record)).to.deep.equal(['id', 'timestamp', 'size', 'fields']);
      expect(links).to.deep.equal([
        { href: `${source}/records/${encodeURIComponent(record.id)}`, rel: 'self' },
        { href: source, rel: 'datasets' },
      ]);
      expect(page.links.map((l) => l.rel)).to.deep.equal(['self', 'first', 'last', 'next']);
      for (const l of page.links) expect(l.href.startsWith(`${source}/records?`), l.href).to.equal(true);
      // The record's own link answers it, nested as v2.0 writes a record lookup.
      const one = await server.get(links[0].href.slice(server.base.length), {
        headers: { Authorization: `Apikey ${admin}` },
      });
      expect((await one.json()).record.fields.user_id).to.equal('alice');
    });

    it(`${prefix}: aggregates, the dataset lookup, facets and exports, as DuckDB reads the files`, async () => {
      const client = v20Client(server.base, prefix, admin);
      const grouped = await client.get<{ aggregations: unknown[] }>(
        `${MONITORING}/aggregates?select=endpoint, count(*) as n&group_by=endpoint&order_by=endpoint`,
      );
      expect(grouped.aggregations).to.deep.equal(
        await duckdb(`SELECT endpoint, count(*)::INTEGER AS n FROM ${calls()} GROUP BY 1 ORDER BY 1`),
      );
      const lookup = await client.get<{ links: any[]; dataset: any }>(
        fromMonitoring().dataset('ods-api-monitoring').itself(),
      );
      expect(lookup.dataset.dataset_id).to.equal('ods-api-monitoring');
      expect(lookup.links[0]).to.deep.equal({ href: `${server.base}${prefix}/${MONITORING}`, rel: 'self' });
      const catalog = await client.get<{ aggregations: unknown[] }>(
        'monitoring/aggregates?select=count(*) as n',
      );
      expect(catalog.aggregations).to.deep.equal([{ n: 1 }]);
      const facets = await client.get<{ facets: any[]; links: any[] }>(
        fromMonitoring().dataset('ods-api-monitoring').facets().facet('status'),
      );
      const byStatus = await duckdb(
        `SELECT status::INTEGER AS s, count(*)::INTEGER AS n FROM ${calls()} GROUP BY 1`,
      );
      const status = facets.facets.find((f) => f.name === 'status');
      expect(Object.fromEntries(status.facets.map((f: any) => [f.name, f.count]))).to.deep.equal(
        Object.fromEntries(byStatus.map((r) => [String(r.s), r.n])),
      );
      expect(facets.links[0].href).to.equal(`${server.base}${prefix}/${MONITORING}/facets`);
      const csv = await server.get(`${prefix}/${MONITORING}/exports/csv?select=status`, {
        headers: { Authorization: `Apikey ${admin}` },
      });
      expect(csv.status).to.equal(200);
      const [all] = await duckdb(`SELECT count(*)::INTEGER AS n FROM ${calls()}`);
      expect((await csv.text()).trim().split('\n').length - 1).to.equal(all!.n);
    });

    it(`${prefix}: refuses the calls to anyone but an admin (403), and lists the dataset as not visible`, async () => {
      for (const key of [undefined, alice]) {
        const client = v20Client(server.base, prefix, key);
        for (const route of ['records', 'aggregates', 'facets', 'exports/csv']) {
          const refused = await client.get(`${MONITORING}/${route}`).catch((e: unknown) => e);
          expect(refused, route).to.be.instanceOf(UserError);
          expect((refused as InstanceType<typeof UserError>).details).to.include({
            error_code: 'ForbiddenAccess',
          });
        }
        const listed = await client.get<{ datasets: any[] }>(fromMonitoring().datasets());
        expect(listed.datasets.map((d) => [d.dataset.dataset_id, d.dataset.data_visible])).to.deep.equal([
          ['ods-api-monitoring', false],
        ]);
      }
    });

    it(`${prefix}: the data network is an empty v2.0 catalog; a dataset of it is missing, as in the catalog`, async () => {
      const client = v20Client(server.base, prefix);
      const list = await client.get<Page & { datasets: unknown[] }>(fromDataNetwork().datasets().limit(10));
      const self = `${server.base}${prefix}/opendatasoft/datasets`;
      expect(list).to.deep.equal({
        total_count: 0,
        links: [
          { href: `${self}?limit=10`, rel: 'self' },
          { href: `${self}?limit=10&offset=0`, rel: 'first' },
          { href: `${self}?limit=10&offset=0`, rel: 'last' },
        ],
        datasets: [],
      });
      const aggregates = await client.get<{ aggregations: unknown[] }>('opendatasoft/aggregates');
      expect(aggregates.aggregations).to.deep.equal([{ 'count(*)': 0 }]);
      const missing = await client
        .get(fromDataNetwork().dataset('sirene@data').facets().lang('fr'))
        .catch((e) => e);
      expect(missing).to.be.instanceOf(NotFoundError);
      const network = await server.json(`${prefix}/opendatasoft/datasets/sirene@data/records`);
      expect(network).to.deep.equal(await server.json(`${prefix}/catalog/datasets/sirene@data/records`));
    });

    it(`${prefix}: each source's root lists its links, and every answer names the v2.1 path`, async () => {
      for (const name of ['monitoring', 'opendatasoft']) {
        const response = await server.get(`${prefix}/${name}/`);
        const base = `${server.base}${prefix}/${name}`;
        expect((await response.json()).links).to.deep.equal([
          { rel: 'self', href: base },
          ...['datasets', 'exports', 'facets', 'aggregates'].map((rel) => ({ rel, href: `${base}/${rel}` })),
        ]);
        expect(response.headers.get('ODS-Explore-API-Deprecation')).to.include(`/api/explore/v2.1/${name}`);
        const page = await server.get(`${prefix}/${name}/datasets`);
        expect(page.headers.get('ODS-Explore-API-Deprecation')).to.equal(
          `${prefix} is deprecated: use /api/explore/v2.1/${name}/datasets`,
        );
      }
    });
  }

  it('logs a v2.0 source call under its own route, as the v2.1 ones', async () => {
    await (
      await server.get(`/api/v2/${MONITORING}/records?limit=1`, {
        headers: { Authorization: `Apikey ${admin}` },
      })
    ).arrayBuffer();
    await server.portal.flush();
    const rows = await duckdb(`SELECT DISTINCT endpoint FROM ${calls()} WHERE endpoint LIKE '%monitoring%'`);
    expect(rows.map((r) => r.endpoint)).to.include('/api/v2/monitoring/datasets/:dataset_id/records');
  });
});
