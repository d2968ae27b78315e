// search(), suggest() and startswith() executed over the fixture, with the index and without: same records.
import { expect } from 'chai';
import type { QuerySource } from '../../src/odsql/source.js';
import { QueryLangError } from '../../src/odsql/errors.js';
import { compileQuery } from '../../src/odsql/index.js';
import { compileSearch as searchOf, compileStartsWith } from '../../src/odsql/dialect/duckdb/search-sql.js';
import type { SearchMode } from '../../src/odsql/functions/search.js';
import type { FixtureDb } from '../search/fixture-db.js';
import { searchFixture } from '../search/search-fixture.js';

/** The condition a search compiles to over the rows. */
const compileSearch = (...args: Parameters<typeof searchOf>) => searchOf(...args).condition;

type Case = [fields: readonly string[] | '*', text: string, expected: string[]];

/** The last term is a prefix; `film` and `serie` (categories) let a term before them be fuzzy. */
const SEARCHES: Record<string, Case[]> = {
  'exact below 3 characters': [
    ['*', 'ab film', ['r1']],
    ['*', 'ac film', []],
  ],
  'one edit at 3 to 5 characters': [
    ['*', 'cut film', ['r1']],
    ['*', 'cup film', []],
    ['*', 'hause film', ['r2']],
    ['*', 'haute film', []],
    ['*', 'hous film', ['r2']],
    ['*', 'housed film', ['r2']],
  ],
  'two edits above 5 characters': [
    ['*', 'gordon film', ['r2']],
    ['*', 'gxrdxx film', []],
    ['*', 'elepant film', ['r3']],
    ['*', 'elefan film', []],
  ],
  'the last term is a prefix, the others are not': [
    ['*', 'pari', ['r5', 'r6']],
    ['*', 'paris', ['r5', 'r6']],
    ['*', 'parisi', ['r6']],
    ['*', 'pari serie', []],
    ['*', 'parisienne serie', ['r6']],
    ['*', 'hou', ['r2']],
    ['*', 'hou film', []],
  ],
  'case and accents do not matter': [
    ['*', 'ELEPHANT', ['r3']],
    ['*', 'éléphant', ['r3']],
    ['*', 'École', ['r8']],
    ['*', 'ecole femmes', ['r8']],
    ['*', 'misérables', ['r4']],
    ['*', 'MISERABLES', ['r4']],
    ['*', 'montreal', ['r4']],
  ],
  'multivalued fields match any element': [
    ['*', 'comedie', ['r4']],
    ['*', 'drame', ['r4', 'r8']],
    ['*', 'the vert', ['r5']],
    ['*', 'thé', ['r5']],
    [['tags'], 'drame', ['r4', 'r8']],
  ],
  'every term in the same record, across fields': [
    ['*', 'parisienne lyon', ['r6']],
    ['*', 'lyon paris', ['r6']],
    ['*', 'lyon parisx', []],
    ['*', 'drame serie', ['r8']],
    ['*', 'paris je aime', ['r5']],
  ],
  'chosen fields only': [
    [['city'], 'paris', ['r5']],
    [['title'], 'paris', ['r5', 'r6']],
    [['title'], 'lyon', []],
    [['title', 'city'], 'montreal', ['r4']],
    [['tags', 'category'], 'drame serie', ['r8']],
  ],
  'terms split on punctuation': [
    ['*', "t'aime", ['r5']],
    ['*', 'paris,je', ['r5']],
    ['*', 'femmes...', ['r8']],
  ],
  'no term matches every record': [
    ['*', '', ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8']],
    ['*', ' ,;! ', ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8']],
  ],
  'quotes and SQL in the text are only text': [
    ['*', "'); DROP TABLE ds; --", []],
    ['*', 'l\'amour " \\', []],
  ],
};

const SUGGESTS: Case[] = [
  ['*', 'par je', ['r5']],
  ['*', 'ele ros', ['r3']],
  ['*', 'hause', []],
  ['*', 'hou gar', ['r2']],
  ['*', 'mis', ['r4']],
  [['city'], 'par', ['r5']],
];

describe('full-text search', () => {
  let db: FixtureDb;
  let indexed: QuerySource;
  let scanned: QuerySource;

  before(async () => {
    ({ db, indexed, scanned } = await searchFixture());
  });
  after(() => db.close());

  const ids = (where: string) => db.column(`SELECT _recordid FROM ds WHERE ${where} ORDER BY _recordid`);

  const check = ([fields, text, expected]: Case, mode: SearchMode) => {
    it(`${mode}(${fields === '*' ? '*' : fields.join(', ')}, ${JSON.stringify(text)}) -> [${expected.join(', ')}]`, async () => {
      expect(await ids(compileSearch(indexed, fields, text, mode))).to.deep.equal(expected);
      expect(await ids(compileSearch(scanned, fields, text, mode)), 'without the index').to.deep.equal(
        expected,
      );
    });
  };

  for (const [topic, cases] of Object.entries(SEARCHES)) {
    describe(topic, () => cases.forEach((c) => check(c, 'search')));
  }
  describe('suggest: every term a prefix, no fuzziness', () => SUGGESTS.forEach((c) => check(c, 'suggest')));

  it('counts the records of a lone indexed search from the index, with the totals of the rows', async () => {
    const counted = async (where: string[]) => {
      const { countSql } = compileQuery(indexed, { where });
      return [countSql, Number((await db.column(countSql))[0])] as const;
    };
    const cases = [
      ...Object.values(SEARCHES)
        .flat()
        .map((c) => ['search', c] as const),
      ...SUGGESTS.map((c) => ['suggest', c] as const),
    ];
    for (const [mode, [fields, text, expected]] of cases) {
      const search = `${mode}(${fields === '*' ? '*' : fields.join(', ')}, ${JSON.stringify(text)})`;
      const [sql, total] = await counted([search]);
      expect(total, search).to.equal(expected.length);
      const fromIndex = searchOf(indexed, fields, text, mode).ordinals !== null;
      expect(sql.includes('FROM "ds" '), `${search} scans the rows`).to.equal(!fromIndex);
    }
    const [sql, total] = await counted(["search(*, 'drame')", '`year` = 2004']);
    expect([sql.includes('FROM "ds" '), total], 'a search among other conditions').to.deep.equal([true, 1]);
  });

  it('reads the index when the dataset has one, and only the fields otherwise', () => {
    expect(compileSearch(indexed, '*', 'paris', 'search')).to.contain('"ds__search"');
    expect(compileSearch(scanned, '*', 'paris', 'search')).not.to.contain('ds__search');
    // json_blob is not indexed: the same test runs over the field itself.
    expect(compileSearch(indexed, ['title', 'notes'], 'paris', 'search')).not.to.contain('ds__search');
  });

  it('NOT search() keeps exactly the other records, index or not', async () => {
    const all = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8'];
    for (const source of [indexed, scanned]) {
      expect(await ids(`NOT ${compileSearch(source, '*', 'drame', 'search')}`)).to.deep.equal(
        all.filter((id) => id !== 'r4' && id !== 'r8'),
      );
    }
  });

  it('searches a non-indexed text field over its values', async () => {
    expect(await ids(compileSearch(indexed, ['notes'], 'n 2005', 'search'))).to.deep.equal(['r5']);
  });

  it('matches nothing when no text field is chosen', () => {
    const noText: QuerySource = { ...indexed, fields: indexed.fields.filter((f) => f.type !== 'text') };
    expect(compileSearch(noText, '*', 'paris', 'search')).to.equal('FALSE');
  });

  it('refuses an unknown field', () => {
    expect(() => compileSearch(indexed, ['nope'], 'x', 'search')).to.throw(
      QueryLangError,
      'Unknown field: nope',
    );
  });

  describe('startswith', () => {
    it('is a case-sensitive prefix of the whole value', async () => {
      expect(await ids(compileStartsWith(indexed, ['title'], 'Paris'))).to.deep.equal(['r5', 'r6']);
      expect(await ids(compileStartsWith(indexed, ['title'], 'paris'))).to.deep.equal([]);
      expect(await ids(compileStartsWith(indexed, ['title'], 'Paris, je'))).to.deep.equal(['r5']);
    });
    it('matches any element of a multivalued field, and any text field for *', async () => {
      expect(await ids(compileStartsWith(indexed, ['tags'], 'Dra'))).to.deep.equal(['r4', 'r8']);
      expect(await ids(compileStartsWith(indexed, '*', 'Ly'))).to.deep.equal(['r6']);
      expect(await ids(compileStartsWith(indexed, '*', "'; --"))).to.deep.equal([]);
    });
  });
});
