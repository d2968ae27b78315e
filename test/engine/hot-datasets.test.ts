// A dataset view asked HOT_USES times is copied into DuckDB's memory and redefined over the copy
// (src/engine/duckdb/hot-datasets.ts): its answers stay the same to the byte (rows, their order,
// ordinals, types), fewer uses or a budget too small copy nothing, a view redefined or dropped
// drops its copy (and a copy finished after its view was redefined is never swapped in), a copy
// that failed or came out too large is not made again at every use, and a copy left idle makes
// room for a dataset asked now.
import { expect } from 'chai';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DuckDBEngine } from '../../src/engine/duckdb/engine.js';
import {
  HOT_DATABASE,
  HOT_IDLE_MS,
  HOT_USES,
  HotDatasets,
  hotBudget,
} from '../../src/engine/duckdb/hot-datasets.js';
import { parquetViewSql } from '../../src/engine/duckdb/views.js';
import { buildFixturePortal } from '../helpers/fixture-portal.js';
import { startTestServer } from '../helpers/server.js';

/** Writes `rows` rows of several types, sorted as ingest sorts (key, then date), as a Parquet file. */
async function parquet(file: string, rows: number, add = 0): Promise<string> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(
    `COPY (SELECT ['a', 'b', 'c', NULL][range % 4 + 1] AS key, range + ${add} AS n,
       TIMESTAMPTZ '2001-01-01 00:00:00+00' + to_minutes(range) AS date, range / 7.0 AS x,
       md5(range::VARCHAR) AS s, [range, range + 1] AS l, {'lon': range / 3.0, 'lat': 1.5} AS p
     FROM range(${rows}) ORDER BY key NULLS LAST, date) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`,
  );
  connection.closeSync();
  instance.closeSync();
  return file;
}

/** Queries whose answers must not change when the rows come from the copy. */
const QUERIES = [
  `SELECT * FROM t LIMIT 20`,
  `SELECT strftime(date, '%Y-%m-%dT%H:%M:%S') AS d, n, "_ordinal" FROM t WHERE key = 'b' LIMIT 10 OFFSET 300`,
  `SELECT key, count(*) AS c, sum(n) AS s, min(date)::VARCHAR AS m FROM t GROUP BY key ORDER BY key`,
  `SELECT * FROM t WHERE n BETWEEN 5000 AND 5010 ORDER BY "_ordinal"`,
  `SELECT count(*) AS c, max("_ordinal") AS o FROM t WHERE key IS NULL`,
];

describe('DuckDB: datasets asked often copied into memory', function () {
  this.timeout(60_000);
  let dir: string;
  let rows: string;
  let other: string;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'hot-'));
    rows = await parquet(path.join(dir, 'rows.parquet'), 20_000);
    other = await parquet(path.join(dir, 'other.parquet'), 3_000, 1_000_000);
  });

  after(() => rm(dir, { recursive: true, force: true }));

  async function open(hotBytes?: number): Promise<DuckDBEngine> {
    return DuckDBEngine.open({
      allowedDirectories: [dir],
      tempDirectory: path.join(dir, `tmp-${Math.random()}`),
      ...(hotBytes !== undefined && { hotBytes }),
    });
  }

  /** A DuckDB of its own with the copies' database, for a HotDatasets without an engine: its setup connection and host. */
  async function hostOfOwn() {
    const instance = await DuckDBInstance.create(':memory:');
    const setup = await instance.connect();
    await setup.run(`ATTACH ':memory:' AS ${HOT_DATABASE} (COMPRESS)`);
    const host = { connect: () => instance.connect(), storageChanged: () => undefined };
    return { instance, setup, host };
  }

  /** The tables of the copies' database: none once every copy is dropped. */
  const copyTables = (engine: DuckDBEngine) =>
    engine.queryJson(`SELECT table_name FROM duckdb_tables() WHERE database_name = '${HOT_DATABASE}'`);

  const answers = (engine: DuckDBEngine) => Promise.all(QUERIES.map((sql) => engine.queryJson(sql)));

  /** Asks for view `name` `times` times, then waits for any copy to finish. */
  async function use(engine: DuckDBEngine, name: string, times: number): Promise<void> {
    for (let i = 0; i < times; i++) engine.used(name);
    await engine.hot.settled();
  }

  it('answers the same from the copy after HOT_USES uses, and not before', async () => {
    const engine = await open();
    try {
      await engine.defineView('t', rows, 'dataset');
      const fromFile = await answers(engine);
      await use(engine, 't', HOT_USES - 1);
      expect(engine.hot.holds('t')).to.equal(false);
      await use(engine, 't', 1);
      expect(engine.hot.lastFailure).to.equal(null);
      expect(engine.hot.holds('t')).to.equal(true);
      expect(engine.hot.copies).to.equal(1);
      expect(engine.hotBytes).to.be.greaterThan(0);
      const views = await engine.queryJson(`SELECT sql FROM duckdb_views() WHERE view_name = 't'`);
      expect(views[0]?.sql).to.be.a('string').and.include(`${HOT_DATABASE}.`);
      expect(await answers(engine)).to.deep.equal(fromFile);
      expect(JSON.stringify(await answers(engine))).to.equal(JSON.stringify(fromFile));
    } finally {
      engine.close();
    }
  });

  it('copies nothing past the budget, with a budget of 0, or for a view that is not a dataset', async () => {
    for (const [hotBytes, kind] of [
      [1024, 'dataset'],
      [0, 'dataset'],
      [undefined, 'plain'],
    ] as const) {
      const engine = await open(hotBytes);
      try {
        await engine.defineView('t', rows, kind);
        await use(engine, 't', HOT_USES * 2);
        expect(engine.hot.holds('t'), `${hotBytes} ${kind}`).to.equal(false);
        expect(engine.hotBytes).to.equal(0);
      } finally {
        engine.close();
      }
    }
  });

  it('drops the copy when its view is redefined or dropped, and gives its memory back', async () => {
    const engine = await open();
    try {
      await engine.defineView('t', rows, 'dataset');
      await use(engine, 't', HOT_USES);
      expect(engine.hot.holds('t')).to.equal(true);
      await engine.defineView('t', other, 'dataset');
      expect(engine.hot.holds('t')).to.equal(false);
      expect(engine.hotBytes).to.equal(0);
      expect(await engine.queryJson('SELECT min(n) AS low FROM t')).to.deep.equal([{ low: 1_000_000 }]);
      await use(engine, 't', HOT_USES);
      expect(engine.hot.holds('t')).to.equal(true);
      await engine.dropView('t');
      expect(engine.hot.holds('t')).to.equal(false);
      expect(await copyTables(engine)).to.deep.equal([]);
    } finally {
      engine.close();
    }
  });

  it('reads from its file a dataset whose copy failed, and never copies that version again', async () => {
    // A field named file_row_number hides Parquet's row numbers: the view's ordinals are that
    // field's, far beyond the slices of 1 to n the copy takes, so the copy lacks rows.
    const odd = path.join(dir, 'odd.parquet');
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run(
      `COPY (SELECT range AS n, range * 1000000 AS file_row_number FROM range(1000)) TO '${odd}' (FORMAT parquet)`,
    );
    connection.closeSync();
    instance.closeSync();
    const engine = await open();
    try {
      await engine.defineView('t', odd, 'dataset');
      await use(engine, 't', HOT_USES);
      expect(engine.hot.lastFailure).to.match(/copied \d+ of 1000 rows/);
      expect([engine.hot.holds('t'), engine.hot.attempts]).to.deep.equal([false, 1]);
      await use(engine, 't', HOT_USES * 2);
      expect(engine.hot.attempts).to.equal(1);
      expect(await engine.queryJson('SELECT count(*) AS c FROM t')).to.deep.equal([{ c: 1000 }]);
      expect(await copyTables(engine)).to.deep.equal([]);
    } finally {
      engine.close();
    }
  });

  it('copies again a dataset found larger than the budget only when its measured size fits', async () => {
    const { instance, setup, host } = await hostOfOwn();
    try {
      const measure = new HotDatasets(1e9, host);
      await setup.run(parquetViewSql('m', rows, 'dataset'));
      await measure.exclusive(() => measure.redefined(setup, 'm', rows));
      for (let i = 0; i < HOT_USES; i++) measure.used('m');
      await measure.settled();
      const copied = measure.bytes;
      await measure.exclusive(() => measure.redefined(setup, 'm', null));
      // A budget its file fits (the estimate before a copy) and its copy does not.
      const { size } = await stat(rows);
      expect(copied, "a small file's copy takes more than the file (its blocks)").to.be.greaterThan(size);
      const hot = new HotDatasets(copied - 1, host);
      await setup.run(parquetViewSql('t', rows, 'dataset'));
      await hot.exclusive(() => hot.redefined(setup, 't', rows));
      for (let i = 0; i < HOT_USES * 3; i++) {
        hot.used('t');
        await hot.settled();
      }
      expect([hot.holds('t'), hot.attempts, hot.bytes]).to.deep.equal([false, 1, 0]);
    } finally {
      setup.closeSync();
      instance.closeSync();
    }
  });

  it('never swaps in a copy whose view was redefined while it was copied', async () => {
    const engine = await open();
    try {
      await engine.defineView('t', rows, 'dataset');
      for (let i = 0; i < HOT_USES; i++) engine.used('t');
      await engine.defineView('t', other, 'dataset');
      await engine.hot.settled();
      expect(engine.hot.holds('t')).to.equal(false);
      expect(await engine.queryJson('SELECT min(n) AS low FROM t')).to.deep.equal([{ low: 1_000_000 }]);
      expect(await copyTables(engine)).to.deep.equal([]);
    } finally {
      engine.close();
    }
  });

  it('drops a copy idle for HOT_IDLE_MS to make room for a dataset asked now', async () => {
    const { instance, setup, host } = await hostOfOwn();
    let now = 0;
    // Room for one copy of `rows` (its file's size), not two.
    const { size } = await stat(rows);
    const hot = new HotDatasets(size * 1.5, host, () => now);
    try {
      for (const name of ['a', 'b']) {
        await setup.run(parquetViewSql(name, rows, 'dataset'));
        await hot.exclusive(() => hot.redefined(setup, name, rows));
      }
      for (let i = 0; i < HOT_USES; i++) hot.used('a');
      await hot.settled();
      expect(hot.holds('a')).to.equal(true);
      now += HOT_IDLE_MS - 1;
      for (let i = 0; i < HOT_USES; i++) hot.used('b');
      await hot.settled();
      expect([hot.holds('a'), hot.holds('b')]).to.deep.equal([true, false]);
      now += HOT_IDLE_MS;
      for (let i = 0; i < HOT_USES; i++) hot.used('b');
      await hot.settled();
      expect([hot.holds('a'), hot.holds('b')]).to.deep.equal([false, true]);
      const sum = await (await setup.run('SELECT sum(n)::BIGINT FROM a')).getRowsJS();
      expect(sum).to.deep.equal([[199_990_000n]]);
    } finally {
      setup.closeSync();
      instance.closeSync();
    }
  });

  it('copies a dataset asked HOT_USES times over HTTP, and answers its page the same', async () => {
    const portal = await buildFixturePortal();
    const server = await startTestServer(portal, { cacheBytes: 0 });
    try {
      const page = '/api/explore/v2.1/catalog/datasets/towns/records?order_by=name&limit=3';
      const first = await (await server.get(page)).text();
      for (let i = 1; i < HOT_USES; i++) await (await server.get(page)).text();
      const engine = server.portal.engines()[0] as DuckDBEngine;
      await engine.hot.settled();
      expect(engine.hot.lastFailure).to.equal(null);
      expect(engine.hotBytes).to.be.greaterThan(0);
      const metrics = await (await server.get('/metrics')).text();
      expect(metrics).to.match(/^duckportal_hot_datasets_bytes\{engine="duckdb",server="local"\} [1-9]/m);
      expect(await (await server.get(page)).text()).to.equal(first);
    } finally {
      await server.close();
      await rm(portal, { recursive: true, force: true });
    }
  });

  it('copies nothing with --hot-memory 0: every answer read from the file', async () => {
    const portal = await buildFixturePortal();
    const server = await startTestServer(portal, { cacheBytes: 0, hotBytes: 0 });
    try {
      const page = '/api/explore/v2.1/catalog/datasets/towns/records?order_by=name&limit=3';
      for (let i = 0; i < HOT_USES * 2; i++) expect((await server.get(page)).status).to.equal(200);
      const engine = server.portal.engines()[0] as DuckDBEngine;
      await engine.hot.settled();
      expect([engine.hot.attempts, engine.hotBytes]).to.deep.equal([0, 0]);
    } finally {
      await server.close();
      await rm(portal, { recursive: true, force: true });
    }
  });

  it('takes a quarter of the memory limit', () => {
    expect(hotBudget('384MB')).to.equal(96_000_000);
    expect(hotBudget('1GiB')).to.equal(256 * 1024 * 1024);
    expect(hotBudget(undefined)).to.equal(96 * 1024 * 1024);
  });
});
