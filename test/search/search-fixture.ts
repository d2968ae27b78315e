// A small dataset for full-text search tests: data.parquet with accents and a multivalued field, and its index.
import type { Field } from '../../src/catalog/schema.js';
import type { QuerySource } from '../../src/odsql/source.js';
import { buildSearchIndex } from '../../src/search/build-index.js';
import { FixtureDb } from './fixture-db.js';

const field = (name: string, type: Field['type'], multivalued = false): Field => ({
  name,
  label: name,
  type,
  description: null,
  annotations: multivalued ? { multivalued: [';'] } : {},
});

export const FIELDS: readonly Field[] = [
  field('title', 'text'),
  field('city', 'text'),
  field('tags', 'text', true),
  field('category', 'text'),
  field('year', 'int'),
  field('notes', 'json_blob'),
];

/** Records by id: tokens of 2, 3, 5, 6 and 8 characters for the fuzzy thresholds, accents, lists. */
const RECORDS: [string, string | null, string | null, string[] | null, string, number][] = [
  ['r1', 'ab cat', null, null, 'film', 2001],
  ['r2', 'house garden', null, [], 'film', 2002],
  ['r3', 'Éléphant rose', null, null, 'film', 2003],
  ['r4', 'Les Misérables', 'Montréal', ['Comédie', 'Drame'], 'film', 2004],
  ['r5', "Paris, je t'aime", 'Paris', ['Thé vert'], 'film', 2005],
  ['r6', 'Parisienne', 'Lyon', null, 'serie', 2006],
  ['r7', null, null, null, 'film', 2007],
  ['r8', 'ÉCOLE des femmes...', null, ['', 'Drame'], 'serie', 2008],
];

const sqlString = (value: string | null) => (value === null ? 'NULL' : `'${value.replaceAll("'", "''")}'`);

/** The fixture's data.parquet and search.parquet under views `ds` and `ds__search`. */
export async function searchFixture(): Promise<{
  db: FixtureDb;
  indexed: QuerySource;
  scanned: QuerySource;
}> {
  const db = await FixtureDb.create();
  const rows = RECORDS.map(
    ([id, title, city, tags, category, year]) =>
      `(${sqlString(id)}, ${sqlString(title)}, ${sqlString(city)}, ${tags === null ? 'NULL' : `[${tags.map(sqlString).join(', ')}]::VARCHAR[]`}, ${sqlString(category)}, ${year}, '{"n": ${year}}')`,
  );
  await db.parquet(
    'data',
    `SELECT _recordid, title, city, CAST(tags AS VARCHAR[]) AS tags, category, year::BIGINT AS year, notes
     FROM (VALUES ${rows.join(', ')}) v(_recordid, title, city, tags, category, year, notes)`,
  );
  const index = await buildSearchIndex(db.connection, db.dir, FIELDS);
  await db.view('ds', `${db.dir}/data.parquet`, 'dataset');
  await db.view('ds__search', index!);
  const indexed: QuerySource = { table: 'ds', searchTable: 'ds__search', fields: FIELDS };
  return { db, indexed, scanned: { ...indexed, searchTable: null } };
}
