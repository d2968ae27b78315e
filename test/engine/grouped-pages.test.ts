// A page of groups of a ClickHouse dataset is one query: the number of groups is the
// rows_before_limit_at_least ClickHouse writes beside the page's rows (Engine.queryPage), not a
// scalar subquery scanning the table again. The sample Seattle weather is served from Parquet and
// from a two-shard cluster; grouped pages (sorted, offset, past the last group, filtered, one group
// per day, limit 0) answer the same from both, each with a single ClickHouse query.
import { expect } from 'chai';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { saveClickHouseServer } from '../../src/catalog/clickhouse-servers.js';
import {
  PORTAL_PASSWORD,
  PORTAL_USER,
  startClickHouseCluster,
  type ClickHouseCluster,
} from '../helpers/clickhouse-cluster.js';
import { loadDataset } from '../helpers/clickhouse-load.js';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const PARQUET = 'weather';
const ATTACHED = 'weather-ch';

/** Grouped pages of the weather: each asked of both datasets. */
const PAGES: readonly string[] = [
  'select=weather, count(*) as n&group_by=weather&order_by=n desc, weather&limit=2',
  'select=year(date) as y, max(temp_max) as t&group_by=year(date) as y&order_by=y&limit=2&offset=1',
  'select=weather, count(*) as n&group_by=weather&order_by=weather&limit=10&offset=20',
  'select=weather, min(date) as first&where=precipitation > 10&group_by=weather&order_by=weather',
  'select=date, count(*) as n&group_by=date&order_by=date desc&limit=3',
  'select=weather&group_by=weather&limit=0',
  'select=count(*) as n, max(wind) as w',
];

describe('grouped pages of a ClickHouse dataset in one query (two shards)', function () {
  this.timeout(180_000);
  let dir: string;
  let cluster: ClickHouseCluster;
  let server: TestServer;
  /** The ClickHouse engine's calls since the last look. */
  const calls: string[] = [];

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-grouped-pages-'));
    cluster = await startClickHouseCluster(path.join(dir, 'cluster'), 2);
    const portalDir = path.join(dir, 'portal');
    const parquet = path.join(portalDir, 'datasets', PARQUET);
    await cp(path.join(SAMPLE_PORTAL, 'datasets', 'seattle-weather'), parquet, { recursive: true });
    await writeFile(path.join(portalDir, 'portal.json'), JSON.stringify({ title: 'Grouped pages' }));
    await loadDataset(cluster, parquet, 'weather');
    const url = cluster.shards[0]!.url;
    await saveClickHouseServer(portalDir, url, { user: PORTAL_USER, password: PORTAL_PASSWORD });
    const file = JSON.parse(await readFile(path.join(parquet, 'dataset.json'), 'utf8')) as object;
    await mkdir(path.join(portalDir, 'datasets', ATTACHED));
    await writeFile(
      path.join(portalDir, 'datasets', ATTACHED, 'dataset.json'),
      JSON.stringify({ ...file, engine: { kind: 'clickhouse', url, table: 'weather' } }),
    );
    server = await startTestServer(portalDir, { cacheBytes: 0 });
    // Each call of the ClickHouse engine's queries is noted, then made.
    const clickhouse = server.portal.engines()[1] as unknown as Record<
      string,
      (...args: unknown[]) => unknown
    >;
    for (const name of ['queryJson', 'queryPage', 'count']) {
      const method = clickhouse[name]!.bind(clickhouse);
      clickhouse[name] = (...args: unknown[]) => {
        calls.push(name);
        return method(...args);
      };
    }
  });
  after(async () => {
    await server?.close();
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  for (const query of PAGES) {
    it(`answers ${query} as the Parquet copy does, in one ClickHouse query`, async () => {
      const page = (id: string) => server.json(`/api/explore/v2.1/catalog/datasets/${id}/records?${query}`);
      const expected = await page(PARQUET);
      expect(expected.status).to.equal(200);
      calls.length = 0;
      expect(await page(ATTACHED)).to.deep.equal(expected);
      expect(calls).to.deep.equal(['queryPage']);
    });
  }

  it("still counts a page of records apart (a Distributed top-N tells one shard's rows before its LIMIT)", async () => {
    const query = 'where=weather = "rain"&order_by=date&limit=5&offset=3';
    const page = (id: string) => server.json(`/api/explore/v2.1/catalog/datasets/${id}/records?${query}`);
    const expected = await page(PARQUET);
    calls.length = 0;
    expect(await page(ATTACHED)).to.deep.equal(expected);
    expect([...calls].sort()).to.deep.equal(['count', 'queryJson', 'queryJson']);
  });
});
