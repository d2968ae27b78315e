// Type inference of text cells, as a table: cells -> field type and the stored value of the first cell.
import { expect } from 'chai';
import { useUtcDuckDB } from '../helpers/utc-duckdb.js';
import { inferTextColumns } from '../../src/ingest/text-inference.js';
import { DEFAULT_NULL_TOKENS, type TextDialect } from '../../src/ingest/text-tests.js';
import { quoteString } from '../../src/sql/quoting.js';

interface Case {
  readonly cells: readonly string[];
  readonly type: string;
  /** The first cell as stored, rendered by DuckDB as text (undefined: not checked). */
  readonly first?: string | null;
  /** How the source writes numbers and missing values (default: a comma-separated file). */
  readonly dialect?: TextDialect;
}

/** A `;`- or tab-separated file: a comma is the decimal mark. */
const DECIMAL_COMMA: TextDialect = { decimalComma: true, nullTokens: DEFAULT_NULL_TOKENS };

const CASES: Record<string, Case> = {
  integers: { cells: ['1', '-3', '+7', ''], type: 'int', first: '1' },
  'integers with spaces': { cells: [' 42 ', '7'], type: 'int', first: '42' },
  'integers and decimals': { cells: ['1', '2.5'], type: 'double', first: '1.0' },
  'exponents and bare fractions': { cells: ['1e3', '.5', '-0.25'], type: 'double', first: '1000.0' },
  'leading zeros (codes)': { cells: ['00501', '12345'], type: 'text', first: '00501' },
  'postcodes, some with a leading zero': { cells: ['75001', '01000', '13001'], type: 'text', first: '75001' },
  'phone prefixes (every integer with a +)': { cells: ['+2', '+33', '+1', ''], type: 'text', first: '+2' },
  'signed changes (+ beside -)': { cells: ['+2', '-3', '+33'], type: 'int', first: '2' },
  'signed decimals are not codes': { cells: ['+1.5', '+2.25'], type: 'double', first: '1.5' },
  'too wide for BIGINT': { cells: ['12345678901234567890'], type: 'text' },
  'NaN and infinity words': { cells: ['nan', 'inf'], type: 'text' },
  'decimal comma in a comma-separated file': { cells: ['1,5'], type: 'text' },
  booleans: { cells: ['true', 'FALSE', 'True', ''], type: 'boolean', first: 'true' },
  'yes/no is not boolean': { cells: ['yes', 'no'], type: 'text' },
  'ISO dates': { cells: ['2012-01-01', '2015-12-31'], type: 'date', first: '2012-01-01' },
  'slashed ISO dates': { cells: ['2012/01/31'], type: 'date', first: '2012-01-31' },
  'day-first dates': { cells: ['01/02/2020', '31/12/2020'], type: 'date', first: '2020-02-01' },
  'month-first dates (when day-first cannot parse)': {
    cells: ['01/02/2020', '12/31/2020'],
    type: 'date',
    first: '2020-01-02',
  },
  'day-first dates with dashes': { cells: ['25-11-2026', '01-02-2026'], type: 'date', first: '2026-11-25' },
  'month-first dates with dashes': { cells: ['11-25-2026', '01-02-2026'], type: 'date', first: '2026-11-25' },
  'day-first dates with points': { cells: ['25.11.2026', '01.02.2026'], type: 'date', first: '2026-11-25' },
  'dates that read both day-first and month-first stay text': {
    cells: ['01/02/2020', '03/04/2020'],
    type: 'text',
    first: '01/02/2020',
  },
  'day-first beside month-first in one column stay text': {
    cells: ['25/11/2026', '11/25/2026'],
    type: 'text',
  },
  'month-name dates': { cells: ['Jun 12 1998', 'Jan 1 2000'], type: 'date', first: '1998-06-12' },
  'impossible dates': { cells: ['2012-13-45'], type: 'text' },
  'naive ISO datetimes are UTC': {
    cells: ['2010-01-01T01:00:00', '2010-01-01 02:30'],
    type: 'datetime',
    first: '2010-01-01 01:00:00+00',
  },
  'ISO datetimes with offsets': {
    cells: ['2021-06-23T16:59:57+02:00', '2000-01-01T08:00:00.000Z'],
    type: 'datetime',
    first: '2021-06-23 14:59:57+00',
  },
  'slashed datetimes': {
    cells: ['2001/01/01 00:47', '2001/01/02 13:05'],
    type: 'datetime',
    first: '2001-01-01 00:47:00+00',
  },
  'dates mixed with datetimes': {
    cells: ['2012-01-01', '2012-01-01T10:00:00'],
    type: 'datetime',
    first: '2012-01-01 00:00:00+00',
  },
  'numbers mixed with words': { cells: ['1', 'abc'], type: 'text', first: '1' },
  'NA among integers': { cells: ['NA', '2', 'N/A', '-'], type: 'int', first: null },
  'every null token among dates': {
    cells: ['#N/A', '2012-01-01', 'null', 'NULL', 'n/a', 'NA', 'N/A', '-'],
    type: 'date',
    first: null,
  },
  'null tokens alone stay text, as written': { cells: ['NA', 'n/a'], type: 'text', first: 'NA' },
  'null tokens in a text column stay text': { cells: ['NA', 'Namibia'], type: 'text', first: 'NA' },
  'a token given with --null': {
    cells: ['n.d.', '4.5'],
    type: 'double',
    first: null,
    dialect: { decimalComma: false, nullTokens: [...DEFAULT_NULL_TOKENS, 'n.d.'] },
  },
  'thousands grouped by commas': { cells: ['1,234', '12', '-1,234,567'], type: 'int', first: '1234' },
  'grouped thousands and decimals': { cells: ['1,234.5', '7'], type: 'double', first: '1234.5' },
  'commas that do not group thousands': { cells: ['1,23', '7'], type: 'text', first: '1,23' },
  'decimal comma': { cells: ['3,5', '-0,25', '12'], type: 'double', first: '3.5', dialect: DECIMAL_COMMA },
  'decimal comma with points grouping thousands': {
    cells: ['1.234,5', '2', '1.000.000'],
    type: 'double',
    first: '1234.5',
    dialect: DECIMAL_COMMA,
  },
  'spaces grouping thousands (space, no-break, narrow no-break)': {
    cells: ['1 234', '1\u00a0000', '2\u202f500', '7'],
    type: 'int',
    first: '1234',
    dialect: DECIMAL_COMMA,
  },
  'a decimal point in a decimal-comma file is still a decimal point': {
    cells: ['1.5', '2'],
    type: 'double',
    first: '1.5',
    dialect: DECIMAL_COMMA,
  },
  'decimal comma and NA': { cells: ['NA', '0,5'], type: 'double', first: null, dialect: DECIMAL_COMMA },
  'points group thousands beside a decimal comma': {
    cells: ['1.234', '0,5'],
    type: 'double',
    first: '1234.0',
    dialect: DECIMAL_COMMA,
  },
  'too wide for BIGINT in a decimal-comma file': {
    cells: ['12345678901234567890'],
    type: 'text',
    dialect: DECIMAL_COMMA,
  },
  'all empty': { cells: ['', '', ''], type: 'text', first: null },
};

describe('ingest: type inference', () => {
  const duck = useUtcDuckDB();

  for (const [name, { cells, type, first, dialect }] of Object.entries(CASES)) {
    it(`${name}: ${JSON.stringify(cells)} -> ${type}`, async () => {
      const values = cells.map((cell, i) => `(${i}, ${quoteString(cell)})`).join(', ');
      await duck.connection.run(
        `CREATE OR REPLACE TABLE src AS SELECT * FROM (VALUES ${values}) t(i, c0) ORDER BY i`,
      );
      const [inferred] = await inferTextColumns(duck.connection, 'src', [{ text: 'c0' }], dialect);
      expect(inferred!.type).to.equal(type);
      if (first === undefined) return;
      const reader = await duck.connection.runAndReadAll(
        `SELECT CAST(${inferred!.sql} AS VARCHAR) FROM src ORDER BY i LIMIT 1`,
      );
      expect(reader.getRowsJson()[0]![0]).to.equal(first);
    });
  }

  /** Infers one column `c0` of `cells` (in order) and returns it with the stored values. */
  async function inferCells(cells: readonly string[]) {
    const values = cells.map((cell, i) => `(${i}, ${quoteString(cell)})`).join(', ');
    await duck.connection.run(
      `CREATE OR REPLACE TABLE src AS SELECT * FROM (VALUES ${values}) t(i, c0) ORDER BY i`,
    );
    const [inferred] = await inferTextColumns(duck.connection, 'src', [{ text: 'c0' }]);
    const reader = await duck.connection.runAndReadAll(
      `SELECT CAST(${inferred!.sql} AS VARCHAR) FROM src ORDER BY i`,
    );
    return { ...inferred!, stored: reader.getRowsJson().map((row) => row[0]) };
  }
  const ints = (n: number): string[] => Array.from({ length: n }, (_, i) => String(i + 1));

  it('takes a type all but one cell in a hundred fit, storing the misfits as null', async () => {
    const column = await inferCells([...ints(99), 'unknown']);
    expect(column.type).to.equal('int');
    expect(column.misfits).to.not.equal(undefined);
    expect(column.stored.slice(97)).to.deep.equal(['98', '99', null]);
    expect((await inferCells([...ints(98), 'unknown', 'n.d.'])).type).to.equal('text');
    expect((await inferCells([...ints(98), 'unknown'])).type).to.equal('text');
  });

  it('prefers a type every cell fits, and never makes codes with leading zeros numbers', async () => {
    const decimals = await inferCells([...ints(199), '2.5']);
    expect(decimals.type).to.equal('double');
    expect(decimals.misfits).to.equal(undefined);
    expect((await inferCells([...ints(199), '00501'])).type).to.equal('text');
  });

  it('names the two readings of ambiguous dates, and a day above 12 anywhere in a big table decides', async () => {
    const both = await inferCells(['01/02/2020', '03/04/2020']);
    expect(both.ambiguousDates).to.deep.equal(['%d/%m/%Y', '%m/%d/%Y']);
    await duck.connection.run(`CREATE OR REPLACE TABLE src AS SELECT
        CASE WHEN i = 29999 THEN '13/02/2020' ELSE '01/02/2020' END AS late,
        '03/04/2020' AS never FROM range(30000) r(i)`);
    const [late, never] = await inferTextColumns(duck.connection, 'src', [
      { text: 'late' },
      { text: 'never' },
    ]);
    expect(late!.type).to.equal('date');
    expect(late!.ambiguousDates).to.equal(undefined);
    expect(never!.type).to.equal('text');
    expect(never!.ambiguousDates).to.deep.equal(['%d/%m/%Y', '%m/%d/%Y']);
  });

  it('infers many columns in one pass, each on its own', async () => {
    await duck.connection.run(
      `CREATE OR REPLACE TABLE src AS SELECT * FROM (VALUES ('1', 'x', '2020-01-01'), ('2', '', '2020-01-02')) t(a, b, c)`,
    );
    const inferred = await inferTextColumns(duck.connection, 'src', [
      { text: 'a' },
      { text: 'b' },
      { text: 'c' },
    ]);
    expect(inferred.map((c) => c.type)).to.deep.equal(['int', 'text', 'date']);
  });

  it('on a table larger than its sample, decides as if every cell were tested', async () => {
    // One odd cell among 50,000 rows is usually outside the 20,000-row sample: the full pass must
    // catch it. A word among integers is a misfit (one in 50,000), a decimal is not.
    await duck.connection.run(`CREATE OR REPLACE TABLE src AS SELECT
        CASE WHEN i = 45678 THEN '2.5' ELSE CAST(i AS VARCHAR) END AS decimals,
        CASE WHEN i = 45678 THEN 'x' ELSE CAST(i AS VARCHAR) END AS words,
        CASE WHEN i = 45678 THEN '42' ELSE '' END AS sparse,
        CAST(i AS VARCHAR) AS ints,
        CAST(CASE WHEN i = 45678 THEN '{"a": 1}' ELSE CAST(i AS VARCHAR) END AS JSON) AS blob
      FROM range(50000) r(i)`);
    const inferred = await inferTextColumns(duck.connection, 'src', [
      { text: 'decimals' },
      { text: 'words' },
      { text: 'sparse' },
      { text: 'ints' },
      { text: "json_extract_string(blob, '$')", json: 'blob' },
    ]);
    expect(inferred.map((c) => c.type)).to.deep.equal(['double', 'int', 'int', 'int', 'json_blob']);
    expect(inferred.map((c) => c.misfits !== undefined)).to.deep.equal([false, true, false, false, false]);
  });

  it('trims the cells of a column only when a cell of the whole table has spaces to trim', async () => {
    // Row 45678 is usually outside the 20,000-row sample: the table's own pass must see its spaces.
    await duck.connection.run(`CREATE OR REPLACE TABLE src AS SELECT i,
        CAST(i AS VARCHAR) AS clean,
        CASE WHEN i = 45678 THEN ' 7 ' ELSE CAST(i AS VARCHAR) END AS spaced,
        CASE WHEN i = 45678 THEN '\u00a0' ELSE CAST(i AS VARCHAR) END AS blank,
        CASE WHEN i = 45678 THEN ' NA' WHEN i = 3 THEN 'x' ELSE CAST(i AS VARCHAR) END AS tolerant
      FROM range(50000) r(i)`);
    const names = ['clean', 'spaced', 'blank', 'tolerant'];
    const inferred = await inferTextColumns(
      duck.connection,
      'src',
      names.map((text) => ({ text })),
    );
    expect(inferred.map((c) => c.type)).to.deep.equal(['int', 'int', 'int', 'int']);
    expect(inferred.map((c) => c.sql.includes('trim('))).to.deep.equal([false, true, true, true]);
    const stored = inferred.map((c) => `CAST(${c.sql} AS VARCHAR)`).join(', ');
    const reader = await duck.connection.runAndReadAll(
      `SELECT ${stored} FROM src WHERE i IN (3, 45678) ORDER BY i`,
    );
    expect(reader.getRowsJson()).to.deep.equal([
      ['3', '3', '3', null],
      ['45678', '7', null, null],
    ]);
  });
});
