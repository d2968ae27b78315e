// The engine refuses to serve unless DuckDB is locked: nothing outside the portal can be read,
// listed, written or fetched, and no extension or setting can be changed back.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DuckDBEngine } from '../../src/engine/duckdb/engine.js';
import { LockdownError, checkLockdown } from '../../src/engine/duckdb/lockdown.js';

describe('engine lockdown', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-lock-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('opens locked: every probe of the self-test fails on a served engine', async () => {
    const engine = await DuckDBEngine.open({
      allowedDirectories: [dir],
      tempDirectory: path.join(dir, 'tmp'),
    });
    try {
      for (const sql of [
        "SELECT * FROM read_text('/etc/passwd')",
        "SELECT getenv('HOME')",
        'SET enable_external_access = true',
      ]) {
        let failed = false;
        await engine.query(sql).catch(() => (failed = true));
        expect(failed, sql).to.equal(true);
      }
      expect((await engine.query('SELECT 41 + 1 AS n')).rows).to.deep.equal([[42]]);
    } finally {
      engine.close();
    }
  });

  it('detects an unlocked DuckDB and names the probe that escaped', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    let error: unknown;
    await checkLockdown(connection, [dir]).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(LockdownError);
    expect(String(error)).to.match(/self-test failed: `SELECT \* FROM read_text\('\/etc\//);
    connection.closeSync();
    instance.closeSync();
  });
});
