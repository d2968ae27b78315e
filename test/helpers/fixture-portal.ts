// A small portal built from scratch for API tests: two good datasets, one broken, attachments.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { KeyStore } from '../../src/auth/keys.js';
import { startTestServer, type TestServer } from './server.js';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { DatasetFile } from '../../src/catalog/schema.js';

const NOW = '2024-03-01T10:00:00+00:00';

function datasetFile(
  title: string,
  fields: DatasetFile['fields'],
  records: number,
  extra: Partial<DatasetFile> = {},
): DatasetFile {
  return {
    dataset_uid: `da_${title.toLowerCase().replace(/\W/g, '')}`,
    visibility: 'public',
    access: [],
    attachments: [],
    metas: {
      default: {
        title,
        description: `<p>${title}</p>`,
        theme: ['Transport'],
        keyword: ['test'],
        license: 'CC BY 4.0',
        license_url: null,
        language: 'en',
        publisher: 'duckportal tests',
        references: null,
        attributions: null,
        territory: null,
        modified: null,
      },
      dcat: { creator: 'tests' },
    },
    fields,
    app_metas: {},
    computed: {
      records_count: records,
      data_processed: NOW,
      metadata_processed: NOW,
      bbox: null,
      geometry_types: [],
      temporal_coverage_from: null,
      temporal_coverage_to: null,
      sort_by: [],
      value_counts: [],
      geo_point_from: null,
      auto_facets: [],
      distinct_counts: {},
    },
    ...extra,
  };
}

/** Builds the fixture portal in a new temp dir and returns its path. */
export async function buildFixturePortal(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-fixture-'));
  const datasets = path.join(dir, 'datasets');
  await writeFile(
    path.join(dir, 'portal.json'),
    JSON.stringify({ title: 'Fixture portal', domain: 'fixture.test' }),
  );
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();

  const towns = path.join(datasets, 'towns');
  await mkdir(path.join(towns, 'attachments'), { recursive: true });
  await connection.run(`COPY (SELECT * FROM (VALUES
      ('a1', 'Paris', 2100000, DATE '2020-01-05', {'lon': 2.35, 'lat': 48.85}),
      ('a2', 'Lyon', 520000, DATE '2021-06-30', {'lon': 4.83, 'lat': 45.76}),
      ('a3', 'Évian', NULL, NULL, NULL)
    ) t(_recordid, name, population, founded, geo_point_2d)) TO '${path.join(towns, 'data.parquet')}' (FORMAT parquet)`);
  const townFields: DatasetFile['fields'] = [
    { name: 'name', label: 'Name', type: 'text', description: null, annotations: { facet: [] } },
    { name: 'population', label: 'Population', type: 'int', description: 'Inhabitants', annotations: {} },
    {
      name: 'founded',
      label: 'Founded',
      type: 'date',
      description: null,
      annotations: { timerangeFilter: [] },
    },
    { name: 'geo_point_2d', label: 'Location', type: 'geo_point_2d', description: null, annotations: {} },
  ];
  const bbox = { west: 2.35, south: 45.76, east: 4.83, north: 48.85 };
  const townsFile = datasetFile('Towns', townFields, 3, { app_metas: { color: 'blue' } });
  await writeFile(
    path.join(towns, 'dataset.json'),
    JSON.stringify({ ...townsFile, computed: { ...townsFile.computed, bbox, geometry_types: ['Point'] } }),
  );
  await writeFile(path.join(towns, 'attachments', 'cities1000.zip'), 'PK fixture');
  await writeFile(path.join(towns, 'attachments', 'Notes Été.txt'), 'hello attachments\n');
  await writeFile(path.join(towns, 'attachments', '.hidden'), 'secret');
  await writeFile(path.join(dir, 'outside.txt'), 'must never be served');
  await symlink(path.join(dir, 'outside.txt'), path.join(towns, 'attachments', 'link.txt'));

  const words = path.join(datasets, 'words');
  await mkdir(words, { recursive: true });
  await connection.run(`COPY (SELECT 'w' || i AS _recordid, 'word ' || i AS word FROM range(5) r(i))
    TO '${path.join(words, 'data.parquet')}' (FORMAT parquet)`);
  const wordFields: DatasetFile['fields'] = [
    { name: 'word', label: 'Word', type: 'text', description: null, annotations: {} },
  ];
  await writeFile(path.join(words, 'dataset.json'), JSON.stringify(datasetFile('Words', wordFields, 5)));

  const broken = path.join(datasets, 'broken');
  await mkdir(broken, { recursive: true });
  await writeFile(
    path.join(broken, 'dataset.json'),
    JSON.stringify({ dataset_uid: 'x', fields: [{ name: 'Bad Name' }] }),
  );
  connection.closeSync();
  instance.closeSync();
  return dir;
}

/**
 * Adds a dataset to a fixture portal: `rows` is a SELECT giving `_recordid` and the fields' columns;
 * the dataset's metas are those of the other fixture datasets.
 */
export async function addFixtureDataset(
  dir: string,
  id: string,
  rows: string,
  fields: DatasetFile['fields'],
): Promise<void> {
  const folder = path.join(dir, 'datasets', id);
  await mkdir(folder, { recursive: true });
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(`COPY (${rows}) TO '${path.join(folder, 'data.parquet')}' (FORMAT parquet)`);
  const count = Number((await connection.runAndReadAll(`SELECT count(*) FROM (${rows})`)).getRows()[0]![0]);
  connection.closeSync();
  instance.closeSync();
  await writeFile(path.join(folder, 'dataset.json'), JSON.stringify(datasetFile(id, fields, count)));
}

/** A served fixture portal, edited by `prepare` before the server starts; close() also removes it. */
export async function startFixtureServer(
  prepare: (dir: string) => Promise<void> = () => Promise.resolve(),
  options: Parameters<typeof startTestServer>[1] = {},
): Promise<TestServer & { readonly dir: string }> {
  const dir = await buildFixturePortal();
  await prepare(dir);
  const server = await startTestServer(dir, options);
  return {
    ...server,
    dir,
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Makes the fixture portal in `dir` private and returns a key of user alice (a `prepare` step). */
export async function makePrivate(dir: string): Promise<string> {
  const key = new KeyStore(dir).create('alice').key;
  const file = path.join(dir, 'portal.json');
  const portal = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...portal, private: true }));
  return key;
}

/** Sets entries of the dataset.json of dataset `id` of the fixture portal in `dir` (a `prepare` step). */
export async function editDatasetFile(
  dir: string,
  id: string,
  entries: Record<string, unknown>,
): Promise<void> {
  const file = path.join(dir, 'datasets', id, 'dataset.json');
  const dataset = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...dataset, ...entries }));
}

/** Makes dataset `id` of the fixture portal in `dir` restricted to `access` (a `prepare` step). */
export async function restrictDataset(dir: string, id: string, access: readonly unknown[]): Promise<void> {
  await editDatasetFile(dir, id, { visibility: 'restricted', access });
}

/** Keys of a caller of each of TOWNS_AUDIENCES: alice (staff), carol (a row filter), dave (hidden fields). */
export interface TownsCallers {
  readonly staff: string;
  readonly filtered: string;
  readonly hidden: string;
}

/** Restricts towns of the fixture portal in `dir` to TOWNS_AUDIENCES and makes a key for a caller of each. */
export async function restrictTowns(dir: string): Promise<TownsCallers> {
  const store = new KeyStore(dir);
  const callers = {
    staff: store.create('alice', ['staff']).key,
    filtered: store.create('carol').key,
    hidden: store.create('dave').key,
  };
  await restrictDataset(dir, 'towns', TOWNS_AUDIENCES);
  return callers;
}

/** The audiences restrictTowns gives towns. */
const TOWNS_AUDIENCES = [
  { groups: ['staff'] },
  { users: ['carol'], row_filter: "name = 'Lyon'" },
  { users: ['dave'], hidden_fields: ['geo_point_2d', 'founded'] },
] as const;

/**
 * Marks towns' notes for all audiences, and gives words (public) an audience `*` under a row
 * filter, with staff reading it whole, and two attachments: readme.txt marked, words.csv (every
 * row) not (a `prepare` step).
 */
export async function markAttachments(dir: string): Promise<void> {
  await editDatasetFile(dir, 'towns', {
    attachments: [{ file: 'Notes Été.txt', all_audiences: true }],
  });
  const words = path.join(dir, 'datasets', 'words', 'attachments');
  await mkdir(words, { recursive: true });
  await writeFile(path.join(words, 'words.csv'), 'word\nword 0\nword 1\nword 2\nword 3\nword 4\n');
  await writeFile(path.join(words, 'readme.txt'), 'five words\n');
  // A public dataset whose public audience sees one row (the case); staff read it whole.
  await editDatasetFile(dir, 'words', {
    access: [{ groups: ['staff'] }, { users: ['*'], row_filter: "word = 'word 1'" }],
    attachments: [{ file: 'readme.txt', all_audiences: true }],
  });
}
