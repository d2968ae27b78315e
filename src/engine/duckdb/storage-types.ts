// DuckDB's types of the portal's field types, as ingest stores them and the engine defines tables
// (from JSON lines, or by statements run in one transaction).
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { FieldType, TableColumn } from '../../catalog/schema.js';
import { quoteIdentifier, quoteString } from '../../sql/quoting.js';
import type { JsonLines, RowChange } from '../engine.js';

/**
 * How each field type is stored in data.parquet. Every module that reads or writes dataset
 * columns relies on this table: a datetime is an instant (TIMESTAMPTZ), a point a
 * {lon, lat} struct, a shape its GeoJSON geometry as text, a multivalued text a list.
 */
export const STORAGE_TYPES = {
  text: 'VARCHAR',
  int: 'BIGINT',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  date: 'DATE',
  datetime: 'TIMESTAMP WITH TIME ZONE',
  geo_point_2d: 'STRUCT(lon DOUBLE, lat DOUBLE)',
  geo_shape: 'VARCHAR',
  file: 'VARCHAR',
  json_blob: 'VARCHAR',
} as const satisfies Record<FieldType, string>;

/** Each column's storage type (a list of it when multivalued), by column name. */
function structureOf(columns: readonly TableColumn[]): Record<string, string> {
  return Object.fromEntries(
    columns.map((c) => [c.name, c.multivalued ? `${STORAGE_TYPES[c.type]}[]` : STORAGE_TYPES[c.type]]),
  );
}

/**
 * Writes JSON lines to a new file of `dir` (a folder DuckDB may read), runs `use` with the SELECT
 * of its rows typed by `columns` (in the file's order), and removes the file. DuckDB reads the
 * file in parallel; 100,000 rows given as one JSON parameter to from_json ran past the deadline.
 */
export async function withJsonLines<T>(
  dir: string,
  columns: readonly TableColumn[],
  rows: JsonLines,
  use: (select: string) => Promise<T>,
): Promise<T> {
  const file = path.join(dir, `rows-${randomBytes(6).toString('hex')}.ndjson`);
  const types = Object.entries(structureOf(columns)).map(
    ([name, type]) => `${quoteString(name)}: ${quoteString(type)}`,
  );
  try {
    await writeFile(file, rows);
    return await use(
      `SELECT * FROM read_json(${quoteString(file)}, format = 'newline_delimited', columns = {${types.join(', ')}})`,
    );
  } finally {
    await rm(file, { force: true });
  }
}

/** The SELECT of JSON rows (the text of parameter $1) typed by the storage types of `columns`. */
export function jsonRowsSql(columns: readonly TableColumn[]): string {
  const structure = structureOf(columns);
  return `SELECT unnest(from_json($1, ${quoteString(JSON.stringify([structure]))}), recursive := true)`;
}

/** Runs `statements` on `connection` in one transaction: all of them apply, or none. */
export async function inTransaction(
  connection: DuckDBConnection,
  statements: readonly string[],
): Promise<void> {
  await connection.run('BEGIN TRANSACTION');
  try {
    for (const sql of statements) await connection.run(sql);
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * The statements (one transaction) that define `table` as the rows of `select`, or with `change`
 * replace rows of it: the new rows, each given the `kept` column of the row of its key, then the
 * old rows and those of the keys removed deleted, then the new inserted (by name: the table's
 * order of columns).
 */
export function jsonTableSql(table: string, select: string, change?: RowChange): string[] {
  const t = quoteIdentifier(table);
  if (!change) return [`CREATE OR REPLACE TABLE ${t} AS ${select}`];
  const [key, kept] = [quoteIdentifier(change.key), quoteIdentifier(change.kept)];
  const removed =
    change.removed.length > 0 ? ` OR ${key} IN (${change.removed.map(quoteString).join(', ')})` : '';
  return [
    `CREATE OR REPLACE TEMP TABLE _replacing AS SELECT n.* REPLACE (o.${kept} AS ${kept}) FROM (${select}) n JOIN ${t} o ON o.${key} = n.${key}`,
    `DELETE FROM ${t} WHERE ${key} IN (SELECT ${key} FROM _replacing)${removed}`,
    `INSERT INTO ${t} BY NAME SELECT * FROM _replacing`,
    'DROP TABLE _replacing',
  ];
}
