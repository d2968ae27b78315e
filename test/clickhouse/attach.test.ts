// `duckportal attach` and a dataset served from a two-shard ClickHouse cluster: the sample Seattle
// weather loaded into the cluster (test/helpers/clickhouse-load.ts) and attached beside its
// Parquet copy; the same requests to both datasets give the same answers; ClickHouse stopped
// answers 503 with Retry-After on that dataset while the others answer 200; the credentials are
// in clickhouse.json alone, never in dataset.json, an answer, a log line or the metrics.
import { expect } from 'chai';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { CLICKHOUSE_FILE } from '../../src/catalog/clickhouse-servers.js';
import { portalWithAttachedCopy, type AttachedCopy } from '../helpers/clickhouse-attached.js';
import { PORTAL_PASSWORD, PORTAL_USER, type ClickHouseCluster } from '../helpers/clickhouse-cluster.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The dataset served from Parquet, and its copy attached to the cluster. */
const PARQUET = 'seattle';
const ATTACHED = 'seattle-ch';

describe('duckportal attach: a dataset served from a two-shard ClickHouse cluster', function () {
  this.timeout(180_000);
  let copy: AttachedCopy;
  let portalDir: string;
  let cluster: ClickHouseCluster;
  let server: TestServer;
  let url: string;
  let plainAttach: string;

  const attach = (args: readonly string[], server: string): Promise<string> => copy.attach(args, server);

  before(async () => {
    copy = await portalWithAttachedCopy(
      'seattle-weather',
      { parquetId: PARQUET, attachedId: ATTACHED, table: 'weather' },
      ['--title', 'Seattle weather, from ClickHouse', '--facet', 'weather'],
    );
    ({ portalDir, cluster } = copy);
    url = cluster.shards[0]!.url;
    // A table of another server without the hidden columns, attached by its admin: a view adds them.
    await cluster.admin(
      'CREATE TABLE plain (name String, counts Array(Int64), at DateTime) ENGINE = MergeTree() ORDER BY name',
    );
    await cluster.admin('CREATE TABLE plain_all AS plain ENGINE = Distributed(portal, default, plain)');
    await cluster.admin(`INSERT INTO plain VALUES ('b', [1], '2024-01-01 10:00:00'), ('a', [], 0)`, 0);
    await cluster.admin(`INSERT INTO plain VALUES ('c', [2, 3], '2024-01-02 10:00:00')`, 1);
    plainAttach = await attach(
      ['--id', 'plain', '--table', 'plain_all'],
      cluster.shards[1]!.url.replace('//', '//default:@'),
    );
    server = await startTestServer(portalDir, { cacheBytes: 0 });
  });
  after(async () => {
    await server?.close();
    await copy?.remove();
  });

  it('writes dataset.json with the server and table, the credentials only in clickhouse.json (owner only)', async () => {
    const file = JSON.parse(
      await readFile(path.join(portalDir, 'datasets', ATTACHED, 'dataset.json'), 'utf8'),
    );
    expect(file.engine).to.deep.equal({ kind: 'clickhouse', url, table: 'weather' });
    expect(JSON.stringify(file)).not.to.include(PORTAL_PASSWORD);
    const parquet = JSON.parse(
      await readFile(path.join(portalDir, 'datasets', PARQUET, 'dataset.json'), 'utf8'),
    );
    expect(file.fields.map((f: { name: string; type: string }) => [f.name, f.type])).to.deep.equal(
      parquet.fields.map((f: { name: string; type: string }) => [f.name, f.type]),
    );
    expect(file.computed.records_count).to.equal(parquet.computed.records_count);
    const servers = JSON.parse(await readFile(path.join(portalDir, CLICKHOUSE_FILE), 'utf8'));
    expect(servers).to.deep.equal({
      servers: [
        { url, user: PORTAL_USER, password: PORTAL_PASSWORD },
        { url: cluster.shards[1]!.url, user: 'default', password: '' },
      ],
    });
    expect((await stat(path.join(portalDir, CLICKHOUSE_FILE))).mode & 0o777).to.equal(0o600);
  });

  it('serves a table without the hidden columns through a view that computes them', async () => {
    expect(plainAttach).to.include('column counts (Array(Int64)) left out: no field type holds it');
    const file = JSON.parse(
      await readFile(path.join(portalDir, 'datasets', 'plain', 'dataset.json'), 'utf8'),
    );
    expect(file.engine.table).to.equal('plain_all_plain_portal');
    expect(file.fields.map((f: { name: string; type: string }) => [f.name, f.type])).to.deep.equal([
      ['name', 'text'],
      ['at', 'datetime'],
    ]);
    expect(file.computed.records_count).to.equal(3);
    const page = await server.json(`${v2}/plain/records?select=name&order_by=name`);
    expect(page).to.deep.equal({
      status: 200,
      body: { total_count: 3, results: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
    });
  });

  it('refuses an unknown facet, an id in use, a server without credentials, a bad table name', async () => {
    const refusal = (args: readonly string[], server = url) =>
      attach(args, server).then(
        () => expect.fail('attach succeeded'),
        (error: { code: number; stderr: string }) => [error.code, error.stderr.trim().split('\n').at(-1)],
      );
    expect(await refusal(['--id', 'other', '--table', 'weather', '--facet', 'nope'])).to.deep.equal([
      1,
      'duckportal: --facet: no field nope in the table',
    ]);
    expect((await refusal(['--id', ATTACHED, '--table', 'weather']))[1]).to.match(
      /the dataset seattle-ch exists/,
    );
    expect(await refusal(['--id', 'other', '--table', 'weather'], 'http://127.0.0.1:1')).to.deep.equal([
      1,
      'duckportal: --clickhouse: no credentials known for http://127.0.0.1:1: give them once in the URL',
    ]);
    expect(await refusal(['--id', 'other', '--table', 'weather; DROP TABLE weather'])).to.deep.equal([
      1,
      'duckportal: --table: a table name, optionally database.table',
    ]);
    expect(
      await readFile(path.join(portalDir, 'datasets', 'other', 'dataset.json')).catch(() => null),
    ).to.equal(null);
  });

  /** The answers of one request to the Parquet dataset and to the attached one. */
  const both = async (request: (id: string) => string): Promise<[unknown, unknown]> => {
    const [parquet, attached] = await Promise.all(
      [PARQUET, ATTACHED].map(async (id) => {
        const answer = await server.json(request(id));
        expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
        // Its id, and when its data was processed (by ingest, by attach), set apart.
        const text = JSON.stringify(answer.body)
          .replaceAll(`/${id}/`, '/ID/')
          .replaceAll(`"${id}"`, '"ID"')
          .replace(/"record_timestamp":"[^"]*"/g, '"record_timestamp":"T"');
        return JSON.parse(text);
      }),
    );
    return [parquet, attached];
  };

  const v2 = '/api/explore/v2.1/catalog/datasets';
  const v1 = '/api/records/1.0/search?dataset=';
  /** A request of each endpoint family, each answered by both datasets. */
  const REQUESTS: readonly (readonly [string, (id: string) => string])[] = [
    [
      'a page of records',
      (id) => `${v2}/${id}/records?limit=5&select=weather,wind,temp_max&order_by=wind desc`,
    ],
    ['a page with dates', (id) => `${v2}/${id}/records?limit=3&order_by=date desc`],
    [
      'a filtered page',
      (id) => `${v2}/${id}/records?limit=3&select=wind&where=wind>7 and weather='rain'&order_by=temp_min`,
    ],
    [
      'a page far in',
      (id) =>
        `${v2}/${id}/records?limit=4&offset=1000&select=weather,precipitation&order_by=weather,precipitation`,
    ],
    ['a count', (id) => `${v2}/${id}/records?select=count(*) as n`],
    [
      'a group_by',
      (id) =>
        `${v2}/${id}/records?select=weather,count(*) as n,max(wind) as w,min(date) as d&group_by=weather`,
    ],
    [
      'a group_by on months',
      (id) => `${v2}/${id}/records?select=count(*) as n&group_by=year(date) as y&order_by=y`,
    ],
    [
      'a range grouping',
      (id) => `${v2}/${id}/records?select=count(*) as n&group_by=range(temp_max, 10) as t`,
    ],
    [
      'refine and exclude',
      (id) =>
        `${v2}/${id}/records?select=weather,date&refine=weather:rain&exclude=weather:sun&order_by=date&limit=3`,
    ],
    [
      // ClickHouse has no common type of Float64 and UInt64 (length()): was a 500 (code 386).
      'ifnull() of a float and an integer',
      (id) =>
        `${v2}/${id}/records?select=ifnull(wind, length(weather)) as w, ifnull(length(weather), 1) as l, ifnull(length(weather), temp_max) as m&order_by=date&limit=3`,
    ],
    ['a v1 search', (id) => `${v1}${id}&rows=3&sort=date&refine.weather=rain`],
    ['a JSON export', (id) => `${v2}/${id}/exports/json?order_by=date&limit=20`],
  ];
  for (const [name, request] of REQUESTS) {
    it(`answers ${name} as the Parquet dataset does`, async () => {
      const [parquet, attached] = await both(request);
      expect(attached).to.deep.equal(parquet);
    });
  }

  for (const format of ['csv', 'jsonl']) {
    it(`answers a ${format} export in the same bytes as the Parquet dataset`, async () => {
      const bytes = async (id: string) => {
        const answer = await server.get(`${v2}/${id}/exports/${format}?order_by=date&where=temp_max>30`);
        expect(answer.status).to.equal(200);
        return answer.text();
      };
      const [parquet, attached] = await Promise.all([bytes(PARQUET), bytes(ATTACHED)]);
      expect(parquet.split('\n').length).to.be.greaterThan(10);
      expect(attached).to.equal(parquet);
    });
  }

  it('answers a single record as the Parquet dataset does, by the same id', async () => {
    const { body } = await server.json(`${v1}${PARQUET}&rows=1&sort=date`);
    const id = body.records[0].recordid as string;
    const [parquet, attached] = await both((dataset) => `${v2}/${dataset}/records/${id}`);
    expect(attached).to.deep.equal(parquet);
    expect(attached).to.have.property('date');
  });

  it('searches every term inside the text fields: as DuckDB for a whole word, also inside words', async () => {
    const count = async (id: string, search: string) =>
      (await server.json(`${v2}/${id}/records?limit=0&where=${encodeURIComponent(search)}`)).body.total_count;
    const rain = await count(PARQUET, 'search("rain")');
    expect(rain).to.be.greaterThan(0);
    expect(await count(ATTACHED, 'search("rain")')).to.equal(rain);
    expect(await count(ATTACHED, '"RAIN"')).to.equal(rain);
    // A substring on ClickHouse; DuckDB matches tokens (the last term as a prefix).
    expect(await count(PARQUET, 'search("ain")')).to.equal(0);
    expect(await count(ATTACHED, 'search("ain")')).to.equal(rain);
    // Every term, in one of the fields named.
    expect(await count(ATTACHED, 'search(weather, "rain sun")')).to.equal(0);
    expect(await count(PARQUET, 'search(weather, "rain sun")')).to.equal(0);
  });

  it('is in the catalog with its fields and records count', async () => {
    const [parquet, attached] = await both((id) => `${v2}/${id}`);
    const shape = (d: any) => ({
      fields: d.fields.map((f: { name: string; type: string }) => [f.name, f.type]),
      count: d.metas.default.records_count,
    });
    expect(shape(attached)).to.deep.equal(shape(parquet));
  });

  it('answers 503 with Retry-After while ClickHouse is down, and the other datasets 200', async () => {
    await cluster.stop();
    const down = await server.get(`${v2}/${ATTACHED}/records?limit=1&select=weather`);
    expect(down.status).to.equal(503);
    expect(down.headers.get('retry-after')).to.equal('5');
    expect(((await down.json()) as { error_code: string }).error_code).to.equal('EngineUnavailable');
    const v1 = await server.get(`/api/records/1.0/search?dataset=${ATTACHED}&rows=1&fields=weather`);
    expect([v1.status, v1.headers.get('retry-after')]).to.deep.equal([503, '5']);
    expect((await server.get(`${v2}/${PARQUET}/records?limit=1`)).status).to.equal(200);
    expect((await server.get(`${v2}/${ATTACHED}`)).status, 'its metadata').to.equal(200);
  });

  it('never shows the credentials: not in answers, log lines or metrics', async () => {
    const texts = [
      JSON.stringify(server.records),
      await (await server.get('/metrics')).text(),
      await (await server.get(`${v2}/${ATTACHED}`)).text(),
      await (await server.get(`${v2}/${ATTACHED}/records?limit=1`)).text(),
    ];
    for (const text of texts) {
      expect(text).not.to.include(PORTAL_PASSWORD);
      expect(text).not.to.include(Buffer.from(`${PORTAL_USER}:${PORTAL_PASSWORD}`).toString('base64'));
    }
    expect(texts[0]).to.include('EngineUnavailable');
  });
});
