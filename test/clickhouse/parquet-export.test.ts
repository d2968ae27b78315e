// The Parquet copy of ClickHouse's engine, encoded by DuckDB's (src/engine/duckdb/parquet-encoder.ts)
// from ClickHouse's rows: the same values DuckDB's own COPY writes, hostile texts and edge values
// included, read back with DuckDB in the same column types; and a reader that goes away stops both
// the ClickHouse query (KILL QUERY) and DuckDB's COPY, leaving no pipe and no export running (and
// the ClickHouse query of a CSV copy whose lines it writes, written-copy.ts).
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ClickHouseEngine } from '../../src/engine/clickhouse/engine.js';
import { BOOLEAN_TYPE } from '../../src/engine/clickhouse/types.js';
import { openPipes } from '../../src/engine/duckdb/copy-stream.js';
import { DuckDBEngine } from '../../src/engine/duckdb/engine.js';
import { parquetEncoder } from '../../src/engine/duckdb/parquet-encoder.js';
import {
  PORTAL_PASSWORD,
  PORTAL_USER,
  startClickHouseCluster,
  type ClickHouseCluster,
} from '../helpers/clickhouse-cluster.js';
import { settle } from '../helpers/downloads.js';
import { duckRows } from '../exports/readers.js';

const POINT = 'Tuple(Nullable(Float64), Nullable(Float64))';

/** The same rows in ClickHouse's table and in DuckDB's SQL: values, nulls, hostile texts, edges. */
const FIXTURE = [
  `CREATE TABLE fixture (k UInt8, i Nullable(Int64), d Nullable(Float64), b Nullable(${BOOLEAN_TYPE}),
     day Nullable(Date), ts Nullable(DateTime('UTC')), s Nullable(String), list Array(String), p ${POINT})
     ENGINE = MergeTree() ORDER BY k`,
  `INSERT INTO fixture VALUES
     (1, 1, 0.5, 'true', '2024-02-29', '2024-02-29 12:34:56', 'short', ['a', 'an item, "quoted"'], (-122.5, 37.25)),
     (2, NULL, NULL, NULL, NULL, NULL, NULL, [], (NULL, NULL)),
     (3, -3, 2.0, 'false', '1970-01-02', '1970-01-01 00:00:01', '', ['x;y'], (0, -90)),
     (4, 9007199254740993, 1e-7, 'true', '2105-12-31', '2038-01-19 03:14:08', 'tab\\t"quoted";\\nline é,\\\\N', ['é', ''], (180, 90))`,
];
const DUCKDB_ROWS = `SELECT i, d, b, day, ts, s, list, p FROM (VALUES
    (1, 1::BIGINT, 0.5::DOUBLE, true, DATE '2024-02-29', TIMESTAMPTZ '2024-02-29 12:34:56+00', 'short', ['a', 'an item, "quoted"'], {'lon': -122.5::DOUBLE, 'lat': 37.25::DOUBLE}),
    (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (3, -3, 2.0, false, DATE '1970-01-02', TIMESTAMPTZ '1970-01-01 00:00:01+00', '', ['x;y'], {'lon': 0::DOUBLE, 'lat': -90::DOUBLE}),
    (4, 9007199254740993, 1e-7, true, DATE '2105-12-31', TIMESTAMPTZ '2038-01-19 03:14:08+00', E'tab\\t"quoted";\\nline é,\\\\N', ['é', ''], {'lon': 180::DOUBLE, 'lat': 90::DOUBLE})
  ) t(k, i, d, b, day, ts, s, list, p) ORDER BY k`;

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

describe('Parquet copies of ClickHouse results, encoded by DuckDB', function () {
  this.timeout(120_000);
  let dir: string;
  let cluster: ClickHouseCluster;
  let clickhouse: ClickHouseEngine;
  let duckdb: DuckDBEngine;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-clickhouse-parquet-'));
    cluster = await startClickHouseCluster(path.join(dir, 'cluster'), 1);
    for (const sql of FIXTURE) await cluster.admin(sql);
    duckdb = await DuckDBEngine.open({
      allowedDirectories: [dir],
      tempDirectory: path.join(dir, 'duck'),
      threads: 1,
    });
    clickhouse = new ClickHouseEngine({
      url: cluster.shards[0]!.url,
      user: PORTAL_USER,
      password: PORTAL_PASSWORD,
      tempDirectory: path.join(dir, 'tmp'),
      parquetEncoder: parquetEncoder(duckdb),
    });
  });
  after(async () => {
    duckdb?.close();
    clickhouse?.close();
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Rows and column types of Parquet bytes, read back with DuckDB. */
  const readBack = async (bytes: Buffer, name: string) => {
    const file = path.join(dir, name);
    await writeFile(file, bytes);
    return duckRows(`read_parquet('${file}')`);
  };

  for (const compression of ['snappy', 'zstd'] as const) {
    it(`holds the values DuckDB's own Parquet holds, in the same types (${compression})`, async () => {
      const signal = new AbortController().signal;
      const format = { format: 'parquet', compression } as const;
      const [encoded, own] = await Promise.all([
        clickhouse
          .copyToStream('SELECT i, d, b, day, ts, s, list, p FROM fixture ORDER BY k', format, signal)
          .then(readAll),
        duckdb.copyToStream(DUCKDB_ROWS, format, signal).then(readAll),
      ]);
      const [fromClickHouse, fromDuckDB] = await Promise.all([
        readBack(encoded, `ch-${compression}.parquet`),
        readBack(own, `duck-${compression}.parquet`),
      ]);
      expect(fromClickHouse.rows).to.have.length(4);
      expect(fromClickHouse).to.deep.equal(fromDuckDB);
      expect(openPipes.size).to.equal(0);
    });
  }

  /** Each copy ClickHouse writes the lines of, and how its first bytes begin. */
  const COPIES = [
    [{ format: 'parquet', compression: 'snappy' }, 'PAR1'],
    [{ format: 'csv', delimiter: ';', forceQuote: [] }, 'n;s\n'],
  ] as const;
  for (const [format, start] of COPIES)
    it(`stops the query (and the encoding) when the reader of a ${format.format} copy goes away`, async () => {
      const running = async (): Promise<number> =>
        Number(
          await cluster.admin(
            `SELECT count() FROM system.processes WHERE user = '${PORTAL_USER}' AND query LIKE '%system.numbers%'`,
            0,
          ),
        );
      const stream = await clickhouse.copyToStream(
        'SELECT number AS n, toString(number) AS s FROM system.numbers',
        format,
        new AbortController().signal,
      );
      for await (const part of stream) {
        expect((part as Buffer).subarray(0, start.length).toString()).to.equal(start);
        expect(await running()).to.equal(1);
        break;
      }
      await settle(
        () => clickhouse.runningExports === 0 && duckdb.runningExports === 0 && openPipes.size === 0,
      );
      for (let tries = 0; (await running()) > 0; tries++) {
        if (tries > 100) expect.fail('the query still runs');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect({
        clickhouse: clickhouse.runningExports,
        duckdb: duckdb.runningExports,
        pipes: openPipes.size,
      }).to.deep.equal({ clickhouse: 0, duckdb: 0, pipes: 0 });
    });
});
