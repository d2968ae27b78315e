// Datasets loaded from their Parquet into a two-shard cluster (test/helpers/clickhouse-load.ts)
// hold the same rows as DuckDB reads from the Parquet: every value of a dataset with a field of
// each type, the sample airports and Seattle weather, rows on both shards, read through the
// Distributed table as the read-only user. Also the field <-> column type table
// (src/engine/clickhouse/types.ts) both ways.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { ClickHouseClient } from '../../src/engine/clickhouse/http-client.js';
import { columnTypeOf, fieldKindOf } from '../../src/engine/clickhouse/types.js';
import { ALL_TYPES_FIELDS, writeAllTypesDataset } from '../helpers/clickhouse-fixture.js';
import {
  PORTAL_PASSWORD,
  PORTAL_USER,
  startClickHouseCluster,
  type ClickHouseCluster,
} from '../helpers/clickhouse-cluster.js';
import { loadDataset, shardTableName } from '../helpers/clickhouse-load.js';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';
import { quoteString } from '../../src/sql/quoting.js';

describe('ClickHouse column types of the portal fields', () => {
  it('types each field, and reads each column type back as the same field', () => {
    for (const field of ALL_TYPES_FIELDS) {
      const kind = fieldKindOf(columnTypeOf(field));
      expect(kind, field.name).to.deep.equal({
        type: field.type === 'geo_shape' || field.type === 'json_blob' ? 'text' : field.type,
        multivalued: field.annotations.multivalued !== undefined,
      });
    }
  });

  it('reads the types of tables made elsewhere, and has no field for the others', () => {
    expect(fieldKindOf('LowCardinality(String)')).to.deep.equal({ type: 'text', multivalued: false });
    expect(fieldKindOf("Enum8('a' = 1, 'b' = 2)")).to.deep.equal({ type: 'text', multivalued: false });
    expect(fieldKindOf('UInt32')).to.deep.equal({ type: 'int', multivalued: false });
    expect(fieldKindOf('Nullable(Decimal(9, 2))')).to.deep.equal({ type: 'double', multivalued: false });
    expect(fieldKindOf("DateTime('Europe/Paris')")).to.deep.equal({ type: 'datetime', multivalued: false });
    expect(fieldKindOf('Array(Nullable(String))')).to.deep.equal({ type: 'text', multivalued: true });
    for (const other of [
      'Array(Int64)',
      'Tuple(String, Int64)',
      'Nested(a String)',
      'AggregateFunction(uniq, String)',
    ])
      expect(fieldKindOf(other), other).to.equal(null);
  });
});

describe('Datasets loaded into a two-shard ClickHouse cluster', function () {
  this.timeout(120_000);
  let dir: string;
  let cluster: ClickHouseCluster;
  let client: ClickHouseClient;
  let instance: DuckDBInstance;
  let duck: DuckDBConnection;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-clickhouse-load-test-'));
    cluster = await startClickHouseCluster(path.join(dir, 'cluster'), 2);
    client = new ClickHouseClient({
      url: cluster.shards[1]!.url,
      user: PORTAL_USER,
      password: PORTAL_PASSWORD,
    });
    instance = await DuckDBInstance.create(':memory:');
    duck = await instance.connect();
  });
  after(async () => {
    duck?.closeSync();
    instance?.closeSync();
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const duckRows = async (sql: string): Promise<Record<string, unknown>[]> =>
    (await duck.runAndReadAll(sql)).getRowObjectsJson();

  it('holds every value of a field of each type, nulls, hostile texts and 64-bit integers included', async () => {
    const datasetDir = await writeAllTypesDataset(path.join(dir, 'portal'), 'every_type');
    const loaded = await loadDataset(cluster, datasetDir, 'every_type');
    expect(loaded.rows).to.equal(5);
    const rows = await client.queryJson(
      `SELECT name, tags, toString(population) AS population, area, capital, toUInt16(founded) AS founded, updated,
              location.1 AS lon, location.2 AS lat, shape, doc, _recordid, _ordinal
       FROM every_type ORDER BY _ordinal`,
    );
    const parquet = quoteString(path.join(datasetDir, 'data.parquet'));
    const expected = await duckRows(
      `SELECT name, coalesce(tags, []) AS tags, CAST(population AS VARCHAR) AS population, area,
              CAST(capital AS INTEGER) AS capital, CAST(founded - DATE '1970-01-01' AS INTEGER) AS founded,
              strftime(make_timestamp(CAST(floor(epoch(updated)) AS BIGINT) * 1000000), '%Y-%m-%d %H:%M:%S') AS updated,
              location.lon AS lon, location.lat AS lat, shape, doc, _recordid,
              CAST(file_row_number + 1 AS INTEGER) AS _ordinal
       FROM read_parquet(${parquet}) ORDER BY _ordinal`,
    );
    expect(rows).to.deep.equal(expected);
    expect(rows[0]!.updated, 'the fraction of a second is dropped').to.equal('2021-10-31 01:30:00');
    const [zero] = await client.queryJson(`SELECT founded FROM every_type WHERE _recordid = 'r1'`);
    expect(zero!.founded, "18.16 writes its day 0 as '0000-00-00'").to.equal('0000-00-00');
    expect(rows[3]!.name).to.equal(`tab\there\nnew line 'quoted' "double" back\\slash`);
  });

  for (const [id, key] of [
    ['airports', 'iata'],
    ['seattle-weather', 'date'],
  ] as const) {
    it(`holds the sample ${id}, its rows dealt to both shards`, async () => {
      const table = id.replace('-', '_');
      const datasetDir = path.join(SAMPLE_PORTAL, 'datasets', id);
      const loaded = await loadDataset(cluster, datasetDir, table);
      const parquet = quoteString(path.join(datasetDir, 'data.parquet'));
      const [count] = await duckRows(`SELECT count(*) AS n FROM read_parquet(${parquet})`);
      expect(loaded.rows).to.equal(Number(count!.n));
      const perShard = await Promise.all(
        [0, 1].map(async (shard) =>
          Number(await cluster.admin(`SELECT count() FROM ${shardTableName(table)}`, shard)),
        ),
      );
      expect(perShard[0]! + perShard[1]!).to.equal(loaded.rows);
      expect(Math.abs(perShard[0]! - perShard[1]!)).to.be.at.most(1);
      const keys = await client.queryJson(
        `SELECT toString(${key}) AS key, _recordid FROM ${table} WHERE _ordinal IN (1, 2, 1000, ${loaded.rows}) ORDER BY _ordinal`,
      );
      const expected = await duckRows(
        `SELECT CAST(${key} AS VARCHAR) AS key, _recordid FROM read_parquet(${parquet})
         WHERE file_row_number + 1 IN (1, 2, 1000, ${loaded.rows}) ORDER BY file_row_number`,
      );
      expect(keys).to.deep.equal(expected);
    });
  }
});
