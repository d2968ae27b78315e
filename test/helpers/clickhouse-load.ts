// Loads a dataset's Parquet, as ingest wrote it, into a running ClickHouse cluster
// (test/helpers/clickhouse-cluster.ts): a MergeTree table per shard holding that shard's rows and
// a Distributed table over them, one column per field typed by src/engine/clickhouse/types.ts
// plus the hidden `_recordid` and `_ordinal` of DuckDB's dataset view. DuckDB reads the Parquet
// and writes each shard's rows as JSON lines that the `default` user inserts. Used by the tests
// and by the bench. ClickHouse 18.16 reads a double's text in its input formats to a neighbour of
// the nearest double now and then (-114.6580911 as -114.65809110000001; its SQL literals are
// exact), so doubles and points travel as their bits (a UInt64) into a staging table of the shard,
// and are made doubles again by reinterpreting those bits.
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
import { quoteIdentifier, quoteString } from '../../src/sql/quoting.js';
import { postClickHouse, type ClickHouseCluster } from './clickhouse-cluster.js';

/** A name in ClickHouse's SQL (field names are lowercase letters, digits and _ already). */
const chName = (name: string): string => `\`${name}\``;

/** The name of the table on each shard under the Distributed table `table`. */
export const shardTableName = (table: string): string => `${table}_local`;

/**
 * DuckDB's SQL of a field's value as ClickHouse's JSONEachRow reads it into `columnTypeOf(field)`:
 * a point as [lon, lat] and a double as their texts (made bits by insertShard), an instant as
 * whole seconds since the epoch, a date as its text, a missing list as [] (ClickHouse's arrays are
 * never null).
 */
function jsonValueSql(field: Field): string {
  const column = quoteIdentifier(field.name);
  if (field.annotations.multivalued !== undefined) return `coalesce(${column}, []::VARCHAR[])`;
  switch (field.type) {
    // As their texts, which the loader makes their bits (insertShard).
    case 'geo_point_2d':
      return `[CAST(${column}.lon AS VARCHAR), CAST(${column}.lat AS VARCHAR)]`;
    case 'double':
      return `CAST(${column} AS VARCHAR)`;
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

/** A double's text as DuckDB writes it (inf, nan included) -> its bits as a UInt64's decimal text. */
function bitsOf(text: string | null): string | null {
  if (text === null) return null;
  const value = text === 'inf' ? Infinity : text === '-inf' ? -Infinity : Number(text);
  return new BigUint64Array(new Float64Array([value]).buffer)[0]!.toString();
}

/**
 * A JSON line with the texts of its doubles and points' coordinates made their bits. The line is
 * parsed only to read those texts: it is edited as text, so that its 64-bit integers keep every
 * digit (JSON.parse would round them to doubles).
 */
function withBits(line: string, fields: readonly Field[]): string {
  const row = JSON.parse(line) as Record<string, string | null | (string | null)[]>;
  return fields.reduce((edited, field) => {
    const key = `${JSON.stringify(field.name)}:`;
    const value = row[field.name] ?? null;
    const bits = Array.isArray(value) ? value.map(bitsOf) : bitsOf(value);
    return edited.replace(key + JSON.stringify(value), key + JSON.stringify(bits));
  }, line);
}

/** Fields whose doubles travel as bits: single doubles and points. */
const exactFields = (fields: readonly Field[]): Field[] =>
  fields.filter(
    (f) => f.annotations.multivalued === undefined && (f.type === 'double' || f.type === 'geo_point_2d'),
  );

/** A staging column of a field: its doubles as their bits. */
const stagedType = (field: Field, type: string): string =>
  field.type === 'double'
    ? 'Nullable(UInt64)'
    : field.type === 'geo_point_2d'
      ? 'Tuple(Nullable(UInt64), Nullable(UInt64))'
      : type;

/** SQL of a staged column made the field's value again. */
function unstagedSql(field: Field): string {
  const double = (bits: string) =>
    `if(isNull(${bits}), NULL, reinterpretAsFloat64(reinterpretAsString(assumeNotNull(${bits}))))`;
  const name = chName(field.name);
  if (field.type === 'double') return double(name);
  if (field.type === 'geo_point_2d')
    return `tuple(${double(`tupleElement(${name}, 1)`)}, ${double(`tupleElement(${name}, 2)`)})`;
  return name;
}

/**
 * Inserts the JSON lines of `file` into the shard's `local` table; with exact fields, through a
 * staging table holding their bits.
 */
async function insertShard(
  url: string,
  local: string,
  columns: readonly (readonly [Field | null, string, string])[],
  file: string,
): Promise<void> {
  const exact = exactFields(columns.flatMap(([field]) => (field ? [field] : [])));
  if (exact.length === 0) {
    await postClickHouse(url, `INSERT INTO ${chName(local)} FORMAT JSONEachRow`, createReadStream(file));
    return;
  }
  const stage = `${local}_stage`;
  const staged = columns.map(
    ([field, name, type]) => `${chName(name)} ${field ? stagedType(field, type) : type}`,
  );
  await postClickHouse(url, `DROP TABLE IF EXISTS ${chName(stage)}`);
  await postClickHouse(url, `CREATE TABLE ${chName(stage)} (${staged.join(', ')}) ENGINE = Memory`);
  const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
  await writeFile(file, lines.map((line) => withBits(line, exact)).join('\n'));
  await postClickHouse(url, `INSERT INTO ${chName(stage)} FORMAT JSONEachRow`, createReadStream(file));
  const select = columns.map(([field, name]) => (field ? unstagedSql(field) : chName(name)));
  await postClickHouse(url, `INSERT INTO ${chName(local)} SELECT ${select.join(', ')} FROM ${chName(stage)}`);
  await postClickHouse(url, `DROP TABLE ${chName(stage)}`);
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
  // Each column: its field (none for the hidden ones), name and type.
  const typed: (readonly [Field | null, string, string])[] = [
    // ClickHouse's sorting key takes no Nullable column: a key field is declared without it (a
    // null in it fails the insert).
    ...fields.map(
      (f) =>
        [
          f,
          f.name,
          orderBy.includes(f.name) ? columnTypeOf(f).replace(/^Nullable\((.*)\)$/, '$1') : columnTypeOf(f),
        ] as const,
    ),
    ...HIDDEN_COLUMNS.map((c) => [null, c.name, c.type] as const),
  ];
  const columns = typed.map(([, name, type]) => `${chName(name)} ${type}`).join(', ');
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
      await insertShard(shard.url, local, typed, lines);
    }
    return { table, rows: Number(await cluster.admin(`SELECT count() FROM ${chName(table)}`, 0)) };
  } finally {
    connection.closeSync();
    instance.closeSync();
    await rm(work, { recursive: true, force: true });
  }
}
