// The typing pass's counts: grouping a table's cells in a branch per column counts exactly what the
// one grouping over the unpivoted cells counts (type-counts.ts, BRANCHED_COLUMNS); a column with no
// null token in the whole table is read without looking for them.
import { expect } from 'chai';
import { useUtcDuckDB } from '../helpers/utc-duckdb.js';
import { inferTextColumns } from '../../src/ingest/text-inference.js';
import { countTests, type CountedColumn } from '../../src/ingest/type-counts.js';
import { DEFAULT_DIALECT, textTests } from '../../src/ingest/text-tests.js';

describe('ingest: counting the cells that pass each type test', () => {
  const duck = useUtcDuckDB();

  it('counts the same by a branch per column as over the unpivoted cells', async () => {
    await duck.connection.run(`CREATE OR REPLACE TABLE cells AS SELECT
        CASE WHEN i % 7 = 0 THEN ' ' || i ELSE CAST(i AS VARCHAR) END AS ints,
        CASE WHEN i % 5 = 0 THEN NULL WHEN i % 11 = 0 THEN 'NA' ELSE lpad(CAST(i % 300 AS VARCHAR), 5, '0') END AS codes,
        CASE WHEN i % 3 = 0 THEN strftime(DATE '2001-01-01' + INTERVAL (i % 400) DAY, '%d/%m/%Y')
          ELSE strftime(DATE '2001-01-01' + INTERVAL (i % 400) DAY, '%Y-%m-%d') END AS dates,
        CASE WHEN i % 13 = 0 THEN '2001-02-03T04:05:06+02:00' ELSE '2001-02-03 04:05:' || lpad(CAST(i % 60 AS VARCHAR), 2, '0') END AS times,
        CAST(CASE WHEN i % 4 = 0 THEN '{"a": 1}' WHEN i % 4 = 1 THEN '[1, 2]' ELSE CAST(i AS VARCHAR) END AS JSON) AS doc
      FROM range(5000) r(i)`);
    const all = textTests(DEFAULT_DIALECT);
    const columns: CountedColumn[] = [
      ...['ints', 'codes', 'dates', 'times'].map((name) => ({ text: name, tests: all })),
      { text: `json_extract_string(doc, '$')`, json: 'doc', tests: all.slice(0, 3) },
    ];
    // `cells` named as a table is grouped a branch per column; as any relation, unpivoted.
    const countOver = (table: boolean) =>
      countTests(duck.connection, { sql: 'cells', table }, columns, all, DEFAULT_DIALECT);
    const [branched, unpivoted] = [await countOver(true), await countOver(false)];
    expect(branched).to.deep.equal(unpivoted);
    // The counts hold something to compare: filled cells, a nested JSON value, codes, padded cells.
    const [ints, codes, , times, doc] = branched;
    expect([ints!.filled, ints!.padded, codes!.codes, doc!.nested]).to.deep.equal([5000, 715, 3636, 2500]);
    expect(times!.outside.some((n) => n > 0)).to.equal(true);
    // `NA` where i % 11 = 0 but not i % 5 = 0 (those are NULL, no cell): 455 - 91.
    expect([ints!.tokens, codes!.tokens]).to.deep.equal([0, 364]);
  });

  it('reads a column without looking for null tokens only when no cell of the whole table is one', async () => {
    // Row 45678 is usually outside the 20,000-row sample: the table's own pass must see its `NA`.
    await duck.connection.run(`CREATE OR REPLACE TABLE src AS SELECT i, CAST(i AS VARCHAR) AS plain,
        CASE WHEN i = 45678 THEN 'NA' ELSE CAST(i AS VARCHAR) END AS tokened FROM range(50000) r(i)`);
    const [plain, tokened] = await inferTextColumns(duck.connection, 'src', [
      { text: 'plain' },
      { text: 'tokened' },
    ]);
    expect([plain!.type, tokened!.type]).to.deep.equal(['int', 'int']);
    expect(plain!.sql).to.not.include('list_contains');
    expect(tokened!.sql).to.include('list_contains');
    const reader = await duck.connection.runAndReadAll(
      `SELECT ${plain!.sql}, ${tokened!.sql} FROM src WHERE i IN (7, 45678) ORDER BY i`,
    );
    expect(reader.getRowsJson()).to.deep.equal([
      ['7', '7'],
      ['45678', null],
    ]);
  });
});
