// Datasets of the export tests, added to a fixture portal: `tricky` (nulls, quotes, line breaks,
// markup, Unicode, and a column of every type) and `days` (dates at the edges of a sheet's range).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

export const QUOTED = 'He said "hi"; ok, fine';
export const LINES = 'line one\nline two';
export const UNICODE = 'Zürich — 東京 ✈';
export const MARKUP = '<a href="x">&amp;</a>';
/** The record id of the markup row: characters that IRIs, XML and Turtle escape. */
export const ODD_RECORD_ID = `r4 <&"é/#'>`;

const text = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Writes dataset `id` of `rows` (a SELECT whose first column is `_recordid`) with `fields`. */
async function addDataset(
  dir: string,
  id: string,
  rows: string,
  fields: [name: string, type: string, multivalued?: string][],
): Promise<void> {
  const folder = path.join(dir, 'datasets', id);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await mkdir(folder, { recursive: true });
  await connection.run(`COPY (${rows}) TO '${path.join(folder, 'data.parquet')}' (FORMAT parquet)`);
  const count = Number((await connection.runAndReadAll(`SELECT count(*) FROM (${rows})`)).getRows()[0]![0]);
  connection.closeSync();
  instance.closeSync();
  const towns = JSON.parse(await readFile(path.join(dir, 'datasets', 'towns', 'dataset.json'), 'utf8'));
  const file = {
    ...towns,
    dataset_uid: `da_${id}`,
    metas: { ...towns.metas, default: { ...towns.metas.default, title: id[0]!.toUpperCase() + id.slice(1) } },
    fields: fields.map(([name, type, multivalued]) => ({
      name,
      label: name.toUpperCase(),
      type,
      description: null,
      annotations: multivalued ? { multivalued: [multivalued] } : {},
    })),
    computed: { ...towns.computed, records_count: count },
  };
  await writeFile(path.join(folder, 'dataset.json'), JSON.stringify(file));
}

/** Adds the `tricky` dataset (5 rows, one without any value; ints BIGINT, doubles DOUBLE as ingest stores them). */
export async function addTricky(dir: string): Promise<void> {
  await addDataset(
    dir,
    'tricky',
    `SELECT * FROM (VALUES
    ('r1', ${text(QUOTED)}, 1::BIGINT, 1.5::DOUBLE, true, DATE '2024-01-31', TIMESTAMPTZ '2024-01-31 12:00:00+00', ['a', 'b'], {'lon': 2.35, 'lat': 48.85}, '{"type":"Polygon","coordinates":[[[2,48],[3,48],[3,49],[2,49],[2,48]]]}'),
    ('r2', ${text(LINES)}, -2, NULL, false, NULL, NULL, [], {'lon': -0.5, 'lat': 44.8}, '{"type":"Polygon","coordinates":[[[0,44],[1,44],[1,45],[0,45],[0,44]]]}'),
    ('r3', ${text(UNICODE)}, NULL, -0.25, NULL, DATE '1999-12-31', NULL, ['ü'], {'lon': 139.7, 'lat': 35.7}, '{"type":"Polygon","coordinates":[[[139,35],[140,35],[140,36],[139,36],[139,35]]]}'),
    (${text(ODD_RECORD_ID)}, ${text(MARKUP)}, 4, 4.0, true, NULL, NULL, NULL, {'lon': 4.83, 'lat': 45.76}, '{"type":"Polygon","coordinates":[[[4,45],[5,45],[5,46],[4,46],[4,45]]]}'),
    ('r5', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
  ) v(_recordid, label, n, x, flag, day, seen_at, tags, geo_point_2d, area)`,
    [
      ['label', 'text'],
      ['n', 'int'],
      ['x', 'double'],
      ['flag', 'boolean'],
      ['day', 'date'],
      ['seen_at', 'datetime'],
      ['tags', 'text', ','],
      ['geo_point_2d', 'geo_point_2d'],
      ['area', 'geo_shape'],
    ],
  );
}

/** Dates of the `days` dataset, in row order: around Excel's 1900 start, its phantom 1900-02-29, its end. */
export const DAYS = ['1899-12-31', '1900-01-01', '1900-02-28', '1900-03-01', '2024-02-29', '9999-12-31'];

/** Adds `days`: one row per date of DAYS, with that day at 18:30:15.5 UTC as `at`. */
export async function addDays(dir: string): Promise<void> {
  const values = DAYS.map((d, i) => `('d${i}', DATE '${d}', TIMESTAMPTZ '${d} 18:30:15.5+00')`);
  await addDataset(dir, 'days', `SELECT * FROM (VALUES ${values.join(', ')}) v(_recordid, day, "at")`, [
    ['day', 'date'],
    ['at', 'datetime'],
  ]);
}
