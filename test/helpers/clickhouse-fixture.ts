// A small dataset with a field of every type the portal serves from ClickHouse, written as ingest
// would (data.parquet in the storage types of src/catalog/schema.ts, and dataset.json): nulls in
// every field, texts a TSV or SQL parser could trip on, an integer past 2^53, an instant with a
// fraction of a second, points, lists. Loaded into a cluster by test/helpers/clickhouse-load.ts.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { DatasetFile, Field } from '../../src/catalog/schema.js';
import { STORAGE_TYPES } from '../../src/engine/duckdb/storage-types.js';
import { quoteString } from '../../src/sql/quoting.js';

const field = (name: string, type: Field['type'], annotations: Field['annotations'] = {}): Field => ({
  name,
  label: name,
  type,
  description: null,
  annotations,
});

export const ALL_TYPES_FIELDS: readonly Field[] = [
  field('name', 'text', { facet: [] }),
  field('tags', 'text', { multivalued: [';'], facet: [] }),
  field('population', 'int'),
  field('area', 'double'),
  field('capital', 'boolean'),
  field('founded', 'date'),
  field('updated', 'datetime'),
  field('location', 'geo_point_2d'),
  field('shape', 'geo_shape'),
  field('doc', 'json_blob'),
];

/** The rows, in DuckDB's SQL, columns in the order of ALL_TYPES_FIELDS then `_recordid`. */
const ROWS = `
  ('Lyon', ['river', 'food'], 522250, 47.87, false, DATE '1970-01-01', TIMESTAMPTZ '2021-10-31 01:30:00.75+00', {'lon': 4.83, 'lat': 45.76}, '{"type":"Point","coordinates":[4.83,45.76]}', '{"a":1}', 'r1'),
  ('Paris', ['capital'], 2133111, 105.4, true, DATE '2020-01-05', TIMESTAMPTZ '2024-02-29 23:59:59+00', {'lon': 2.35, 'lat': 48.85}, NULL, '[1,2]', 'r2'),
  (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'r3'),
  (E'tab\\there\\nnew line ''quoted'' "double" back\\\\slash', ['a\\tb', 'it''s', '[x]'], 9007199254740993, -0.1, true, DATE '2105-12-31', TIMESTAMPTZ '1970-01-01 00:00:01+00', {'lon': -180.0, 'lat': -90.0}, NULL, NULL, 'r4'),
  ('Évian-les-Bains 🏔', ['é', 'ü'], -42, 1e300, false, DATE '1999-12-31', TIMESTAMPTZ '2000-06-15 12:00:00+00', {'lon': 6.59, 'lat': 46.4}, NULL, '"text"', 'r5')`;

/** Writes the dataset `id` under `portalDir`/datasets; returns its folder. */
export async function writeAllTypesDataset(portalDir: string, id: string): Promise<string> {
  const dir = path.join(portalDir, 'datasets', id);
  await mkdir(dir, { recursive: true });
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const names = [...ALL_TYPES_FIELDS.map((f) => f.name), '_recordid'].join(', ');
    const stored = ALL_TYPES_FIELDS.map((f) => {
      const type = f.annotations.multivalued ? 'VARCHAR[]' : STORAGE_TYPES[f.type];
      return `CAST(${f.name} AS ${type}) AS ${f.name}`;
    }).join(', ');
    await connection.run(
      `COPY (SELECT ${stored}, _recordid FROM (VALUES ${ROWS}) t(${names})) TO ${quoteString(path.join(dir, 'data.parquet'))} (FORMAT parquet)`,
    );
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  await writeDatasetFile(dir, { id, title: 'Every type', fields: ALL_TYPES_FIELDS, records: 5 });
  return dir;
}

/** A dataset.json for a dataset folder of the tests: public, its fields, its count, no metadata else. */
export async function writeDatasetFile(
  dir: string,
  dataset: { id: string; title: string; fields: readonly Field[]; records: number },
): Promise<void> {
  const now = '2024-03-01T10:00:00+00:00';
  const file: DatasetFile = {
    dataset_uid: `da_${dataset.id.replace(/\W/g, '')}`,
    visibility: 'public',
    access: [],
    attachments: [],
    metas: {
      default: {
        title: dataset.title,
        description: null,
        theme: null,
        keyword: null,
        license: null,
        license_url: null,
        language: null,
        publisher: null,
        references: null,
        attributions: null,
        territory: null,
        modified: null,
      },
    },
    fields: [...dataset.fields],
    app_metas: {},
    computed: {
      records_count: dataset.records,
      data_processed: now,
      metadata_processed: now,
      bbox: null,
      geometry_types: [],
      temporal_coverage_from: null,
      temporal_coverage_to: null,
      distinct_counts: {},
      sort_by: [],
      value_counts: [],
      geo_point_from: null,
      auto_facets: [],
    },
  };
  await writeFile(path.join(dir, 'dataset.json'), JSON.stringify(file, null, 2));
}
