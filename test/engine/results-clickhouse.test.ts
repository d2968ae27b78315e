// The engine interface's results on ClickHouse's engine (src/engine/clickhouse/engine.ts) over a
// two-shard cluster, held to DuckDB's engine: the same rows given in each engine's SQL hand the
// same chunk values and Arrow layout, and each CopyFormat writes the same bytes. Also JSON rows,
// counts, Parquet refused, and a server down as EngineUnavailable.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ClickHouseEngine } from '../../src/engine/clickhouse/engine.js';
import { BOOLEAN_TYPE } from '../../src/engine/clickhouse/types.js';
import { DuckDBEngine } from '../../src/engine/duckdb/engine.js';
import {
  CopyUnsupported,
  EngineUnavailable,
  type Chunk,
  type CopyFormat,
  type Engine,
} from '../../src/engine/engine.js';
import {
  PORTAL_PASSWORD,
  PORTAL_USER,
  startClickHouseCluster,
  type ClickHouseCluster,
} from '../helpers/clickhouse-cluster.js';
import { freePort } from '../helpers/ports.js';

const BOOL = BOOLEAN_TYPE;

/** The same rows in a table over both shards of the ClickHouse cluster (made by the admin user). */
const CLICKHOUSE_FIXTURE = [
  `CREATE TABLE fixture (k UInt8, i Nullable(Int64), d Nullable(Float64), b Nullable(${BOOL}), day Nullable(Date),
     ts Nullable(DateTime('UTC')), s Nullable(String), list Array(Nullable(String))) ENGINE = MergeTree() ORDER BY k`,
  'CREATE TABLE fixture_all AS fixture ENGINE = Distributed(portal, default, fixture)',
];
const CLICKHOUSE_ROWS = [
  `INSERT INTO fixture VALUES (1, 1, 0.5, 'true', '2024-02-29', '2024-02-29 12:34:56', 'short', ['a', NULL, 'an item longer than twelve']),
     (2, NULL, NULL, NULL, NULL, NULL, NULL, [])`,
  `INSERT INTO fixture VALUES (3, -3, 2.0, 'false', '1970-01-01', 0, '', ['x;y']),
     (4, 9007199254740993, 1e-7, 'true', '2105-12-31', '2038-01-19 03:14:08', 'tab\\t"quoted";\\nline é', ['é'])`,
];

/**
 * Four rows of the same values in each engine's SQL: values, nulls, edge values (an empty
 * string, hostile text, whole and tiny doubles, the epoch). ClickHouse's instants are whole
 * seconds and its arrays are never null: an empty one stands for null.
 */
const ROWS = {
  duckdb: `SELECT i, d, b, day, ts, s, list FROM (VALUES
    (1, 1::BIGINT, 0.5::DOUBLE, true, DATE '2024-02-29', TIMESTAMPTZ '2024-02-29 12:34:56+00', 'short', ['a', NULL, 'an item longer than twelve']),
    (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (3, -3, 2.0, false, DATE '1970-01-01', TIMESTAMPTZ '1970-01-01 00:00:00+00', '', ['x;y']),
    (4, 9007199254740993, 1e-7, true, DATE '2105-12-31', TIMESTAMPTZ '2038-01-19 03:14:08+00', E'tab\\t"quoted";\\nline é', ['é'])
  ) t(k, i, d, b, day, ts, s, list) ORDER BY k`,
  clickhouse: 'SELECT i, d, b, day, ts, s, list FROM fixture_all ORDER BY k',
};

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** The chunks of `sql` on `engine`, each read by `read` while its export connection is held. */
const chunksOf = <T>(engine: Engine, sql: string, read: (chunk: Chunk) => T): Promise<T[]> =>
  engine.withExportConnection(async (connection) => {
    const read_: T[] = [];
    for await (const chunk of connection.chunks(sql)) read_.push(read(chunk));
    return read_;
  }, new AbortController().signal);

/** A column's arrays with typed arrays as plain ones, the null bitmap over the first four rows. */
function plain(arrays: ReturnType<Chunk['arrays']>): Record<string, unknown> {
  const { nullBitmap, ...rest } = arrays;
  const plainOf = (v: unknown): unknown =>
    ArrayBuffer.isView(v)
      ? [...(v as Int32Array)]
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainOf(x)]))
        : v;
  return { ...(plainOf(rest) as object), validity: nullBitmap ? nullBitmap[0]! & 0b1111 : null };
}

describe('engine results (ClickHouse, held to DuckDB)', function () {
  this.timeout(120_000);
  let dir: string;
  let cluster: ClickHouseCluster;
  let clickhouse: ClickHouseEngine;
  let duckdb: DuckDBEngine;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-clickhouse-results-'));
    cluster = await startClickHouseCluster(path.join(dir, 'cluster'), 2);
    for (const sql of CLICKHOUSE_FIXTURE) await cluster.admin(sql);
    for (const [shard, sql] of CLICKHOUSE_ROWS.entries()) await cluster.admin(sql, shard);
    const common = { user: PORTAL_USER, password: PORTAL_PASSWORD, tempDirectory: path.join(dir, 'tmp') };
    clickhouse = new ClickHouseEngine({ url: cluster.shards[0]!.url, ...common });
    duckdb = await DuckDBEngine.open({
      allowedDirectories: [dir],
      tempDirectory: path.join(dir, 'duck'),
      threads: 1,
    });
  });
  after(async () => {
    duckdb?.close();
    clickhouse?.close();
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("hands the JS values DuckDB's chunks hand for the same rows", async () => {
    const values = (chunk: Chunk) => Array.from({ length: 7 }, (_, i) => chunk.values(i));
    const [fromClickHouse] = await chunksOf(clickhouse, ROWS.clickhouse, values);
    const [fromDuckDB] = await chunksOf(duckdb, ROWS.duckdb, values);
    expect(fromClickHouse).to.deep.equal(fromDuckDB);
    expect(fromClickHouse![0]![3]).to.equal(9007199254740993n);
  });

  it("hands DuckDB's Arrow layout for the same rows", async () => {
    const arrays = (chunk: Chunk) => Array.from({ length: 7 }, (_, i) => plain(chunk.arrays(i)));
    const [fromClickHouse] = await chunksOf(clickhouse, ROWS.clickhouse, arrays);
    const [fromDuckDB] = await chunksOf(duckdb, ROWS.duckdb, arrays);
    expect(fromClickHouse).to.deep.equal(fromDuckDB);
  });

  it('streams a long result in several chunks, every row once and in order', async () => {
    const chunks = await chunksOf(clickhouse, 'SELECT number AS n FROM system.numbers LIMIT 5000', (c) =>
      c.values(0),
    );
    expect(chunks.length).to.be.greaterThan(1);
    expect(chunks.flat()).to.deep.equal(Array.from({ length: 5000 }, (_, n) => BigInt(n)));
  });

  const FORMATS: readonly (readonly [string, CopyFormat])[] = [
    ['csv', { format: 'csv', delimiter: ';', forceQuote: [] }],
    ['csv, quoted', { format: 'csv', delimiter: ',', forceQuote: ['s'] }],
    ['json array', { format: 'json', array: true }],
    ['json lines', { format: 'json', array: false }],
  ];
  for (const [name, format] of FORMATS) {
    it(`copies the rows in ${name} in DuckDB's bytes, empty results too`, async () => {
      const signal = new AbortController().signal;
      const frame = { head: '<', tail: '>' };
      const copy = async (engine: Engine, sql: string) =>
        (await readAll(await engine.copyToStream(sql, format, signal, frame))).toString();
      const noRows = (sql: string) => `SELECT * FROM (${sql}) WHERE i = 42`;
      const list = (sql: string) =>
        sql.replace('SELECT i, d, b, day, ts, s, list', 'SELECT i, d, b, day, ts, s');
      expect(await copy(clickhouse, list(ROWS.clickhouse))).to.equal(await copy(duckdb, list(ROWS.duckdb)));
      expect(await copy(clickhouse, noRows(ROWS.clickhouse))).to.equal(
        await copy(duckdb, noRows(ROWS.duckdb)),
      );
    });
  }

  it('refuses a Parquet copy before any query', async () => {
    const error = await clickhouse
      .copyToStream(ROWS.clickhouse, { format: 'parquet', compression: 'zstd' }, new AbortController().signal)
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(CopyUnsupported);
  });

  it('reads JSON rows and counts, a count kept until the views change', async () => {
    expect(await clickhouse.queryJson('SELECT toInt64(2) AS n, NULL AS x')).to.deep.equal([
      { n: 2, x: null },
    ]);
    await cluster.admin('CREATE TABLE counted (n Int64) ENGINE = MergeTree() ORDER BY n');
    await cluster.admin('INSERT INTO counted VALUES (1), (2)', 0);
    const sql = 'SELECT count() AS total_count FROM counted';
    expect(await clickhouse.count(sql)).to.equal(2);
    await cluster.admin('INSERT INTO counted VALUES (3)', 0);
    expect(await clickhouse.count(sql), 'kept').to.equal(2);
    await clickhouse.dropView();
    expect(await clickhouse.count(sql)).to.equal(3);
    expect([clickhouse.idleConnections, clickhouse.queriesInFlight]).to.deep.equal([8, 0]);
  });

  it('stops the query when the reader of a copy goes away', async () => {
    const running = async (): Promise<number> =>
      Number(
        await cluster.admin(
          `SELECT count() FROM system.processes WHERE user = '${PORTAL_USER}' AND query LIKE '%system.numbers%'`,
          0,
        ),
      );
    const stream = await clickhouse.copyToStream(
      'SELECT number FROM system.numbers',
      { format: 'json', array: false },
      new AbortController().signal,
    );
    for await (const part of stream) {
      expect(String(part)).to.match(/^\{"number":0\}/);
      break;
    }
    for (let tries = 0; (await running()) > 0; tries++) {
      if (tries > 100) expect.fail('the query still runs');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(clickhouse.runningExports).to.equal(0);
  });

  it('answers EngineUnavailable when the server is down, holding no place after', async () => {
    const down = new ClickHouseEngine({
      url: `http://127.0.0.1:${await freePort()}`,
      user: PORTAL_USER,
      password: PORTAL_PASSWORD,
      tempDirectory: path.join(dir, 'tmp'),
    });
    const json = await down.queryJson('SELECT 1 AS n').catch((e: unknown) => e);
    expect(json).to.be.instanceOf(EngineUnavailable);
    const copy = await down
      .copyToStream('SELECT 1 AS n', { format: 'json', array: false }, new AbortController().signal)
      .catch((e: unknown) => e);
    expect(copy).to.be.instanceOf(EngineUnavailable);
    expect([down.idleConnections, down.runningExports]).to.deep.equal([8, 0]);
  });
});
