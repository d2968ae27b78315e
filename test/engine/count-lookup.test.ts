// Counts of a text field's equality to literals answered from its table of value counts held as a
// JS Map (src/engine/duckdb/count-lookup.ts): for generated values (quotes, `) OR (`, accents,
// the empty string, nulls) and generated conditions, the lookup answers what DuckDB counts for the
// same statement; every other shape (numbers, dates, AND, NOT, functions, a row filter, a restricted
// table, a dataset's own view) returns null and runs as SQL.
import { expect } from 'chai';
import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DuckDBEngine } from '../../src/engine/duckdb/engine.js';
import { CountLookups, equalityValues } from '../../src/engine/duckdb/count-lookup.js';
import { compileQuery, parseWhere } from '../../src/odsql/index.js';
import type { QuerySource } from '../../src/odsql/source.js';
import { quoteString } from '../../src/sql/quoting.js';
import type { Field } from '../../src/catalog/schema.js';
import { loadPortal } from '../../src/catalog/portal.js';
import { countsViewKind } from '../../src/server/dataset-views.js';
import { DATASET_CHECKS } from '../../src/server/engines.js';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';

const field = (name: string, type: Field['type']): Field => ({
  name,
  label: name,
  type,
  description: null,
  annotations: {},
});

/** The dataset `ds` of a text field `code` and an int `n`, with tables of value counts of both. */
const SOURCE: QuerySource = {
  table: 'ds',
  searchTable: null,
  fields: [field('code', 'text'), field('n', 'int')],
  rowFilter: null,
  valueCounts: new Map([
    ['code', 'ds__counts__code'],
    ['n', 'ds__counts__n'],
  ]),
};

/** Values with SQL and ODSQL quoting, lookalikes and separators of the compiled OR. */
const TRICKY = [
  'SFO',
  'sfo',
  'SFO ',
  "O'Hare",
  "a') OR ('b",
  "''",
  '',
  ' ',
  'é',
  'e\u0301',
  'ＳＦＯ',
  '\\',
  '"x"',
];
const value = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string({ maxLength: 4 }).filter((s) => !s.includes('\0')),
);

/** An ODSQL string literal of `text`. */
const odsql = (text: string): string => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/** Where clauses of `code` compared to literals, in the forms that compile to the looked-up shapes. */
const condition = fc.oneof(
  value.map((a) => `code = ${odsql(a)}`),
  value.map((a) => `${odsql(a)} = code`),
  fc.array(value, { minLength: 1, maxLength: 4 }).map((vs) => `code in (${vs.map(odsql).join(', ')})`),
  fc
    .array(value, { minLength: 2, maxLength: 3 })
    .map((vs) => vs.map((v) => `code = ${odsql(v)}`).join(' or ')),
);

/** The count statement odsql compiles for `where` over SOURCE (or `source`). */
const countSql = (where: string[], source = SOURCE): string =>
  compileQuery(source, { where, limit: 10 }).countSql;

describe('DuckDB: counts looked up from tables of value counts', function () {
  this.timeout(120_000);
  let dir: string;
  let engine: DuckDBEngine;
  let lookups: CountLookups;
  let files = 0;

  /** Writes the value counts of `values` (column `code`) as a Parquet file. */
  async function countsFile(values: readonly (string | null)[]): Promise<string> {
    const file = path.join(dir, `counts-${files++}.parquet`);
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const rows = values.map((v) => `(${v === null ? 'NULL' : quoteString(v)})`).join(', ');
    await connection.run(`CREATE TABLE r(code VARCHAR)`);
    if (rows) await connection.run(`INSERT INTO r VALUES ${rows}`);
    await connection.run(
      `COPY (SELECT code, count(*) AS _count FROM r GROUP BY code) TO ${quoteString(file)} (FORMAT parquet)`,
    );
    connection.closeSync();
    instance.closeSync();
    return file;
  }

  /** DuckDB's own answer to `sql` (queryJson skips the lookup and the count cache). */
  const duckdbCount = async (sql: string) => Number((await engine.queryJson(sql))[0]!.total_count);

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'count-lookup-'));
    engine = await DuckDBEngine.open({
      allowedDirectories: [dir],
      tempDirectory: path.join(dir, 'tmp'),
      connections: 2,
      countEntries: 0,
    });
    lookups = engine['held'].lookups;
  });

  after(async () => {
    engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers generated equalities as DuckDB counts them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(value, { freq: 8 }), { maxLength: 40 }),
        fc.array(condition, { minLength: 1, maxLength: 1 }),
        async (values, where) => {
          await engine.defineView('ds__counts__code', await countsFile(values), 'counts');
          const sql = countSql(where);
          const looked = lookups.count(sql);
          expect(looked, sql).to.not.equal(null);
          expect(looked, sql).to.equal(await duckdbCount(sql));
          expect(await engine.count(sql)).to.equal(looked);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('runs every other shape as SQL', async () => {
    await engine.defineView('ds__counts__code', await countsFile(['SFO', 'LAX', null]), 'counts');
    const others = [
      "code = 'SFO' and code = 'LAX'",
      "not code = 'SFO'",
      "code != 'SFO'",
      "code > 'A'",
      "lower(code) = 'sfo'",
      "code like 'S'",
      'code is null',
      'code is not null',
      "code = 'SFO' or code is null",
      "code in ['A'..'Z']",
    ];
    for (const where of others) {
      const sql = countSql([where]);
      expect(sql, where).to.include('ds__counts__code');
      expect(lookups.count(sql), sql).to.equal(null);
    }
    // Numbers are not looked up; a row filter or the rows themselves name another table.
    expect(lookups.count(countSql(['n = 5']))).to.equal(null);
    const filtered = { ...SOURCE, rowFilter: parseWhere("code = 'LAX'"), valueCounts: undefined };
    expect(lookups.count(countSql(["code = 'SFO'"], filtered))).to.equal(null);
    expect(lookups.count(countSql(["code = 'SFO'", 'n > 1']))).to.equal(null);
  });

  it('holds only tables served as counts, within the budget, and forgets one replaced or dropped', async () => {
    const file = await countsFile(['SFO', 'SFO', 'LAX']);
    const sql = countSql(["code = 'SFO'"]);
    await engine.defineView('ds__counts__code', file, 'counts');
    expect(lookups.count(sql)).to.equal(2);
    await engine.defineView('ds__counts__code', file, 'pinned');
    expect(lookups.count(sql)).to.equal(null);
    expect(await engine.count(sql)).to.equal(2);
    await engine.defineView('ds__counts__code', file, 'counts');
    await engine.dropView('ds__counts__code');
    expect(lookups.count(sql)).to.equal(null);
    const tight = new CountLookups(100);
    expect(tight.hold('t', 'code', [['SFO', 1]])).to.equal(true);
    expect(tight.hold('u', 'code', [['LAX', 1]])).to.equal(false);
    expect(tight.bytes).to.be.at.most(100);
  });

  it('reads the literals as DuckDB does, quotes doubled and `) OR (` inside one', () => {
    expect(equalityValues('"c"', `"c" = 'a'`)).to.deep.equal(['a']);
    expect(equalityValues('"c"', `"c" = 'a'' OR ''b'`)).to.deep.equal(["a' OR 'b"]);
    expect(equalityValues('"c"', `("c" = 'a'') OR (''b') OR ("c" = 'x')`)).to.deep.equal(["a') OR ('b", 'x']);
    expect(equalityValues('"c"', `"c" = 'a'') OR (''b'`)).to.deep.equal(["a') OR ('b"]);
    expect(equalityValues('"c"', `("c" = 'a') OR ("c" = 'b'`)).to.equal(null);
    expect(equalityValues('"c"', `"c" = 'a' OR "c" = 'b'`)).to.equal(null);
    expect(equalityValues('"c"', `"d" = 'a'`)).to.equal(null);
    expect(equalityValues('"c"', `"c" IN ('a', 'b''c')`)).to.deep.equal(['a', "b'c"]);
    expect(equalityValues('"c"', `"c" = '\uD800'`)).to.equal(null);
  });

  it("serves a public dataset's tables as counts, a restricted one's as plain pinned tables", async () => {
    const flights = (await loadPortal(SAMPLE_PORTAL, DATASET_CHECKS)).datasets.get('flights')!;
    expect(countsViewKind(flights)).to.equal('counts');
    const restricted = { ...flights, file: { ...flights.file, visibility: 'restricted' as const } };
    expect(countsViewKind(restricted)).to.equal('pinned');
  });
});
