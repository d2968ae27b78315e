// A small dataset with every field type and nulls, as Parquet in a temp dir, served by a locked-down DuckDBEngine.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Field, FieldType } from '../../src/catalog/schema.js';
import type { QuerySource } from '../../src/odsql/source.js';
import { DuckDBEngine } from '../../src/engine/duckdb/engine.js';
import { readJsonRows } from '../../src/engine/duckdb/values.js';
import type { JsonValue } from '../../src/engine/engine.js';
import { compileQuery, type Output, type QueryParams } from '../../src/odsql/index.js';

/** A field of a test schema: labelled with its name, no description. */
export const field = (name: string, type: FieldType, annotations: Field['annotations'] = {}): Field => ({
  name,
  label: name,
  type,
  description: null,
  annotations,
});

/** The fixture's schema: one field of every type, a multivalued text, and a field named like a reserved word. */
export const FIELDS: readonly Field[] = [
  field('name', 'text'),
  field('n', 'int'),
  field('x', 'double'),
  field('ok', 'boolean'),
  field('d', 'date'),
  field('t', 'datetime'),
  field('p', 'geo_point_2d'),
  field('s', 'geo_shape'),
  field('tags', 'text', { multivalued: [','] }),
  field('j', 'json_blob'),
  field('year', 'int'),
];

export const SOURCE: QuerySource = { table: 'things', searchTable: null, fields: FIELDS };

const square = (lon: number, lat: number, size: number): string =>
  JSON.stringify({
    type: 'Polygon',
    coordinates: [
      [
        [lon, lat],
        [lon + size, lat],
        [lon + size, lat + size],
        [lon, lat + size],
        [lon, lat],
      ],
    ],
  });

/**
 * Six records. r2's instant is already July 1st in Paris; r3's is the night Paris moved to
 * summer time; r4 is null everywhere; r3's name holds a quote and a backslash.
 */
const ROWS_SQL = `
  SELECT * FROM (VALUES
    ('r1', 'Alpha', 1, 1.5, true, DATE '2020-01-15', TIMESTAMPTZ '2020-01-15 10:00:00+00', {'lon': 2.35, 'lat': 48.85}, '${square(2.3, 48.8, 0.1)}', ['red', 'blue'], '{"a": 1}', 2020),
    ('r2', 'beta', 10, 2.5, false, DATE '2020-06-30', TIMESTAMPTZ '2020-06-30 23:30:00+00', {'lon': -0.12, 'lat': 51.5}, '{"type": "Point", "coordinates": [-0.12, 51.5]}', ['blue'], '[1, 2]', 2020),
    ('r3', 'O''Brien \\ back', 50, -3.0, NULL, DATE '2021-03-01', TIMESTAMPTZ '2021-03-28 01:30:00+00', {'lon': 13.4, 'lat': 52.52}, '{"type": "LineString", "coordinates": [[13.0, 52.0], [14.0, 53.0]]}', [], 'not json', 2021),
    ('r4', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    ('r5', 'Gamma ray', 100, 0.0, false, DATE '2019-12-31', TIMESTAMPTZ '2019-12-31 23:59:59+00', {'lon': -74.0, 'lat': 40.7}, '${square(-74.1, 40.6, 0.2)}', ['red'], NULL, 2019),
    ('r6', 'alphabet', 25, 10.25, true, DATE '2020-01-01', TIMESTAMPTZ '2020-01-01 00:00:00+00', {'lon': 2.29, 'lat': 48.86}, NULL, ['green', 'red'], '"str"', 2020)
  ) AS v(_recordid, name, n, x, ok, d, t, p, s, tags, j, year)`;

/** The rows in storage types; `tags` is the SQL of the list column. */
const castSql = (
  tags: string,
): string => `SELECT _recordid::VARCHAR AS _recordid, name::VARCHAR AS name, n::BIGINT AS n, x::DOUBLE AS x,
  ok::BOOLEAN AS ok, d::DATE AS d, t::TIMESTAMPTZ AS t, p::STRUCT(lon DOUBLE, lat DOUBLE) AS p, s::VARCHAR AS s,
  ${tags}::VARCHAR[] AS tags, j::VARCHAR AS j, year::BIGINT AS year FROM (${ROWS_SQL})`;

/** The fixture: a temp dir with things.parquet and a DuckDBEngine with the `things` view over it. */
export interface Fixture {
  readonly dir: string;
  readonly engine: DuckDBEngine;
  /** Compiles `params` over the fixture and runs the SELECT: the rows as JSON values. */
  rows(params: QueryParams, output?: Output): Promise<Record<string, JsonValue>[]>;
  /** Compiles `params` and runs the count query. */
  count(params: QueryParams): Promise<number>;
  close(): Promise<void>;
}

/**
 * Builds the Parquet file with a plain DuckDB instance, then opens a locked-down DuckDBEngine over
 * it. `asIngested`: r3's empty list is null, as ingest stores lists (never empty), as ClickHouse
 * holds them (an empty array is its null).
 */
export async function openFixture({ asIngested = false } = {}): Promise<Fixture> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-odsql-'));
  const file = path.join(dir, 'things.parquet');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const tags = asIngested ? 'CASE WHEN len(tags) > 0 THEN tags END' : 'tags';
  await connection.run(`COPY (${castSql(tags)}) TO '${file}' (FORMAT parquet)`);
  connection.closeSync();
  instance.closeSync();
  const engine = await DuckDBEngine.open({
    allowedDirectories: [dir],
    tempDirectory: path.join(dir, 'spill'),
    connections: 2,
  });
  await engine.defineView(SOURCE.table, file, 'dataset');
  return {
    dir,
    engine,
    rows: async (params, output) => {
      const compiled = compileQuery(SOURCE, params, output);
      return engine.withConnection(async (connection) => readJsonRows(await connection.run(compiled.sql)));
    },
    count: async (params) => {
      const compiled = compileQuery(SOURCE, params);
      const [row] = await engine.queryJson(compiled.countSql);
      return Number(row?.total_count);
    },
    close: async () => {
      engine.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
