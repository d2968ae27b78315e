// The one statement that counts, for every column being typed at once, its filled cells and the
// cells passing each type test. The columns are unpivoted into (column, cell) rows, so every test
// is written once whatever the number of columns: a statement with a test per column and type was
// 790 kB of SQL for 200 columns, and DuckDB took minutes over it (docs/ingest.md, Types).
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteString } from '../sql/quoting.js';
import {
  cellSql,
  codesCountSql,
  numberShape,
  type TestGate,
  type TextDialect,
  type TextTest,
} from './text-tests.js';

/** A column to count: its cells as VARCHAR, its JSON column if any, and the tests it needs. */
export interface CountedColumn {
  readonly text: string;
  /** JSON-typed columns only: the column, whose objects and arrays are counted. */
  readonly json?: string;
  /** Which of the statement's tests to run on it (each one of `all`). */
  readonly tests: readonly TextTest[];
}

/** Counts over one relation for one column: non-empty cells, nested JSON values, codes, cells passing each test. */
export interface Counts {
  readonly filled: number;
  readonly nested: number;
  /** Cells that are codes (`00501`, `+33` where every integer has a +): a column holding any is never numeric. */
  readonly codes: number;
  /**
   * Cells that trim() changes (filled or not: `' '` and `' NA'` are empty once trimmed): when
   * none is, the stored value may read the cell untrimmed, the same values for less work.
   */
  readonly padded: number;
  /**
   * Filled cells that are empty once trimmed or a null token (`NA`...): when none is, the stored
   * value may read the cell without looking for them, the same values for less work.
   */
  readonly tokens: number;
  /** In the order of the column's `tests`. */
  readonly passed: readonly number[];
  /**
   * In the same order: cells passing a test that has a `cheaper` form (TextTest.cheaper) without
   * its shape; 0 for other tests. When 0, the cheaper conversion reads every cell the same.
   */
  readonly outside: readonly number[];
}

/** What the cells are counted over: a stored table's name, or any relation (a sample's subquery). */
export interface CountedRelation {
  readonly sql: string;
  /** A table, which each column's branch may read again (a sample would be drawn again). */
  readonly table: boolean;
}

/**
 * Columns up to which a table's cells are grouped in a branch per column (each reading its own
 * column of the table) rather than unpivoted into one grouping on (column, cell): the 3M flights'
 * confirming pass, 9M cells of three columns, took 0.52 s of CPU instead of 0.92 (one thread); the
 * 200 columns' took 1.12 s either way, and a branch is ~190 characters of SQL a column, so wider
 * tables keep the unpivot, whose SQL grows by a cell and a mask a column. A sample (a subquery) is
 * unpivoted always: a branch per column would draw it again.
 */
const BRANCHED_COLUMNS = 32;

/** The gate's SQL on the cell `v`, `number` read from the column computed once per cell. */
function gateSql(gate: TestGate): string | null {
  if (gate === null) return null;
  if (gate === 'number') return 'number_shaped';
  return `contains(v, ${quoteString(gate.contains)})`;
}

/** Each column's test mask: bit i set when it asks for test i of `all`. */
function masksOf(columns: readonly CountedColumn[], all: readonly TextTest[]): number[] {
  return columns.map((c) => c.tests.reduce((bits, test) => bits | (1 << all.indexOf(test)), 0));
}

/** Whether a JSON column's value is an object or an array (false for other columns). */
function nestedSql(column: CountedColumn): string {
  const { json } = column;
  return json ? `json_type(${json}) = 'OBJECT' OR json_type(${json}) = 'ARRAY'` : 'false';
}

/** `(column, cell)` rows of `from`: each row's cells unnested beside their column's position. */
function unpivotSql(columns: readonly CountedColumn[], from: string): string {
  const lists = [
    `unnest([${columns.map((_, i) => i).join(', ')}]) AS col`,
    `unnest([${columns.map((c) => `CAST(${c.text} AS VARCHAR)`).join(', ')}]) AS raw`,
  ];
  if (columns.some((c) => c.json)) lists.push(`unnest([${columns.map(nestedSql).join(', ')}]) AS nested`);
  else lists.push('false AS nested');
  return `SELECT ${lists.join(', ')} FROM ${from}`;
}

/** Each column's distinct cells `(col, raw, n, nested)`, grouped once over the unpivoted cells. */
function unpivotedDistinctSql(columns: readonly CountedColumn[], from: string): string {
  return `SELECT col, raw, count(*) AS n, count_if(nested) AS nested FROM (${unpivotSql(columns, from)}) GROUP BY col, raw`;
}

/** The same rows, each column grouped on its own cells in its own branch (see BRANCHED_COLUMNS). */
function branchedDistinctSql(columns: readonly CountedColumn[], table: string): string {
  const branches = columns.map(
    (c, i) => `SELECT ${i} AS col, raw, count(*) AS n, count_if(nested) AS nested
      FROM (SELECT CAST(${c.text} AS VARCHAR) AS raw, ${nestedSql(c)} AS nested FROM ${table}) GROUP BY raw`,
  );
  return branches.join(' UNION ALL ');
}

/**
 * Runs each column's tests over `from` in one statement. Each distinct cell of a column is tested once
 * and counted for its repeats: 200 columns x 20,000 rows (1.7M distinct of 4M cells) took 3.1 s of
 * CPU instead of 5.0, and the 3M flights confirming one test a column 1.9 s instead of 3.1 (one
 * thread). A test runs only on the cells of the columns that asked for it and that pass its gate
 * (the conditions of a WHEN are evaluated in turn, each on the rows the ones before it kept).
 */
export async function countTests(
  connection: DuckDBConnection,
  from: CountedRelation,
  columns: readonly CountedColumn[],
  all: readonly TextTest[],
  dialect: TextDialect,
): Promise<Counts[]> {
  if (columns.length === 0) return [];
  const used = all.filter((test) => columns.some((c) => c.tests.includes(test)));
  const conditionsOf = (test: TextTest): string[] =>
    [`(mask & ${1 << all.indexOf(test)}) <> 0`, gateSql(test.gate)].filter((c) => c !== null);
  const perTest = used.map(
    (test) => `sum(CASE WHEN ${[...conditionsOf(test), test.test('v')].join(' AND ')} THEN n ELSE 0 END)`,
  );
  // The cheap shape first: most cells have it, and the test then runs on the few others only.
  const outside = used.flatMap((test) => {
    if (!test.cheaper) return [];
    const conditions = [...conditionsOf(test), `NOT ${test.cheaper.shape('v')}`, test.test('v')];
    return [`sum(CASE WHEN ${conditions.join(' AND ')} THEN n ELSE 0 END)`];
  });
  // Grouped on (column, raw cell) alone, the mask looked up after: on the 200-column file the
  // confirming pass took 1.5 s of CPU instead of 2.4-2.6 with the mask in the key. Each distinct
  // raw cell is trimmed once, and trim() itself tells which cells it changes (it removes Unicode
  // spaces too), so the count of padded cells is exact by construction.
  const distinct =
    from.table && columns.length <= BRANCHED_COLUMNS
      ? branchedDistinctSql(columns, from.sql)
      : unpivotedDistinctSql(columns, from.sql);
  const trimmed = `SELECT col, n, nested, trim(raw) AS t, CASE WHEN raw <> trim(raw) THEN n ELSE 0 END AS padded FROM (${distinct})`;
  const cells = `SELECT col, n, nested, padded, t, ${cellSql('t', dialect, { trim: false })} AS v FROM (${trimmed})`;
  const masks = `list_extract([${masksOf(columns, all).join(', ')}], col + 1)`;
  const shaped = `SELECT *, ${masks} AS mask, v IS NOT NULL AND ${numberShape('v')} AS number_shaped FROM (${cells})`;
  const aggregates = [
    'sum(CASE WHEN v IS NOT NULL THEN n ELSE 0 END)',
    'sum(nested)',
    codesCountSql('v', 'n', 'number_shaped'),
    'sum(padded)',
    'sum(CASE WHEN v IS NULL AND t IS NOT NULL THEN n ELSE 0 END)',
    ...perTest,
    ...outside,
  ];
  const reader = await connection.runAndReadAll(
    `SELECT col, ${aggregates.join(', ')} FROM (${shaped}) GROUP BY col`,
  );
  const byColumn = new Map(reader.getRows().map((row) => [Number(row[0]), row.slice(1).map(Number)]));
  return columns.map((column, i) => {
    const [filled = 0, nested = 0, codes = 0, padded = 0, tokens = 0, ...rest] = byColumn.get(i) ?? [];
    const passed = rest.slice(0, used.length);
    const beyond = rest.slice(used.length);
    const withCheaper = used.filter((test) => test.cheaper);
    return {
      filled,
      nested,
      codes,
      padded,
      tokens,
      passed: column.tests.map((test) => passed[used.indexOf(test)] ?? 0),
      outside: column.tests.map((test) => (test.cheaper ? (beyond[withCheaper.indexOf(test)] ?? 0) : 0)),
    };
  });
}
