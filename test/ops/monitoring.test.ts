// The monitoring source (`/api/explore/v2.1/monitoring/datasets/ods-api-monitoring/...`): the
// portal's API calls kept in Parquet under the portal folder, queried by admins with ODSQL like
// any dataset; checked against the requests the test sent and against DuckDB reading the files.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import { duckdbRows, startMonitoredPortal, type MonitoredPortal } from '../helpers/monitored-portal.js';
import type { TestServer } from '../helpers/server.js';

const MONITORING = '/api/explore/v2.1/monitoring/datasets/ods-api-monitoring';

describe('monitoring: the API calls as a dataset admins query', () => {
  let server: MonitoredPortal['server'];
  let admin = '';
  let alice = '';
  let calls = '';
  const duckdb = duckdbRows;
  const asAdmin = async (route: string) => {
    const response = await server.get(route, { headers: { Authorization: `Apikey ${admin}` } });
    const body: any = await response.json();
    return { status: response.status, body };
  };

  before(async () => {
    ({ server, admin, alice, calls } = await startMonitoredPortal());
  });
  after(() => server.close());

  it('keeps each call (endpoint, status, user, dataset, bytes, duration), written in a batch, never a key', async () => {
    const sent = [
      ['/api/explore/v2.1/catalog/datasets/towns/records?limit=2&where=population%20%3E%201000', null, 200],
      [`/api/explore/v2.1/catalog/datasets/towns/records/?select=name&apikey=${alice}`, null, 200],
      ['/api/records/1.0/search/?dataset=towns&q=Paris', alice, 200],
      ['/api/explore/v2.1/catalog/datasets/nope/records', null, 404],
      ['/explore/dataset/towns/download/?format=csv', alice, 200],
    ] as const;
    const before = await readdir(path.join(server.dir, 'monitoring'));
    for (const [route, key] of sent) {
      const headers: Record<string, string> = key ? { Authorization: `Apikey ${key}` } : {};
      await (await server.get(route, { headers })).arrayBuffer();
    }
    // Nothing is written while requests are answered: the calls wait in the buffer.
    expect(await readdir(path.join(server.dir, 'monitoring'))).to.deep.equal(before);
    await server.portal.flush();
    const { status, body } = await asAdmin(
      `${MONITORING}/records?order_by=timestamp&limit=100&where=user_id!="root"`,
    );
    expect(status).to.equal(200);
    expect(body.results.map((r: any) => [r.endpoint, r.status, r.user_id, r.dataset_id])).to.deep.equal([
      ['/api/explore/v2.1/catalog/datasets/:dataset_id/records', 200, 'anonymous', 'towns'],
      ['/api/explore/v2.1/catalog/datasets/:dataset_id/records', 200, 'alice', 'towns'],
      ['/api/records/1.0/search', 200, 'alice', 'towns'],
      ['/api/explore/v2.1/catalog/datasets/:dataset_id/records', 404, 'anonymous', null],
      ['/explore/dataset/:dataset_id/download', 200, 'alice', 'towns'],
    ]);
    for (const row of body.results) {
      expect(row.size_res).to.be.greaterThan(0);
      expect(row.exec_time).to.be.at.least(0);
      expect(row.request_aborted).to.equal(false);
    }
    const stored = JSON.stringify(await duckdb(`SELECT * FROM ${calls}`));
    for (const key of [admin, alice]) expect(stored).not.to.include(key);
    expect(stored).not.to.match(/apikey|password|\?/i);
  });

  it('answers ODSQL, facets and exports as DuckDB reads the files', async () => {
    await asAdmin('/api/explore/v2.1/catalog/datasets/towns/records?limit=1');
    await server.portal.flush();
    const { body } = await asAdmin(
      `${MONITORING}/records?select=endpoint,count(*) as n&group_by=endpoint&order_by=endpoint`,
    );
    const expected = await duckdb(
      `SELECT endpoint, count(*)::INTEGER AS n FROM ${calls} GROUP BY endpoint ORDER BY endpoint`,
    );
    expect(body.results).to.deep.equal(expected);
    const facets = await asAdmin(`${MONITORING}/facets?facet=user_id`);
    const users = facets.body.facets.find((f: any) => f.name === 'user_id');
    const byUser = await duckdb(`SELECT user_id, count(*)::INTEGER AS n FROM ${calls} GROUP BY 1`);
    expect(Object.fromEntries(users.facets.map((f: any) => [f.name, f.count]))).to.deep.equal(
      Object.fromEntries(byUser.map((r) => [r.user_id, r.n])),
    );
    const csv = await server.get(`${MONITORING}/exports/csv?select=status`, {
      headers: { Authorization: `Apikey ${admin}` },
    });
    expect(csv.status).to.equal(200);
    const [all] = await duckdb(`SELECT count(*)::INTEGER AS n FROM ${calls}`);
    expect((await csv.text()).trim().split('\n').length - 1).to.equal(all!.n);
    const dataset = await asAdmin(MONITORING);
    expect(dataset.body.dataset_id).to.equal('ods-api-monitoring');
    expect(dataset.body.fields.map((f: any) => f.name)).to.include.members([
      'timestamp',
      'endpoint',
      'user_id',
    ]);
  });

  it('links and names the dataset under the monitoring source, not the catalog', async () => {
    const base = `${server.base}${MONITORING}`;
    const lookup = await asAdmin(`${MONITORING}?include_links=true`);
    expect(lookup.body.links.map((l: any) => l.href)).to.deep.equal([
      base,
      `${server.base}/api/explore/v2.1/monitoring/datasets`,
      `${base}/records`,
      `${base}/exports`,
      `${base}/facets`,
      `${base}/attachments`,
    ]);
    const listed = await asAdmin('/api/explore/v2.1/monitoring/datasets?include_links=true');
    expect(listed.body.results[0].links[0].href).to.equal(base);
    const turtle = await server.get(`${MONITORING}/exports/turtle?limit=1`, {
      headers: { Authorization: `Apikey ${admin}` },
    });
    const text = await turtle.text();
    expect(text).to.include(`<${base}`);
    expect(text).not.to.match(/<[^>]*\/catalog\//); // an IRI under the catalog (values may name it)
  });

  it('refuses the data to anyone but an admin, as a restricted dataset (listed, data_visible false, 403)', async () => {
    for (const headers of [{}, { Authorization: `Apikey ${alice}` }] as Record<string, string>[]) {
      for (const route of [`${MONITORING}/records`, `${MONITORING}/facets`, `${MONITORING}/exports/csv`]) {
        const response = await server.get(route, { headers });
        expect(response.status, route).to.equal(403);
        expect(await response.json()).to.have.property('error_code', 'ForbiddenAccess');
      }
      const listed = await (await server.get('/api/explore/v2.1/monitoring/datasets', { headers })).json();
      expect(
        listed.results.map((d: any) => [d.dataset_id, d.data_visible, d.metas.default.records_count]),
      ).to.deep.equal([['ods-api-monitoring', false, null]]);
    }
  });

  it('keeps calls for --monitoring-days: older rows are not answered, older files removed', async () => {
    const dir = path.join(server.dir, 'monitoring');
    await mkdir(dir, { recursive: true });
    const old = Date.now() - 40 * 86_400_000;
    const fixture = (file: string, when: number) =>
      duckdb(
        `COPY (SELECT TIMESTAMPTZ '${new Date(when).toISOString()}' AS timestamp, 'towns' AS dataset_id,
           '/old' AS endpoint, 'GET' AS method, 200::BIGINT AS status, 'ghost' AS user_id, 1::BIGINT AS size_res,
           1.0::DOUBLE AS exec_time, false AS request_aborted, 'old${when}' AS _recordid, 1::BIGINT AS _ordinal)
         TO '${path.join(dir, file)}' (FORMAT parquet)`,
      );
    // A file past the retention, and an old row in a recent file (its newest call is recent).
    await fixture(`${old}-0000aaaa-1.parquet`, old);
    await fixture(`${Date.now()}-0000bbbb-1.parquet`, old);
    const ghosts = await asAdmin(`${MONITORING}/records?where=user_id="ghost"&limit=10`);
    expect(ghosts.body.total_count).to.equal(0);
    const { CallLog } = await import('../../src/monitoring/call-log.js');
    const log = new CallLog(
      dir,
      { writeRows: async () => {}, merge: async () => {} },
      {
        days: 30,
        flushSeconds: 1,
        flushRows: 1,
        maxRows: 1,
      },
      () => undefined,
    );
    await log.tidy();
    const names = await readdir(dir);
    expect(names).not.to.include(`${old}-0000aaaa-1.parquet`);
    expect(names.some((n) => n.endsWith('-0000bbbb-1.parquet'))).to.equal(true);
  });

  it('bounds the buffer: past maxRows, calls are dropped and counted, never held', async () => {
    const { CallLog } = await import('../../src/monitoring/call-log.js');
    const written: string[] = [];
    const warnings: string[] = [];
    const log = new CallLog(
      path.join(server.dir, 'monitoring'),
      {
        writeRows: async (file, rows) => {
          written.push(rows);
          await writeFile(file, '');
        },
        merge: async () => {},
      },
      { days: 30, flushSeconds: 3600, flushRows: 1000, maxRows: 3 },
      (message) => void warnings.push(message),
    );
    const call = {
      timestamp: new Date().toISOString(),
      dataset_id: null,
      endpoint: '/api/x',
      method: 'GET',
      status: 200,
      user_id: 'anonymous',
      size_res: 1,
      exec_time: 1,
      request_aborted: false,
    };
    for (let i = 0; i < 5; i++) log.record(call);
    await log.flush();
    expect(JSON.parse(written[0]!)).to.have.length(3);
    expect(warnings[0]).to.match(/2 API calls not kept/);
  });
});

describe('the data network source of a portal that belongs to none', () => {
  let server: TestServer & { dir: string };
  before(async () => {
    server = await startFixtureServer();
  });
  after(() => server.close());

  it('answers an empty catalog, and a missing dataset as the catalog does', async () => {
    const list = await server.json('/api/explore/v2.1/opendatasoft/datasets/?limit=10');
    expect(list.status).to.equal(200);
    expect(list.body).to.deep.equal({ total_count: 0, results: [] });
    const facets = await server.json('/api/explore/v2.1/opendatasoft/datasets/sirene@data/facets/?lang=fr');
    const missing = await server.json('/api/explore/v2.1/catalog/datasets/sirene@data/facets/?lang=fr');
    expect(facets).to.deep.equal(missing);
    const root = await server.json('/api/explore/v2.1/opendatasoft/');
    expect(root.body.links.map((l: any) => l.rel)).to.include('datasets');
  });
});
