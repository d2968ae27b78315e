// The ClickHouse client (src/engine/clickhouse/http-client.ts) against a real two-shard cluster of
// Debian's clickhouse-server: rows read through a Distributed table from both shards as the
// read-only user, streamed formats, a query stopped when its caller aborts or its reader goes
// away (KILL QUERY), the deadline, ClickHouse's refusals as codes without its text, and a server
// that is down as EngineUnavailable.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClickHouseQueryFailed } from '../../src/engine/clickhouse/failures.js';
import { ClickHouseClient } from '../../src/engine/clickhouse/http-client.js';
import { EngineUnavailable, QueryDeadlineExceeded, QueryInterrupted } from '../../src/engine/engine.js';
import { freePort } from '../helpers/ports.js';
import {
  PORTAL_PASSWORD,
  PORTAL_USER,
  startClickHouseCluster,
  type ClickHouseCluster,
} from '../helpers/clickhouse-cluster.js';

/** A query that runs until stopped: it scans an endless table for a number that never comes. */
const ENDLESS = 'SELECT count() AS n FROM system.numbers WHERE number = 18446744073709551615';

describe('ClickHouse client, on a two-shard cluster', function () {
  this.timeout(120_000);
  let dir: string;
  let cluster: ClickHouseCluster;
  let client: ClickHouseClient;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-clickhouse-'));
    cluster = await startClickHouseCluster(dir, 2);
    await cluster.admin(
      `CREATE TABLE towns (id String, name String, population Int64, founded DateTime('UTC'))
       ENGINE = MergeTree() ORDER BY id`,
    );
    await cluster.admin(`CREATE TABLE towns_all AS towns ENGINE = Distributed(portal, default, towns)`);
    await cluster.admin(
      `INSERT INTO towns VALUES ('t1', 'Lyon', 522250, '1000-01-01 00:00:00'), ('t2', 'Paris', 2133111, '1000-01-01 00:00:00')`,
      0,
    );
    await cluster.admin(
      `INSERT INTO towns VALUES ('t3', 'Évian', 9000000000123456789, '2021-10-31 01:30:00')`,
      1,
    );
    client = new ClickHouseClient({
      url: cluster.shards[0]!.url,
      user: PORTAL_USER,
      password: PORTAL_PASSWORD,
    });
  });
  after(async () => {
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** The queries of the portal user running now on the first shard. */
  const running = async (): Promise<number> => {
    const text = await cluster.admin(
      `SELECT count() FROM system.processes WHERE user = '${PORTAL_USER}' AND query LIKE '%system.numbers%' AND query NOT LIKE '%processes%'`,
      0,
    );
    return Number(text.trim());
  };

  const untilNoneRunning = async (): Promise<void> => {
    for (let tries = 0; (await running()) > 0; tries++) {
      if (tries > 100) throw new Error('the query still runs');
      await sleep(50);
    }
  };

  it('reads rows from both shards as the read-only user, 64-bit integers as numbers as DuckDB reads them', async () => {
    const rows = await client.queryJson('SELECT id, name, population FROM towns_all ORDER BY id');
    expect(rows).to.deep.equal([
      { id: 't1', name: 'Lyon', population: 522250 },
      { id: 't2', name: 'Paris', population: 2133111 },
      // Past 2^53 as DuckDB's engine reads it too (src/engine/duckdb/values.ts): the nearest double.
      { id: 't3', name: 'Évian', population: 9000000000123456789 },
    ]);
    expect(await client.queryJson('SELECT count() AS n FROM towns_all')).to.deep.equal([{ n: 3 }]);
  });

  it('streams a result in a format of ClickHouse', async () => {
    const stream = await client.stream(
      "SELECT name FROM towns_all WHERE name != 'Évian' ORDER BY name",
      'CSVWithNames',
      new AbortController().signal,
    );
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    expect(text).to.equal('"name"\n"Lyon"\n"Paris"\n');
  });

  it('refuses writes, table functions and settings for the read-only user, by code and without its text', async () => {
    for (const sql of [
      'CREATE TABLE x (a Int8) ENGINE = Memory',
      "SELECT * FROM file('/etc/passwd', 'CSV', 'a String')",
      "SELECT * FROM url('http://127.0.0.1:1/', 'CSV', 'a String')",
    ]) {
      const error = await client.queryJson(sql).catch((e: unknown) => e);
      expect(error, sql).to.be.instanceOf(ClickHouseQueryFailed);
      expect((error as ClickHouseQueryFailed).code, sql).to.equal(164);
      expect((error as Error).message).to.equal('ClickHouse failed the query (code 164)');
    }
    const unknown = await client.queryJson('SELECT nope FROM towns_all').catch((e: unknown) => e);
    expect((unknown as ClickHouseQueryFailed).code).to.equal(47);
    expect((unknown as Error).message).not.to.include(PORTAL_PASSWORD);
  });

  it('kills a query whose caller aborts', async () => {
    const controller = new AbortController();
    const answer = client.queryJson(ENDLESS, controller.signal).catch((e: unknown) => e);
    while ((await running()) === 0) await sleep(50);
    controller.abort();
    expect(await answer).to.be.instanceOf(QueryInterrupted);
    await untilNoneRunning();
  });

  it('kills a streamed query whose reader goes away', async () => {
    const stream = await client.stream(
      'SELECT number FROM system.numbers',
      'TSVWithNames',
      new AbortController().signal,
    );
    // The first bytes read, then the reader goes away.
    await new Promise((resolve) => stream.once('data', resolve));
    stream.destroy();
    await untilNoneRunning();
  });

  it('kills a query past its deadline', async () => {
    const quick = new ClickHouseClient({
      url: cluster.shards[0]!.url,
      user: PORTAL_USER,
      password: PORTAL_PASSWORD,
      deadlineMs: 300,
    });
    const error = await quick.queryJson(ENDLESS).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(QueryDeadlineExceeded);
    await untilNoneRunning();
  });

  it('says unavailable when nothing listens, or the server does not answer in time', async () => {
    const closed = new ClickHouseClient({
      url: `http://127.0.0.1:${await freePort()}`,
      user: PORTAL_USER,
      password: PORTAL_PASSWORD,
    });
    expect(await closed.queryJson('SELECT 1').catch((e: unknown) => e)).to.be.instanceOf(EngineUnavailable);
    // A server that takes the connection and never answers.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const stalled = new ClickHouseClient({
        url: `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`,
        user: PORTAL_USER,
        password: PORTAL_PASSWORD,
        answerTimeoutMs: 200,
      });
      expect(await stalled.queryJson('SELECT 1').catch((e: unknown) => e)).to.be.instanceOf(
        EngineUnavailable,
      );
    } finally {
      silent.close();
    }
    await cluster.stopShard(1);
    // The Distributed table needs both shards: ClickHouse answers with an error code, not silence,
    // which says that a part of the cluster is down.
    const partial = await client.queryJson('SELECT count() FROM towns_all').catch((e: unknown) => e);
    expect(partial).to.be.instanceOf(EngineUnavailable);
    expect((partial as EngineUnavailable).part).to.equal(true);
  });
});
