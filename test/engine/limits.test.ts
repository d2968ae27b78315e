// DuckDB's engine's own settings and limits: its allocator and file cache, Parquet footers kept,
// a full waiting line refuses at once, time in line counts toward the deadline, a caller gone
// while waiting never runs. The deadline, the export cap and the memory limit are in the engine
// contract (results.test.ts).
import { expect } from 'chai';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import os from 'node:os';
import path from 'node:path';
import { DuckDBEngine } from '../../src/engine/duckdb/engine.js';
import { EngineSaturated, QueryDeadlineExceeded, QueryInterrupted } from '../../src/engine/engine.js';

/** A query that runs for many seconds unless interrupted. */
const SLOW = 'SELECT count(*) FROM range(0, 20000000000) a(x) WHERE x % 7 = 3';

describe('engine limits', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-limits-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const open = (options: {
    queryDeadlineMs?: number;
    maxWaiting?: number;
    connections?: number;
    exportConnections?: number;
    memoryLimit?: string;
  }) =>
    DuckDBEngine.open({
      allowedDirectories: [dir],
      tempDirectory: path.join(dir, 'tmp'),
      threads: 1,
      ...options,
    });

  it('flushes and purges its allocator early, and keeps no copy of the files it reads', async () => {
    const engine = await open({});
    try {
      const [row] = await engine.queryJson(
        `SELECT current_setting('allocator_flush_threshold') AS flush,
          current_setting('allocator_background_threads') AS background,
          current_setting('enable_external_file_cache') AS file_cache`,
      );
      // 16 MB, as DuckDB shows it.
      expect(row).to.deep.equal({ flush: '15.2 MiB', background: true, file_cache: false });
    } finally {
      engine.close();
    }
  });

  it('keeps Parquet footers, and reads a file renamed over its view anew, even one written earlier', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const writer = await instance.connect();
    const write = (rows: number, file: string) =>
      writer.run(`COPY (SELECT range AS x FROM range(${rows})) TO '${file}' (FORMAT parquet)`);
    const served = path.join(dir, 'served.parquet');
    const older = path.join(dir, 'older.parquet');
    await write(5000, older);
    await delay(1100);
    await write(100, served);
    const engine = await open({});
    try {
      await engine.defineView('footers', served);
      const count = async () => (await engine.queryJson('SELECT count(*) AS n FROM footers'))[0]?.n;
      const [setting] = await engine.queryJson(`SELECT current_setting('parquet_metadata_cache') AS kept`);
      expect(setting).to.deep.equal({ kept: true });
      expect(await count()).to.equal(100);
      // Its footer is cached after the older file's modification time: a cache trusting any file
      // older than its entry would answer 100.
      await rename(older, served);
      expect(await count()).to.equal(5000);
    } finally {
      engine.close();
      writer.closeSync();
      instance.closeSync();
    }
  });

  it('refuses a caller beyond the waiting line at once; time in line counts toward the deadline', async () => {
    const engine = await open({ queryDeadlineMs: 500, connections: 1, maxWaiting: 1 });
    try {
      // The only connection is held for 800 ms by work without a deadline; the caller in line
      // reaches its 500 ms deadline 300 ms before the connection comes free.
      const holding = engine.withConnection(() => new Promise((resolve) => setTimeout(resolve, 800)));
      const waiting = engine.queryJson('SELECT 1 AS n').catch((e: unknown) => e);
      let refused: unknown;
      await engine.queryJson('SELECT 2 AS n').catch((e: unknown) => (refused = e));
      expect(refused).to.be.instanceOf(EngineSaturated);
      await holding;
      expect(await waiting).to.be.instanceOf(QueryDeadlineExceeded);
      expect(await engine.queryJson('SELECT 4 AS n')).to.deep.equal([{ n: 4 }]);
    } finally {
      engine.close();
    }
  });

  it('does not run the query of a caller that left while waiting', async () => {
    const engine = await open({ queryDeadlineMs: 500, connections: 1 });
    try {
      const running = engine.queryJson(SLOW).catch((e: unknown) => e);
      const controller = new AbortController();
      const gone = engine.queryJson('SELECT 1 AS n', [], controller.signal).catch((e: unknown) => e);
      controller.abort();
      expect(await gone).to.be.instanceOf(QueryInterrupted);
      await running;
      expect(await engine.queryJson('SELECT 3 AS n')).to.deep.equal([{ n: 3 }]);
    } finally {
      engine.close();
    }
  });
});
