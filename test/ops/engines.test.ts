// Admission, /metrics and the SIGTERM drain count every engine the server holds, not DuckDB's
// alone: a real `serve` process over a portal whose datasets live in a ClickHouse server started by
// the test. A ClickHouse dataset's requests wait in that server's line (full: 503 ServerBusy while
// DuckDB's catalog answers), /metrics shows each engine's load under its labels, a slow ClickHouse
// export finishes through a drain, and the drain timeout stops a ClickHouse query on the server
// (KILL QUERY) before the process exits.
import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { saveClickHouseServer } from '../../src/catalog/clickhouse-servers.js';
import type { Field } from '../../src/catalog/schema.js';
import {
  PORTAL_PASSWORD,
  PORTAL_USER,
  startClickHouseCluster,
  type ClickHouseCluster,
} from '../helpers/clickhouse-cluster.js';
import { writeDatasetFile } from '../helpers/clickhouse-fixture.js';
import { slowGet } from '../helpers/downloads.js';
import { freePort } from '../helpers/ports.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';

const V21 = '/api/explore/v2.1/catalog/datasets';
const FIELDS: readonly Field[] = [{ name: 'n', label: 'N', type: 'int', description: null, annotations: {} }];
/** The hidden columns of a dataset, and `n`, from ClickHouse's numbers. */
const COLUMNS = 'toString(number) AS _recordid, number AS _ordinal, number AS n';

/** The load gauges of /metrics by engine: `<engine> <server>` -> value. */
async function engineLoad(metricsBase: string, name: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${metricsBase}/metrics`)).text();
  const load = new Map<string, number>();
  for (const match of text.matchAll(
    new RegExp(`^${name}\\{engine="(\\w+)",server="([^"]*)"\\} (\\d+)$`, 'gm'),
  ))
    load.set(`${match[1]} ${match[2]}`, Number(match[3]));
  return load;
}

/** Waits (at most 20 s) until `condition` holds. */
async function until(what: string, condition: () => Promise<boolean>): Promise<void> {
  for (const start = Date.now(); !(await condition()); await sleep(50))
    if (Date.now() - start > 20_000) throw new Error(`never: ${what}`);
}

describe('every engine in admission, /metrics and the drain (a ClickHouse server beside DuckDB)', function () {
  this.timeout(120_000);
  let dir: string;
  let portalDir: string;
  let cluster: ClickHouseCluster;
  let url: string;
  let serve: ServeProcess | undefined;

  /** The portal user's queries running on the server now. */
  const running = async (): Promise<number> =>
    Number(await cluster.admin(`SELECT count() FROM system.processes WHERE user = '${PORTAL_USER}'`));

  /** Attaches the ClickHouse table (or view) `table` as the dataset `id`. */
  async function attachDataset(id: string, table: string): Promise<void> {
    const folder = path.join(portalDir, 'datasets', id);
    await mkdir(folder, { recursive: true });
    await writeDatasetFile(folder, { id, title: id, fields: FIELDS, records: 0 });
    const file = JSON.parse(await readFile(path.join(folder, 'dataset.json'), 'utf8')) as object;
    const engine = { kind: 'clickhouse', url, table };
    await writeFile(path.join(folder, 'dataset.json'), JSON.stringify({ ...file, engine }));
  }

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-engines-'));
    cluster = await startClickHouseCluster(path.join(dir, 'cluster'), 1);
    url = cluster.shards[0]!.url;
    // Numbers without end (an aggregation over them runs for minutes), three million, and three that
    // take 2.4 s to read.
    await cluster.admin(`CREATE VIEW numbers AS SELECT ${COLUMNS} FROM system.numbers LIMIT 100000000000`);
    await cluster.admin(`CREATE VIEW millions AS SELECT ${COLUMNS} FROM system.numbers LIMIT 3000000`);
    await cluster.admin(
      `CREATE VIEW slow AS SELECT ${COLUMNS} FROM (SELECT number FROM system.numbers LIMIT 3) WHERE sleepEachRow(0.8) = 0`,
    );
    portalDir = path.join(dir, 'portal');
    await mkdir(portalDir, { recursive: true });
    await writeFile(path.join(portalDir, 'portal.json'), JSON.stringify({ title: 'Engines' }));
    await saveClickHouseServer(portalDir, url, { user: PORTAL_USER, password: PORTAL_PASSWORD });
    await attachDataset('numbers', 'numbers');
    await attachDataset('millions', 'millions');
    await attachDataset('slow', 'slow');
  });
  afterEach(async () => {
    await serve?.kill();
    serve = undefined;
  });
  after(async () => {
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("admits a ClickHouse dataset's requests to its server's line, shown in /metrics beside DuckDB's", async () => {
    const metricsPort = await freePort();
    // A queue wait of 1 ms: the line holds one turn of the places (8) and refuses the next.
    const args = ['--queue-wait', '1', '--cache-size', '0', '--metrics-port', String(metricsPort)];
    serve = await startServeProcess(portalDir, args);
    const metrics = `http://127.0.0.1:${metricsPort}`;
    const clickhouse = `clickhouse ${url}`;
    const page = `${serve.base}${V21}/slow/records?limit=1`;
    const admitted: Promise<number>[] = [];
    const queued = async (): Promise<number> =>
      (await engineLoad(metrics, 'duckportal_queue_length')).get(clickhouse) ?? 0;
    while ((await queued()) < 8) {
      admitted.push(fetch(page).then((response) => response.status));
      await sleep(100);
    }
    const inFlight = await engineLoad(metrics, 'duckportal_queries_in_flight');
    expect(inFlight.get(clickhouse)).to.equal(8);
    expect(inFlight.get('duckdb local')).to.equal(0);
    expect((await engineLoad(metrics, 'duckportal_queue_length')).get('duckdb local')).to.equal(0);
    const refused = await fetch(page);
    expect(refused.status).to.equal(503);
    expect(((await refused.json()) as { error_code: string }).error_code).to.equal('ServerBusy');
    expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
    // DuckDB's line is not ClickHouse's: the catalog answers meanwhile.
    expect((await fetch(`${serve.base}${V21}?limit=1`)).status).to.equal(200);
    expect(new Set(await Promise.all(admitted))).to.deep.equal(new Set([200]));
    await until(
      'the line empties',
      async () => (await engineLoad(metrics, 'duckportal_queries_in_flight')).get(clickhouse) === 0,
    );
  });

  it('lets a slow ClickHouse export finish through a drain, shown in /metrics while it runs', async () => {
    const metricsPort = await freePort();
    serve = await startServeProcess(portalDir, [
      '--metrics-port',
      String(metricsPort),
      '--drain-timeout',
      '60',
    ]);
    const download = await slowGet(`${serve.base}${V21}/millions/exports/csv`);
    expect(download.response.statusCode).to.equal(200);
    const inFlight = await engineLoad(`http://127.0.0.1:${metricsPort}`, 'duckportal_queries_in_flight');
    expect(inFlight.get(`clickhouse ${url}`)).to.equal(1);
    expect(inFlight.get('duckdb local')).to.equal(0);
    serve.child.kill('SIGTERM');
    await serve.waitFor('draining');
    await sleep(300);
    expect(serve.child.exitCode).to.equal(null);
    const lines = (await download.read()).toString().trimEnd().split(/\r?\n/);
    expect(await serve.exited).to.equal(0);
    expect(lines.length).to.equal(3_000_001);
    expect(lines.at(-1)).to.equal('2999999');
  });

  it('stops a ClickHouse query cut by the drain timeout on the server before the process exits', async () => {
    serve = await startServeProcess(portalDir, ['--drain-timeout', '1']);
    const endless = fetch(`${serve.base}${V21}/numbers/records?select=count(*) as c&where=n > 5`).catch(
      (error: Error) => error,
    );
    await until('the query runs on ClickHouse', async () => (await running()) > 0);
    serve.child.kill('SIGTERM');
    expect(await serve.exited).to.equal(0);
    expect(await endless).to.be.instanceOf(Error);
    // KILL QUERY ... ASYNC was answered before the exit: the query ends at its next check.
    await sleep(500);
    expect(await running()).to.equal(0);
  });
});
