// Typing many columns at once: every column gets the type it gets alone, in a number of statements
// that does not grow with the columns, and cells far outside the sample still decide.
import { expect } from 'chai';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { loadSource, type SourceTable } from '../../src/ingest/load-source.js';
import { inferTextColumns, type TextCandidate } from '../../src/ingest/text-inference.js';
import { DEFAULT_NULL_TOKENS, type TextDialect } from '../../src/ingest/text-tests.js';
import { writeWideCsv, type WideCsvShape } from '../helpers/wide-csv.js';
import { cleanup, tempDir } from './helpers.js';

/** What each kind of column of the wide file becomes, typed alone or among 200. */
const TYPE_BY_KIND: Readonly<Record<string, string>> = {
  int: 'int',
  double: 'double',
  decimal: 'double',
  iso_date: 'date',
  day_first: 'date',
  code: 'text',
  city: 'text',
  sentence: 'text',
  flag: 'boolean',
  sparse: 'int',
  month_first: 'date',
  grouped: 'int',
  datetime: 'datetime',
  points_date: 'date',
  mostly_int: 'int',
  last_only: 'date',
  empty: 'text',
  ambiguous: 'text',
  month_name: 'date',
  note: 'text',
};

describe('ingest: typing wide files', () => {
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  beforeEach(async () => {
    instance = await DuckDBInstance.create(':memory:');
    connection = await instance.connect();
    await connection.run("SET TimeZone = 'UTC'");
  });
  afterEach(() => {
    connection.closeSync();
    instance.closeSync();
  });
  after(cleanup);

  /** Writes a wide CSV of `shape` and loads it as ingest does. */
  async function loadWide(shape: WideCsvShape): Promise<SourceTable> {
    const file = path.join(await tempDir(), 'wide.csv');
    await writeWideCsv(file, shape);
    return loadSource(connection, file, 'csv', file);
  }

  const candidatesOf = (source: SourceTable): TextCandidate[] =>
    source.columns.map((c) => ({ text: `CAST(${c.column} AS VARCHAR)` }));
  const dialectOf = (source: SourceTable): TextDialect => ({
    decimalComma: source.delimiter !== ',',
    nullTokens: DEFAULT_NULL_TOKENS,
  });

  for (const delimiter of [';', ','] as const) {
    it(`types 200 columns (${delimiter}-separated) as each is typed alone`, async () => {
      const source = await loadWide({ rows: 500, columns: 200, delimiter, seed: 43 });
      const candidates = candidatesOf(source);
      const together = await inferTextColumns(connection, 'src', candidates, dialectOf(source));
      const alone = [];
      for (const candidate of candidates) {
        alone.push(...(await inferTextColumns(connection, 'src', [candidate], dialectOf(source))));
      }
      expect(together).to.deep.equal(alone);
      const expected = source.columns.map((c) => TYPE_BY_KIND[c.label.split(' ')[0]!]);
      expect(together.map((c) => c.type)).to.deep.equal(expected);
      const misfits = source.columns.filter((_, i) => together[i]!.misfits !== undefined);
      expect(misfits.map((c) => c.label.split(' ')[0])).to.include('mostly_int');
      expect(together.filter((c) => c.ambiguousDates).length).to.equal(10);
    });
  }

  it('runs as many statements for 200 columns as for 2, each test written once', async () => {
    const source = await loadWide({ rows: 300, columns: 200, delimiter: ';', seed: 7 });
    /** The statements inferring `candidates` runs, and their length in characters. */
    const measured = async (candidates: readonly TextCandidate[]) => {
      const sent = { statements: 0, characters: 0 };
      const counting = new Proxy(connection, {
        get(target, name, receiver) {
          const value: unknown = Reflect.get(target, name, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            if (name === 'run' || name === 'runAndReadAll') {
              sent.statements++;
              sent.characters += String(args[0]).length;
            }
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
      await inferTextColumns(counting, 'src', candidates, dialectOf(source));
      return sent;
    };
    const candidates = candidatesOf(source);
    const wide = await measured(candidates);
    const narrow = await measured(candidates.slice(0, 2));
    expect(wide.statements).to.equal(narrow.statements);
    // A column adds its cell and its tests' mask to the SQL, not a copy of every test (~4 kB).
    expect((wide.characters - narrow.characters) / 198).to.be.below(100);
  });

  it('types a 10,000-row wide file from a 2,000-row sample as when every row is tested', async () => {
    const source = await loadWide({ rows: 10_000, columns: 60, delimiter: ';', seed: 11 });
    const candidates = candidatesOf(source);
    const sampled = await inferTextColumns(connection, 'src', candidates, dialectOf(source));
    const everyRow = await inferTextColumns(connection, 'src', candidates, dialectOf(source), {
      smallSample: false,
    });
    expect(sampled).to.deep.equal(everyRow);
    expect(sampled.map((c) => c.type)).to.deep.equal(
      source.columns.map((c) => TYPE_BY_KIND[c.label.split(' ')[0]!]),
    );
    expect(sampled.filter((c) => c.misfits !== undefined).length).to.equal(3);
  });

  it('holds a sampled table of 10,000 rows to 1% of misfits exactly, wherever they lie', async () => {
    await connection.run(`CREATE TABLE src AS SELECT
        CASE WHEN i % 100 = 0 THEN 'x' ELSE CAST(i AS VARCHAR) END AS spread_100,
        CASE WHEN i % 100 = 0 OR i = 7 THEN 'x' ELSE CAST(i AS VARCHAR) END AS spread_101,
        CASE WHEN i < 100 THEN 'x' ELSE CAST(i AS VARCHAR) END AS first_100,
        CASE WHEN i >= 9900 THEN '2020-13-45' ELSE '2020-01-02' END AS last_100,
        CASE WHEN i = 9999 THEN 'none' ELSE '1.5' END AS last_word,
        CASE WHEN i = 9999 THEN '00042' ELSE CAST(i AS VARCHAR) END AS last_code
      FROM range(10000) r(i)`);
    const names = ['spread_100', 'spread_101', 'first_100', 'last_100', 'last_word', 'last_code'];
    const candidates = names.map((text) => ({ text }));
    const sampled = await inferTextColumns(connection, 'src', candidates);
    const everyRow = await inferTextColumns(connection, 'src', candidates, undefined, { smallSample: false });
    expect(sampled).to.deep.equal(everyRow);
    expect(sampled.map((c) => c.type)).to.deep.equal(['int', 'text', 'int', 'date', 'double', 'text']);
    expect(sampled.map((c) => c.misfits !== undefined)).to.deep.equal([true, false, true, true, true, false]);
  });

  it('types a column whose only value is on the last row of a table larger than the sample', async () => {
    await connection.run(`CREATE TABLE src AS SELECT
        CASE WHEN i = 29999 THEN '2020-02-29' ELSE '' END AS last_date,
        CASE WHEN i = 29999 THEN ' 42 ' ELSE 'NA' END AS last_int,
        CASE WHEN i = 29999 THEN '00042' ELSE CAST(i AS VARCHAR) END AS last_code,
        CASE WHEN i = 29999 THEN 'none' ELSE CAST(i AS VARCHAR) END AS last_word,
        CASE WHEN i = 29999 THEN '13/02/2020' ELSE '01/02/2020' END AS last_day
      FROM range(30000) r(i)`);
    const names = ['last_date', 'last_int', 'last_code', 'last_word', 'last_day'];
    const inferred = await inferTextColumns(
      connection,
      'src',
      names.map((text) => ({ text })),
    );
    expect(inferred.map((c) => c.type)).to.deep.equal(['date', 'int', 'text', 'int', 'date']);
    expect(inferred.map((c) => c.misfits !== undefined)).to.deep.equal([false, false, false, true, false]);
  });
});
