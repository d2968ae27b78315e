// A facet statement capped in SQL (src/odsql/dialect/duckdb/facet-cap.ts) gives the same answer as every value
// sent to JavaScript: over counts with ties at the edge, refined values beyond it, and texts whose
// orders differ between UTF-16 (JavaScript's) and code points (DuckDB's): U+E000-U+FFFF against
// characters above U+FFFF.
import { expect } from 'chai';
import { capFacetRows } from '../../src/odsql/dialect/duckdb/facet-cap.js';
import { facetCap } from '../../src/facets/facet-statements.js';
import type { Planned } from '../../src/facets/facet-plan.js';
import { buildTree, type LevelCounts } from '../../src/facets/tree.js';
import type { FacetSort } from '../../src/facets/facet-fields.js';
import { quoteString } from '../../src/sql/quoting.js';
import { FixtureDb } from '../search/fixture-db.js';

/**
 * Values of key 0 (ties of 3 and of 1, texts whose orders differ), key 1 (a date facet's, never
 * capped) and key 2 (one tie, where JavaScript puts U+10000 before U+E000 and DuckDB after).
 */
const VALUES: [number, string, number][] = [
  ...['a', 'b', 'c', 'd', 'e', 'f'].map((v): [number, string, number] => [0, v, 3]),
  ...['\uFF21x', '\u{1F600}x', '\uE000', '\u{10000}', 'z', 'y'].map((v): [number, string, number] => [
    0,
    v,
    3,
  ]),
  ...Array.from({ length: 30 }, (_, i): [number, string, number] => [0, `one${i}`, 1]),
  [0, 'big', 9],
  [0, 'bigger', 12],
  ...Array.from({ length: 12 }, (_, i): [number, string, number] => [1, `2020/${i}`, i % 3]),
  ...['a', 'b', '\uE000', '\uFF21x', '\u{10000}', '\u{1F600}x', 'c'].map((v): [number, string, number] => [
    2,
    v,
    5,
  ]),
];

const planned = (
  sort: FacetSort,
  limit: number,
  refined: string[] = [],
  kind: 'plain' | 'date' = 'plain',
): Planned => ({
  name: 'f',
  shape: { kind, separator: '/', disjunctive: false, sort, multivalued: false },
  key: () => ({ kind: 'value', field: 'f' }),
  limit,
  levels: 1,
  refined: new Set(refined),
  excluded: new Set(),
});

describe('facet values capped in SQL', () => {
  let db: FixtureDb;
  before(async () => {
    db = await FixtureDb.create();
  });
  after(() => db.close());

  const rowsSql = `SELECT * FROM (VALUES ${VALUES.map(([s, v, n]) => `(${s}, ${quoteString(v)}, ${n})`).join(', ')}) AS t(s, v, n)`;

  /** Each key's tree from the rows of `sql`. */
  const trees = async (sql: string, keys: Planned[]) => {
    const rows = await db.rows(sql);
    return keys.map((p, s) => {
      const counts: LevelCounts = new Map([[1, new Map<string, number>()]]);
      for (const row of rows) if (row.s === s) counts.get(1)!.set(row.v as string, Number(row.n));
      return buildTree(p.name, p.shape, counts, p);
    });
  };

  for (const sort of ['-count', 'count'] as const) {
    for (const limit of [1, 2, 3, 5, 8, 10, 14, 40, 100]) {
      for (const refined of [[], ['one29', 'z']]) {
        it(`answers ${sort}, limit ${limit}${refined.length ? ', refined' : ''} as uncapped`, async () => {
          const keys = [planned(sort, limit, refined), planned(sort, 2, [], 'date'), planned(sort, limit)];
          const capped = capFacetRows(rowsSql, keys.map(facetCap));
          expect(capped).to.not.equal(rowsSql);
          expect(await trees(capped, keys)).to.deep.equal(await trees(rowsSql, keys));
          const sent = await db.rows(capped);
          // Key 0 sends at most twice its limit beyond its better values and refined ones; key 1 all.
          expect(sent.filter((r) => r.s === 0).length).to.be.at.most(2 + 2 * limit + refined.length + 2);
          expect(sent.filter((r) => r.s === 1).length).to.equal(12);
          expect(sent.filter((r) => r.s === 2).length).to.be.at.most(limit + 4);
        });
      }
    }
  }

  it('leaves alphabetical and numeric sorts uncapped', () => {
    const keys = [planned('alphanum', 3), planned('-num', 3)].map(facetCap);
    expect(capFacetRows(rowsSql, keys)).to.equal(rowsSql);
  });
});
