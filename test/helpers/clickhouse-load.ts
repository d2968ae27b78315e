// Loads a dataset's Parquet, as ingest wrote it, into a running ClickHouse cluster
// (test/helpers/clickhouse-cluster.ts): a MergeTree table per shard holding that shard's rows and
// a Distributed table over them, one column per field typed by src/engine/clickhouse/types.ts
// plus the hidden `_recordid` and `_ordinal` of DuckDB's dataset view. DuckDB reads the Parquet
// and writes each shard's rows as JSON lines that the `default` user inserts. Used by the tests
// and by the bench.
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import {
  datasetFileSchema,
  ORDINAL_COLUMN,
  ORDINAL_SQL,
  RECORD_ID_COLUMN,
  type Field,
} from '../../src/catalog/schema.js';
import { columnTypeOf, HIDDEN_COLUMNS } from '../../src/engine/clickhouse/types.js';
import { quoteIdentifier, quoteString } from '../../src/odsql/dialect/duckdb/quoting.js';
import { postClickHouse, type ClickHouseCluster } from './clickhouse-cluster.js';

/** A name in ClickHouse's SQL (field names are lowercase letters, digits and _ already). */
const chName = (name: string): string => `\`${name}\``;

/** The name of the table on each shard under the Distributed table `table`. */
export const shardTableName = (table: string): string => `${table}_local`;

/**
 * DuckDB's SQL of a field's value as ClickHouse's JSONEachRow reads it into `columnTypeOf(field)`:
 * a point as [lon, lat], an instant as whole seconds since the epoch, a date as its text, a
 * missing list as [] (ClickHouse's arrays are never null).
 */
function jsonValueSql(field: Field): string {
  const column = quoteIdentifier(field.name);
  if (field.annotations.multivalued !== undefined) return `coalesce(${column}, []::VARCHAR[])`;
  switch (field.type) {
    case 'geo_point_2d':
      return `[${column}.lon, ${column}.lat]`;
    case 'datetime':
      return `CAST(floor(epoch(${column})) AS BIGINT)`;
    case 'date':
      return `strftime(${column}, '%Y-%m-%d')`;
    default:
      return column;
  }
}

/** Dates and instants ClickHouse 18.16 holds (Date and DateTime: 1970 to 2105). */
function outOfRangeSql(fields: readonly Field[]): string | null {
  const checks = fields
    .filter((f) => f.type === 'date' || f.type === 'datetime')
    .map(
      (f) =>
        `${quoteIdentifier(f.name)} < DATE '1970-01-01' OR ${quoteIdentifier(f.name)} >= DATE '2106-01-01'`,
    );
  return checks.length > 0 ? checks.join(' OR ') : null;
}

export interface LoadedTable {
  /** The Distributed table over every shard's rows. */
  readonly table: string;
  readonly rows: number;
}

/**
 * Loads the dataset in `datasetDir` (its dataset.json and data.parquet) into `cluster` as the
 * Distributed table `table`, rows dealt to the shards by their ordinal, each shard's MergeTree
 * ordered by `orderBy` (default: the ordinal; the bench gives ingest's sort key, whose fields
 * must then hold no null). Refuses a
 * dataset with dates outside what ClickHouse holds.
 */
export async function loadDataset(
  cluster: ClickHouseCluster,
  datasetDir: string,
  table: string,
  orderBy: readonly string[] = [ORDINAL_COLUMN],
): Promise<LoadedTable> {
  const file = datasetFileSchema.parse(
    JSON.parse(await readFile(path.join(datasetDir, 'dataset.json'), 'utf8')),
  );
  const fields = file.fields;
  const local = shardTableName(table);
  const columns = [
    // ClickHouse's sorting key takes no Nullable column: a key field is declared without it (a
    // null in it fails the insert).
    ...fields.map(
      (f) =>
        `${chName(f.name)} ${orderBy.includes(f.name) ? columnTypeOf(f).replace(/^Nullable\((.*)\)$/, '$1') : columnTypeOf(f)}`,
    ),
    ...HIDDEN_COLUMNS.map((c) => `${chName(c.name)} ${c.type}`),
  ].join(', ');
  await cluster.admin(`DROP TABLE IF EXISTS ${chName(table)}`);
  await cluster.admin(`DROP TABLE IF EXISTS ${chName(local)}`);
  await cluster.admin(
    `CREATE TABLE ${chName(local)} (${columns}) ENGINE = MergeTree() ORDER BY (${orderBy.map(chName).join(', ')})`,
  );
  await cluster.admin(
    `CREATE TABLE ${chName(table)} AS ${chName(local)} ENGINE = Distributed(portal, default, ${chName(local)})`,
  );

  const work = await mkdtemp(path.join(os.tmpdir(), 'duckportal-clickhouse-load-'));
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const parquet = quoteString(path.join(datasetDir, 'data.parquet'));
    const rowsSql = `(SELECT *, ${ORDINAL_SQL} AS ${quoteIdentifier(ORDINAL_COLUMN)} FROM read_parquet(${parquet}))`;
    const outOfRange = outOfRangeSql(fields);
    if (outOfRange) {
      const bad = await connection.runAndReadAll(`SELECT count(*) FROM ${rowsSql} WHERE ${outOfRange}`);
      if (Number(bad.getRows()[0]![0]) > 0) throw new Error(`${datasetDir}: dates outside 1970-2105`);
    }
    const select = [
      ...fields.map((f) => `${jsonValueSql(f)} AS ${quoteIdentifier(f.name)}`),
      quoteIdentifier(RECORD_ID_COLUMN),
      quoteIdentifier(ORDINAL_COLUMN),
    ].join(', ');
    const shards = cluster.shards.length;
    for (const [i, shard] of cluster.shards.entries()) {
      const lines = path.join(work, `shard${i}.json`);
      await connection.run(
        `COPY (SELECT ${select} FROM ${rowsSql} WHERE ${quoteIdentifier(ORDINAL_COLUMN)} % ${shards} = ${i})
         TO ${quoteString(lines)} (FORMAT json)`,
      );
      await postClickHouse(
        shard.url,
        `INSERT INTO ${chName(local)} FORMAT JSONEachRow`,
        createReadStream(lines),
      );
    }
    return { table, rows: Number(await cluster.admin(`SELECT count() FROM ${chName(table)}`, 0)) };
  } finally {
    connection.closeSync();
    instance.closeSync();
    await rm(work, { recursive: true, force: true });
  }
}
