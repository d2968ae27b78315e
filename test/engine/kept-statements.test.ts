// DuckDB's engine keeps each pooled query prepared by its SQL and serves small Parquet files from
// memory (src/engine/duckdb/prepared.ts, small-tables.ts): a statement asked again answers the
// same, with its parameters bound anew; a view redefined over another file answers the new rows,
// not a kept plan's; a small pinned file is a table and a large one (or one past the budget, or
// one not pinned) a view, each replaced by the other and dropped as what it is; a memory limit's
// text gives the budget.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DuckDBEngine } from '../../src/engine/duckdb/engine.js';
import { keepable, PreparedStatements } from '../../src/engine/duckdb/prepared.js';
import { limitBytes, SMALL_FILE_BYTES, SmallTables } from '../../src/engine/duckdb/small-tables.js';

describe('DuckDB: kept statements and small tables', function () {
  this.timeout(30_000);
  let dir: string;
  let engine: DuckDBEngine;
  let small: string;
  let other: string;
  let large: string;

  /** Writes `rows` of n (0 ... rows - 1, plus `add`) as a Parquet file. */
  async function parquet(file: string, rows: number, add = 0): Promise<string> {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    // Random text so that the large file stays large once compressed.
    await connection.run(
      `COPY (SELECT range + ${add} AS n, md5(range::VARCHAR) || md5((range + 1)::VARCHAR) AS s FROM range(${rows}))
       TO '${file}' (FORMAT parquet)`,
    );
    connection.closeSync();
    instance.closeSync();
    return file;
  }

  /** Whether `name` is a table (not a view) in the engine's catalog. */
  async function isTable(name: string): Promise<boolean> {
    const rows = await engine.queryJson(`SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = $1`, [
      name,
    ]);
    return rows[0]!.n === 1;
  }

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kept-'));
    small = await parquet(path.join(dir, 'small.parquet'), 100);
    other = await parquet(path.join(dir, 'other.parquet'), 100, 1000);
    large = await parquet(path.join(dir, 'large.parquet'), 50_000);
    engine = await DuckDBEngine.open({ allowedDirectories: [dir], tempDirectory: path.join(dir, 'tmp') });
  });

  after(async () => {
    engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers a statement asked again the same, and binds its parameters anew', async () => {
    await engine.defineView('t', small);
    const sql = 'SELECT sum(n) AS total FROM t WHERE n < $1';
    expect(await engine.queryJson(sql, [10])).to.deep.equal([{ total: 45 }]);
    expect(await engine.queryJson(sql, [10])).to.deep.equal([{ total: 45 }]);
    expect(await engine.queryJson(sql, [3])).to.deep.equal([{ total: 3 }]);
    const count = 'SELECT count(*) AS total_count FROM t WHERE n >= 50';
    expect(await engine.queryJson(count)).to.deep.equal([{ total_count: 50 }]);
    expect(await engine.queryJson(count)).to.deep.equal([{ total_count: 50 }]);
  });

  it("keeps no statement with a subquery or a join: its hash table would stay in DuckDB's memory", async () => {
    // Kept, each of these held its hash table after it ran (DuckDB builds the semi join on the
    // outer side, the smaller): 8.4 MB each, 100 MB for the 12, a few hundred the memory limit.
    await engine.queryJson(`CREATE OR REPLACE TABLE tt AS SELECT * FROM read_parquet('${large}')`);
    for (let k = 0; k < 12; k++) {
      const sql = `SELECT count(*) AS n FROM tt WHERE n < ${100 + k} AND s IN (SELECT s FROM tt)`;
      expect(await engine.queryJson(sql)).to.deep.equal([{ n: 100 + k }]);
    }
    const held = await engine.queryJson(
      "SELECT sum(memory_usage_bytes) AS bytes FROM duckdb_memory() WHERE tag = 'HASH_TABLE'",
    );
    await engine.queryJson('DROP TABLE tt');
    expect(Number(held[0]!.bytes)).to.be.below(1_000_000);
    expect(keepable('SELECT count(*) AS n FROM t WHERE n >= $1')).to.equal(true);
    expect(keepable('SELECT n FROM t WHERE s IN (SELECT s FROM u)')).to.equal(false);
    expect(keepable('select n from t join u using (n)')).to.equal(false);
  });

  it('answers the new rows once a view is defined over another file', async () => {
    await engine.defineView('t', small);
    const sql = 'SELECT min(n) AS low FROM t';
    expect(await engine.queryJson(sql)).to.deep.equal([{ low: 0 }]);
    await engine.defineView('t', other);
    expect(await engine.queryJson(sql)).to.deep.equal([{ low: 1000 }]);
    await engine.defineView('t', large);
    expect(await engine.queryJson(sql)).to.deep.equal([{ low: 0 }]);
  });

  it('serves a small file from memory and a large one from its file, each replacing the other', async () => {
    await engine.defineView('s', small, 'pinned');
    expect(await isTable('s')).to.equal(true);
    await engine.defineView('s', large, 'pinned');
    expect(await isTable('s')).to.equal(false);
    expect(await engine.queryJson('SELECT count(*) AS n FROM s')).to.deep.equal([{ n: 50_000 }]);
    await engine.defineView('s', small, 'pinned');
    expect(await isTable('s')).to.equal(true);
    expect(await engine.queryJson('SELECT count(*) AS n FROM s')).to.deep.equal([{ n: 100 }]);
    await engine.dropView('s');
    expect(
      await engine.queryJson(`SELECT count(*) AS n FROM duckdb_views() WHERE view_name = 's'`),
    ).to.deep.equal([{ n: 0 }]);
    expect(await isTable('s')).to.equal(false);
  });

  it("keeps a dataset's rows and a file not pinned in their files (views)", async () => {
    await engine.defineView('d', small, 'dataset');
    expect(await isTable('d')).to.equal(false);
    expect(await engine.queryJson('SELECT max(_ordinal) AS last FROM d')).to.deep.equal([{ last: 100 }]);
    await engine.defineView('p', small);
    expect(await isTable('p')).to.equal(false);
  });

  it('copies a file within the budget only, and gives a dropped copy back', async () => {
    const tables = new SmallTables(100 * 1024);
    expect(await tables.take('a', small)).to.equal(true);
    expect(await tables.take('b', other)).to.equal(false);
    expect(await tables.take('c', path.join(dir, '*.parquet'))).to.equal(false);
    expect(await tables.take('d', large)).to.equal(false);
    tables.release('a');
    expect(tables.bytes).to.equal(0);
    expect(await tables.take('b', other)).to.equal(true);
    expect(SMALL_FILE_BYTES).to.be.below(2 * 1024 * 1024);
  });

  it('reads a memory limit as DuckDB writes it', () => {
    expect(limitBytes('384MB')).to.equal(384e6);
    expect(limitBytes('2GiB')).to.equal(2 * 1024 ** 3);
    expect(limitBytes('1.5GB')).to.equal(1.5e9);
    expect(limitBytes('512KiB')).to.equal(512 * 1024);
    expect(limitBytes(undefined)).to.equal(null);
    expect(limitBytes('lots')).to.equal(null);
  });

  it('runs as plain queries when it keeps none', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const none = new PreparedStatements(0);
    const result = await none.run(connection, 'SELECT 41 + $1 AS n', [1]);
    expect(await result.getRowObjects()).to.deep.equal([{ n: 42 }]);
    connection.closeSync();
    instance.closeSync();
  });
});
