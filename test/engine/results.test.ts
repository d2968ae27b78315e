// The engine contract (src/engine/engine.ts), one suite run over both engines: DuckDB's in the
// process and ClickHouse's over a two-shard cluster. The same rows, given in each engine's SQL,
// hand the same chunk values and Arrow layout, long results come in several chunks, each
// CopyFormat writes the same bytes, JSON rows and counts (kept until the views change) read the
// same, a caller gone stops its query and a reader gone its copy, the deadline stops a query and
// its place serves the next, and the export cap refuses one more. What one engine alone does is in
// a block of its own at the end: DuckDB's decimals, Parquet and memory limit; ClickHouse's
// queries seen gone from system.processes (KILL QUERY), Parquet refused, a server down.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { toErrorBody } from '../../src/http/errors.js';
import { ClickHouseEngine } from '../../src/engine/clickhouse/engine.js';
import { BOOLEAN_TYPE } from '../../src/engine/clickhouse/types.js';
import { DuckDBEngine } from '../../src/engine/duckdb/engine.js';
import {
  CopyUnsupported,
  EngineSaturated,
  EngineUnavailable,
  QueryDeadlineExceeded,
  QueryInterrupted,
  QueryOutOfMemory,
  type Chunk,
  type ColumnArrays,
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

/** The limits an engine of the suite is opened with. */
interface Limits {
  readonly queryDeadlineMs?: number;
  readonly connections?: number;
  readonly exportConnections?: number;
}

/** An engine under the contract, and what its SQL spells differently. */
interface Subject {
  readonly name: string;
  /** A new engine (the caller closes it). */
  open(limits?: Limits): Promise<Engine>;
  /** The four rows of ROW_VALUES, in order: columns i, d, b, day, ts, s, list. */
  readonly rows: string;
  /** The column n of 0 ... count - 1, in order. */
  numbers(count: number): string;
  /** Rows without end, streamed as they come. */
  readonly endless: string;
  /** One row after minutes of work, unless stopped. */
  readonly slow: string;
  /** (Re)makes the table `counted` of the column n holding `values`, behind the engine's back. */
  fill(engine: Engine, values: readonly number[]): Promise<void>;
}

/** The fixture's values as chunks hand them (ClickHouse's instants are whole seconds, its arrays never null: [] stands for null). */
const ROW_VALUES = [
  [1n, null, -3n, 9007199254740993n],
  [0.5, null, 2, 1e-7],
  [true, null, false, true],
  ['2024-02-29', null, '1970-01-01', '2105-12-31'],
  ['2024-02-29 12:34:56+00', null, '1970-01-01 00:00:00+00', '2038-01-19 03:14:08+00'],
  ['short', null, '', 'tab\t"quoted";\nline é'],
  [['a', null, 'an item longer than twelve'], null, ['x;y'], ['é']],
];

const DUCKDB_ROWS = `SELECT i, d, b, day, ts, s, list FROM (VALUES
    (1, 1::BIGINT, 0.5::DOUBLE, true, DATE '2024-02-29', TIMESTAMPTZ '2024-02-29 12:34:56+00', 'short', ['a', NULL, 'an item longer than twelve']),
    (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (3, -3, 2.0, false, DATE '1970-01-01', TIMESTAMPTZ '1970-01-01 00:00:00+00', '', ['x;y']),
    (4, 9007199254740993, 1e-7, true, DATE '2105-12-31', TIMESTAMPTZ '2038-01-19 03:14:08+00', E'tab\\t"quoted";\\nline é', ['é'])
  ) t(k, i, d, b, day, ts, s, list) ORDER BY k`;

/** The same rows in a table over both shards of the cluster (made by the admin user). */
const CLICKHOUSE_FIXTURE = [
  `CREATE TABLE fixture (k UInt8, i Nullable(Int64), d Nullable(Float64), b Nullable(${BOOLEAN_TYPE}), day Nullable(Date),
     ts Nullable(DateTime('UTC')), s Nullable(String), list Array(Nullable(String))) ENGINE = MergeTree() ORDER BY k`,
  'CREATE TABLE fixture_all AS fixture ENGINE = Distributed(portal, default, fixture)',
];
const CLICKHOUSE_ROWS = [
  `INSERT INTO fixture VALUES (1, 1, 0.5, 'true', '2024-02-29', '2024-02-29 12:34:56', 'short', ['a', NULL, 'an item longer than twelve']),
     (2, NULL, NULL, NULL, NULL, NULL, NULL, [])`,
  `INSERT INTO fixture VALUES (3, -3, 2.0, 'false', '1970-01-01', 0, '', ['x;y']),
     (4, 9007199254740993, 1e-7, 'true', '2105-12-31', '2038-01-19 03:14:08', 'tab\\t"quoted";\\nline é', ['é'])`,
];

/** Each CopyFormat's bytes for the fixture's rows without their list, between '<' and '>', then for none. */
const COPIES: readonly (readonly [string, CopyFormat, string, string])[] = [
  [
    'csv',
    { format: 'csv', delimiter: ';', forceQuote: [] },
    '<i;d;b;day;ts;s\n1;0.5;true;2024-02-29;2024-02-29 12:34:56+00;short\n;;;;;\n-3;2.0;false;1970-01-01;1970-01-01 00:00:00+00;""\n9007199254740993;1e-07;true;2105-12-31;2038-01-19 03:14:08+00;"tab\t""quoted"";\nline é"\n>',
    '<i;d;b;day;ts;s\n>',
  ],
  [
    'csv, quoted',
    { format: 'csv', delimiter: ',', forceQuote: ['s'] },
    '<i,d,b,day,ts,"s"\n1,0.5,true,2024-02-29,2024-02-29 12:34:56+00,"short"\n,,,,,\n-3,2.0,false,1970-01-01,1970-01-01 00:00:00+00,""\n9007199254740993,1e-07,true,2105-12-31,2038-01-19 03:14:08+00,"tab\t""quoted"";\nline é"\n>',
    '<i,d,b,day,ts,"s"\n>',
  ],
  [
    'json array',
    { format: 'json', array: true },
    '<[\n\t{"i":1,"d":0.5,"b":true,"day":"2024-02-29","ts":"2024-02-29 12:34:56+00","s":"short"},\n\t{"i":null,"d":null,"b":null,"day":null,"ts":null,"s":null},\n\t{"i":-3,"d":2.0,"b":false,"day":"1970-01-01","ts":"1970-01-01 00:00:00+00","s":""},\n\t{"i":9007199254740993,"d":1e-7,"b":true,"day":"2105-12-31","ts":"2038-01-19 03:14:08+00","s":"tab\\t\\"quoted\\";\\nline é"}\n]\n>',
    '<[\n\t\n]\n>',
  ],
  [
    'json lines',
    { format: 'json', array: false },
    '<{"i":1,"d":0.5,"b":true,"day":"2024-02-29","ts":"2024-02-29 12:34:56+00","s":"short"}\n{"i":null,"d":null,"b":null,"day":null,"ts":null,"s":null}\n{"i":-3,"d":2.0,"b":false,"day":"1970-01-01","ts":"1970-01-01 00:00:00+00","s":""}\n{"i":9007199254740993,"d":1e-7,"b":true,"day":"2105-12-31","ts":"2038-01-19 03:14:08+00","s":"tab\\t\\"quoted\\";\\nline é"}\n>',
    '<>',
  ],
];

const text = new TextDecoder();

/** The strings of UTF-8 arrays (null where the validity says so). */
function strings(arrays: ColumnArrays): (string | null)[] {
  if (arrays.type !== 'utf8') throw new Error(`not UTF-8 arrays: ${arrays.type}`);
  return Array.from({ length: arrays.valueOffsets.length - 1 }, (_, i) =>
    arrays.nullBitmap && !((arrays.nullBitmap[i >> 3]! >> (i & 7)) & 1)
      ? null
      : text.decode(arrays.data.subarray(arrays.valueOffsets[i], arrays.valueOffsets[i + 1])),
  );
}

/** A column's arrays with typed arrays as plain ones, the validity of the first four rows (bits past them vary). */
function plain(arrays: ColumnArrays): Record<string, unknown> {
  const { nullBitmap, ...rest } = arrays;
  return {
    ...Object.fromEntries(
      Object.entries(rest).map(([k, v]) => [k, ArrayBuffer.isView(v) ? [...(v as Int32Array)] : v]),
    ),
    validity: nullBitmap ? nullBitmap[0]! & 0b1111 : null,
  };
}

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

/** Waits (5 s at most) until `condition` holds. */
async function until(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  for (const start = Date.now(); !(await condition()); await sleep(20))
    if (Date.now() - start > 5000) expect.fail(`never: ${what}`);
}

/** The error `work` rejects with (a failure if it resolves). */
async function failure(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => expect.fail('it did not fail'),
    (error: unknown) => error,
  );
}

describe('the engine contract, over DuckDB and ClickHouse', function () {
  this.timeout(120_000);
  let dir: string;
  let cluster: ClickHouseCluster;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-engine-contract-'));
    cluster = await startClickHouseCluster(path.join(dir, 'cluster'), 2);
    for (const sql of CLICKHOUSE_FIXTURE) await cluster.admin(sql);
    for (const [shard, sql] of CLICKHOUSE_ROWS.entries()) await cluster.admin(sql, shard);
  });
  after(async () => {
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const openDuckDB = (limits: Limits & { memoryLimit?: string } = {}): Promise<DuckDBEngine> =>
    DuckDBEngine.open({
      allowedDirectories: [dir],
      tempDirectory: path.join(dir, `duck-${Math.random().toString(36).slice(2)}`),
      threads: 1,
      ...limits,
    });
  const openClickHouse = ({ queryDeadlineMs, ...limits }: Limits = {}, url = cluster.shards[0]!.url) =>
    new ClickHouseEngine({
      url,
      user: PORTAL_USER,
      password: PORTAL_PASSWORD,
      tempDirectory: path.join(dir, 'tmp'),
      ...(queryDeadlineMs ? { deadlineMs: queryDeadlineMs } : {}),
      ...limits,
    });

  const SUBJECTS: readonly Subject[] = [
    {
      name: 'DuckDB',
      open: openDuckDB,
      rows: DUCKDB_ROWS,
      numbers: (count) => `SELECT range AS n FROM range(${count})`,
      endless: 'SELECT range AS n FROM range(1000000000000)',
      slow: 'SELECT count(*) AS n FROM range(0, 20000000000) a(x) WHERE x % 7 = 3',
      fill: async (engine, values) => {
        const rows = values.map((n) => `(${n})`).join(', ');
        await (engine as DuckDBEngine).query(`CREATE OR REPLACE TABLE counted AS FROM (VALUES ${rows}) t(n)`);
      },
    },
    {
      name: 'ClickHouse',
      open: (limits) => Promise.resolve(openClickHouse(limits)),
      rows: 'SELECT i, d, b, day, ts, s, list FROM fixture_all ORDER BY k',
      numbers: (count) => `SELECT number AS n FROM system.numbers LIMIT ${count}`,
      endless: 'SELECT number AS n FROM system.numbers',
      slow: 'SELECT count() AS n FROM system.numbers WHERE number % 7 = 3',
      fill: async (_engine, values) => {
        await cluster.admin('DROP TABLE IF EXISTS counted');
        await cluster.admin('CREATE TABLE counted (n Int64) ENGINE = MergeTree() ORDER BY n');
        await cluster.admin(`INSERT INTO counted VALUES ${values.map((n) => `(${n})`).join(', ')}`, 0);
      },
    },
  ];

  for (const subject of SUBJECTS) {
    describe(`${subject.name}'s engine`, () => {
      let engine: Engine;
      before(async () => {
        engine = await subject.open();
      });
      after(() => engine?.close());

      /** Runs `test` on an engine of its own opened with `limits`, closed after. */
      const withEngine = async (limits: Limits, test: (engine: Engine) => Promise<void>): Promise<void> => {
        const own = await subject.open(limits);
        try {
          await test(own);
        } finally {
          own.close();
        }
      };

      it('hands JS values: numbers, bigints, booleans, texts, lists as arrays, dates and instants as text', async () => {
        const [columns] = await chunksOf(engine, subject.rows, (chunk) =>
          Array.from({ length: 7 }, (_, i) => chunk.values(i)),
        );
        expect(columns).to.deep.equal(ROW_VALUES);
      });

      it("hands Arrow's layout: values, validity bits, null slots zeroed, UTF-8 offsets", async () => {
        const [columns] = await chunksOf(engine, subject.rows, (chunk) =>
          Array.from({ length: 7 }, (_, i) => chunk.arrays(i)),
        );
        const [i, d, b, day, ts, s, list] = columns!;
        expect([i!, d!, b!, day!, ts!].map(plain)).to.deep.equal([
          { type: 'int64', values: [1n, 0n, -3n, 9007199254740993n], nullCount: 1, validity: 0b1101 },
          { type: 'float64', values: [0.5, 0, 2, 1e-7], nullCount: 1, validity: 0b1101 },
          { type: 'bool', values: [0b1001], nullCount: 1, validity: 0b1101 },
          {
            type: 'date32',
            values: [Date.UTC(2024, 1, 29) / 86_400_000, 0, 0, Date.UTC(2105, 11, 31) / 86_400_000],
            nullCount: 1,
            validity: 0b1101,
          },
          {
            type: 'timestamp_us',
            values: [Date.UTC(2024, 1, 29, 12, 34, 56), 0, 0, 2 ** 31 * 1000].map((ms) => BigInt(ms) * 1000n),
            nullCount: 1,
            validity: 0b1101,
          },
        ]);
        expect(strings(s!)).to.deep.equal(ROW_VALUES[5]);
        if (list!.type !== 'list') expect.fail(`a list column came as ${list!.type}`);
        expect([[...list!.valueOffsets], list!.nullCount, strings(list!.child)]).to.deep.equal([
          [0, 3, 3, 4, 5],
          1,
          ['a', null, 'an item longer than twelve', 'x;y', 'é'],
        ]);
      });

      it('streams a long result in several chunks, every row once and in order', async () => {
        const chunks = await chunksOf(engine, subject.numbers(5000), (chunk) => chunk.values(0));
        expect(chunks.length).to.be.greaterThan(1);
        expect(chunks.flat()).to.deep.equal(Array.from({ length: 5000 }, (_, n) => BigInt(n)));
      });

      for (const [name, format, rows, none] of COPIES) {
        it(`copies a result in ${name}, and an empty one`, async () => {
          const signal = new AbortController().signal;
          const copy = async (sql: string) =>
            (
              await readAll(await engine.copyToStream(sql, format, signal, { head: '<', tail: '>' }))
            ).toString();
          const withoutList = subject.rows.replace(
            'SELECT i, d, b, day, ts, s, list',
            'SELECT i, d, b, day, ts, s',
          );
          expect(await copy(withoutList)).to.equal(rows);
          expect(await copy(`SELECT * FROM (${withoutList}) WHERE i = 42`)).to.equal(none);
        });
      }

      it('reads JSON rows, integers as numbers, and counts kept until the views change', async () => {
        expect(
          await engine.queryJson(`SELECT i, b, s FROM (${subject.rows}) WHERE d = 2 OR d IS NULL`),
        ).to.deep.equal([
          { i: null, b: null, s: null },
          { i: -3, b: false, s: '' },
        ]);
        // Counts and sums past 2^53 do not occur in a portal: both engines read them as numbers.
        const [big] = await engine.queryJson(`SELECT i FROM (${subject.rows}) WHERE d < 0.001`);
        expect(big).to.deep.equal({ i: 9007199254740992 });
        await subject.fill(engine, [1, 2]);
        const sql = 'SELECT count(*) AS total_count FROM counted';
        expect(await engine.count(sql)).to.equal(2);
        await subject.fill(engine, [1, 2, 3]);
        expect(await engine.count(sql), 'kept').to.equal(2);
        await engine.dropView('none_such');
        expect(await engine.count(sql)).to.equal(3);
        expect([engine.idleConnections, engine.queriesInFlight]).to.deep.equal([8, 0]);
      });

      it('stops the query of a caller gone, and holds no place after', async () => {
        const gone = new AbortController();
        const query = failure(engine.queryJson(subject.slow, [], gone.signal));
        await sleep(200);
        expect(engine.queriesInFlight).to.equal(1);
        gone.abort();
        expect(await query).to.be.instanceOf(QueryInterrupted);
        await until('no statement runs', () => engine.queriesInFlight === 0);
        expect(engine.idleConnections).to.equal(8);
      });

      it('stops a copy whose reader goes away, and holds no export after', async () => {
        const format = { format: 'json', array: false } as const;
        const stream = await engine.copyToStream(subject.endless, format, new AbortController().signal);
        for await (const part of stream) {
          expect(String(part)).to.match(/^\{"n":0\}\n\{"n":1\}/);
          break;
        }
        await until('the copy stops', () => engine.runningExports === 0 && engine.queriesInFlight === 0);
      });

      it('stops a query past its deadline, and its place answers the next query', async () => {
        await withEngine({ queryDeadlineMs: 300, connections: 1 }, async (own) => {
          expect(await failure(own.queryJson(subject.slow))).to.be.instanceOf(QueryDeadlineExceeded);
          expect(await own.queryJson('SELECT 42 AS n')).to.deep.equal([{ n: 42 }]);
        });
      });

      it('runs exports outside the places of JSON queries, up to its cap, and refuses one more', async () => {
        await withEngine({ connections: 1, exportConnections: 2 }, async (own) => {
          const controllers = [new AbortController(), new AbortController()];
          const exports = controllers.map((c) =>
            failure(own.withExportConnection((connection) => connection.readJson(subject.slow), c.signal)),
          );
          await sleep(100);
          expect(own.runningExports).to.equal(2);
          expect(await own.queryJson('SELECT 5 AS n')).to.deep.equal([{ n: 5 }]);
          const refused = failure(
            own.withExportConnection(() => Promise.resolve(), new AbortController().signal),
          );
          expect(await refused).to.be.instanceOf(EngineSaturated);
          controllers.forEach((c) => c.abort());
          for (const error of await Promise.all(exports)) expect(error).to.be.instanceOf(QueryInterrupted);
          await until('no statement runs', () => own.queriesInFlight === 0);
        });
      });
    });
  }

  describe("DuckDB's engine alone", () => {
    it('refuses an Arrow layout for a type that has none here (DECIMAL)', async () => {
      const engine = await openDuckDB();
      try {
        const error = await failure(
          chunksOf(engine, 'SELECT 12.50::DECIMAL(5, 2) AS dec', (c) => c.arrays(0)),
        );
        expect(String(error)).to.match(/no Arrow layout for DuckDB type DECIMAL/);
      } finally {
        engine.close();
      }
    });

    it('copies a result in Parquet', async () => {
      const engine = await openDuckDB();
      try {
        const format = { format: 'parquet', compression: 'zstd' } as const;
        const parquet = await readAll(
          await engine.copyToStream(DUCKDB_ROWS, format, new AbortController().signal),
        );
        expect([parquet.subarray(0, 4).toString(), parquet.subarray(-4).toString()]).to.deep.equal([
          'PAR1',
          'PAR1',
        ]);
      } finally {
        engine.close();
      }
    });

    it('answers a query past the memory limit with a clean 503, and the next query runs', async () => {
      const engine = await openDuckDB({ memoryLimit: '32MB' });
      try {
        const error = await failure(
          engine.queryJson(`SELECT length(string_agg(x::VARCHAR, ',')) AS n FROM range(20000000) r(x)`),
        );
        expect(error).to.be.instanceOf(QueryOutOfMemory);
        const { status, body, headers } = toErrorBody(error);
        expect([status, body.error_code, headers]).to.deep.equal([
          503,
          'QueryOutOfMemory',
          { 'Retry-After': '5' },
        ]);
        expect(body.message).not.to.match(/Out of Memory Error|MiB/);
        expect(await engine.queryJson('SELECT 6 AS n')).to.deep.equal([{ n: 6 }]);
      } finally {
        engine.close();
      }
    });
  });

  describe("ClickHouse's engine alone", () => {
    /** The read-only user's queries running on the first shard now. */
    const running = async (): Promise<number> =>
      Number(
        await cluster.admin(
          `SELECT count() FROM system.processes WHERE user = '${PORTAL_USER}' AND query LIKE '%system.numbers%'`,
          0,
        ),
      );

    it('kills on the server (KILL QUERY) the query of a caller gone, of a reader gone and past its deadline', async () => {
      const engine = openClickHouse({ queryDeadlineMs: 500 });
      try {
        const gone = new AbortController();
        const query = failure(engine.queryJson('SELECT count() FROM system.numbers', [], gone.signal));
        await until('the query runs', async () => (await running()) === 1);
        gone.abort();
        await query;
        await until('the query is gone', async () => (await running()) === 0);
        const stream = await engine.copyToStream(
          'SELECT number FROM system.numbers',
          { format: 'json', array: false },
          new AbortController().signal,
        );
        for await (const part of stream) {
          expect(await running()).to.equal(1);
          expect(String(part)).to.match(/^\{"number":0\}/);
          break;
        }
        await until('the copy is gone', async () => (await running()) === 0);
        expect(await failure(engine.queryJson('SELECT count() FROM system.numbers'))).to.be.instanceOf(
          QueryDeadlineExceeded,
        );
        await until('the query past its deadline is gone', async () => (await running()) === 0);
      } finally {
        engine.close();
      }
    });

    it('refuses a Parquet copy without a Parquet encoder (DuckDB), before any query', async () => {
      const engine = openClickHouse();
      const format = { format: 'parquet', compression: 'zstd' } as const;
      const error = await failure(engine.copyToStream('SELECT 1 AS n', format, new AbortController().signal));
      expect(error).to.be.instanceOf(CopyUnsupported);
    });

    it('answers EngineUnavailable when the server is down, holding no place after', async () => {
      const down = openClickHouse({}, `http://127.0.0.1:${await freePort()}`);
      expect(await failure(down.queryJson('SELECT 1 AS n'))).to.be.instanceOf(EngineUnavailable);
      const copy = failure(
        down.copyToStream('SELECT 1 AS n', { format: 'json', array: false }, new AbortController().signal),
      );
      expect(await copy).to.be.instanceOf(EngineUnavailable);
      expect([down.idleConnections, down.runningExports, down.queriesInFlight]).to.deep.equal([8, 0, 0]);
    });
  });
});
