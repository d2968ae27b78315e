// The index file itself: normalized tokens, posting lists that lead back to the right records, no index without text.
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { buildSearchIndex, POSTING_BLOCK } from '../../src/search/build-index.js';
import { FixtureDb } from './fixture-db.js';
import { FIELDS, searchFixture } from './search-fixture.js';

describe('search index build', () => {
  let db: FixtureDb;

  before(async () => {
    ({ db } = await searchFixture());
  });
  after(() => db.close());

  /** token -> field -> record ids, read back through the ordinals of the dataset view. */
  const postings = async () => {
    const rows = await db.rows(`
      SELECT p.token, p.field, list(DISTINCT r._recordid ORDER BY r._recordid) AS ids
      FROM (SELECT token, field, unnest(ords) AS ord FROM ds__search) p
      JOIN ds r ON r._ordinal = p.ord
      GROUP BY ALL ORDER BY ALL`);
    return rows.map((r) => `${r.token as string} ${r.field as string} ${(r.ids as string[]).join(',')}`);
  };

  it('indexes lowercased, accent-free tokens of every text field, lists included', async () => {
    const all = await postings();
    expect(all).to.include.members([
      'elephant title r3',
      'miserables title r4',
      'montreal city r4',
      'comedie tags r4',
      'drame tags r4,r8',
      'the tags r5',
      'paris city r5',
      'paris title r5',
      'film category r1,r2,r3,r4,r5,r7',
      'ecole title r8',
    ]);
  });

  it('leaves out empty tokens and non-text fields', async () => {
    const tokens = await db.column(`SELECT DISTINCT token FROM ds__search ORDER BY 1`);
    expect(tokens).not.to.include('');
    expect(tokens).not.to.include('2005');
    const fields = await db.column(`SELECT DISTINCT field FROM ds__search ORDER BY 1`);
    expect(fields).to.deep.equal(['category', 'city', 'tags', 'title']);
  });

  it('holds each (token, field) of a small dataset once, sorted, its ordinals ascending and within the file', async () => {
    const duplicates = await db.value(
      `SELECT count(*) FROM (SELECT token, field FROM ds__search GROUP BY ALL HAVING count(*) > 1)`,
    );
    expect(duplicates).to.equal(0);
    const order = await db.column(`SELECT token FROM ds__search`);
    expect(order).to.deep.equal([...order].sort());
    const unsorted = await db.value(`SELECT count(*) FROM ds__search WHERE ords <> list_sort(ords)`);
    expect(unsorted).to.equal(0);
    const outside = await db.value(
      `SELECT count(*) FROM (SELECT unnest(ords) AS o FROM ds__search) WHERE o NOT IN (SELECT _ordinal FROM ds)`,
    );
    expect(outside).to.equal(0);
    expect(await db.column(`SELECT _recordid FROM ds ORDER BY _ordinal`)).to.deep.equal([
      'r1',
      'r2',
      'r3',
      'r4',
      'r5',
      'r6',
      'r7',
      'r8',
    ]);
  });

  it('cuts the postings of a frequent token into blocks of at most POSTING_BLOCK ordinals, stored as packed deltas', async () => {
    const dir = path.join(db.dir, 'frequent');
    await mkdir(dir);
    const rows = 3 * POSTING_BLOCK + 5;
    await db.connection.run(`COPY (SELECT 'r' || x AS _recordid, 'common word ' || (x % 2) AS title
      FROM range(${rows}) r(x)) TO '${dir}/data.parquet' (FORMAT parquet)`);
    const file = await buildSearchIndex(
      db.connection,
      dir,
      FIELDS.filter((f) => f.name === 'title'),
    );
    await db.view('frequent__search', file!);
    const blocks = await db.rows(
      `SELECT len(ords) AS n, ords[1] AS first FROM frequent__search WHERE token = 'common' ORDER BY first`,
    );
    expect(blocks.map((b) => b.n)).to.deep.equal([POSTING_BLOCK - 1, POSTING_BLOCK, POSTING_BLOCK, 6]);
    const all = await db.column(
      `SELECT o FROM (SELECT unnest(ords) AS o FROM frequent__search WHERE token = 'common') ORDER BY o`,
    );
    expect(all).to.deep.equal(Array.from({ length: rows }, (_, i) => i + 1));
    // Parquet's V2 pages: ascending ordinals stored as packed deltas (the flights' index 19.6 MB -> 7.5).
    const encodings = await db.column(
      `SELECT DISTINCT encodings FROM parquet_metadata('${file!}') WHERE path_in_schema LIKE 'ords%'`,
    );
    expect(encodings).to.deep.equal(['DELTA_BINARY_PACKED']);
  });

  it('writes no file for a dataset without text fields', async () => {
    const dir = path.join(db.dir, 'numbers');
    await db.connection.run(`CREATE TEMP TABLE numbers AS SELECT 'a' AS _recordid, 1::BIGINT AS year`);
    await mkdir(dir);
    await db.connection.run(`COPY numbers TO '${dir}/data.parquet' (FORMAT parquet)`);
    expect(
      await buildSearchIndex(
        db.connection,
        dir,
        FIELDS.filter((f) => f.name === 'year'),
      ),
    ).to.equal(null);
    expect(existsSync(path.join(dir, 'search.parquet'))).to.equal(false);
  });
});
