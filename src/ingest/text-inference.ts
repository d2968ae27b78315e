// Field types of text columns, decided in one aggregate pass: a type wins when every non-empty cell passes its test.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { FieldType } from '../catalog/schema.js';
import { quoteIdentifier, quoteString } from '../sql-text.js';

/** A column to infer: `text` is a SQL expression giving its cells as VARCHAR. */
export interface TextCandidate {
  readonly text: string;
  /** JSON-typed columns only: the column itself, stored as JSON text if any value is an object or array. */
  readonly json?: string;
}

/** The field type chosen for a candidate and the SQL expression that converts its cells. */
export interface InferredColumn {
  readonly type: FieldType;
  readonly sql: string;
}

interface TextTest {
  readonly type: FieldType;
  /** SQL condition on a trimmed, non-empty cell `v`. */
  readonly test: (v: string) => string;
  readonly convert: (v: string) => string;
}

const INT = '[+-]?(0|[1-9][0-9]*)';
const DECIMAL = '[+-]?((0|[1-9][0-9]*)(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?';
const ISO_DATETIME =
  '[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?)?(Z|[+-][0-9]{2}(:[0-9]{2})?)?';

/** Day-first before month-first: a column where both parse is read the European way. */
const DATE_FORMATS = [
  '%Y-%m-%d',
  '%Y/%m/%d',
  '%d/%m/%Y',
  '%m/%d/%Y',
  '%d.%m.%Y',
  '%b %d %Y',
  '%d %b %Y',
  '%B %d, %Y',
  '%B %d %Y',
  '%d %B %Y',
];
const DATETIME_FORMATS = [
  '%Y/%m/%d %H:%M:%S',
  '%Y/%m/%d %H:%M',
  '%d/%m/%Y %H:%M:%S',
  '%d/%m/%Y %H:%M',
  '%m/%d/%Y %H:%M:%S',
  '%m/%d/%Y %H:%M',
];

const matches = (v: string, pattern: string): string => `regexp_full_match(${v}, ${quoteString(pattern)})`;

/** Tried in order; leading zeros keep a column text (codes such as `00501` are not numbers). */
const TEXT_TESTS: readonly TextTest[] = [
  {
    type: 'boolean',
    test: (v) => `lower(${v}) IN ('true', 'false')`,
    convert: (v) => `lower(${v}) = 'true'`,
  },
  {
    type: 'int',
    test: (v) => `${matches(v, INT)} AND TRY_CAST(${v} AS BIGINT) IS NOT NULL`,
    convert: (v) => `CAST(${v} AS BIGINT)`,
  },
  {
    // An integer too wide for BIGINT is an identifier, not a measure: it stays text.
    type: 'double',
    test: (v) =>
      `${matches(v, DECIMAL)} AND (${matches(v, '.*[.eE].*')} OR TRY_CAST(${v} AS BIGINT) IS NOT NULL)`,
    convert: (v) => `CAST(${v} AS DOUBLE)`,
  },
  ...DATE_FORMATS.map((format): TextTest => ({
    type: 'date',
    test: (v) => `try_strptime(${v}, ${quoteString(format)}) IS NOT NULL`,
    convert: (v) => `CAST(strptime(${v}, ${quoteString(format)}) AS DATE)`,
  })),
  {
    type: 'datetime',
    test: (v) => `${matches(v, ISO_DATETIME)} AND TRY_CAST(${v} AS TIMESTAMPTZ) IS NOT NULL`,
    convert: (v) => `CAST(${v} AS TIMESTAMPTZ)`,
  },
  ...DATETIME_FORMATS.map((format): TextTest => ({
    type: 'datetime',
    test: (v) => `try_strptime(${v}, ${quoteString(format)}) IS NOT NULL`,
    convert: (v) => `CAST(strptime(${v}, ${quoteString(format)}) AS TIMESTAMPTZ)`,
  })),
];

/** A cell as tested: trimmed, and null when empty. */
const cell = (text: string): string => `nullif(trim(${text}), '')`;

/** Aggregates for one candidate: non-empty count, nested count, then one count per test. */
function countExpressions(candidate: TextCandidate, index: number): string[] {
  const v = quoteIdentifier(`v${index}`);
  return [
    `count(${v})`,
    candidate.json ? `count_if(json_type(${candidate.json}) IN ('OBJECT', 'ARRAY'))` : '0',
    ...TEXT_TESTS.map((t) => `count_if(${t.test(v)})`),
  ];
}

function choose(candidate: TextCandidate, counts: readonly number[]): InferredColumn {
  const [filled = 0, nested = 0, ...passed] = counts;
  if (nested > 0 && candidate.json) return { type: 'json_blob', sql: `CAST(${candidate.json} AS VARCHAR)` };
  const winner = filled > 0 ? TEXT_TESTS.find((_, i) => passed[i] === filled) : undefined;
  if (!winner) return { type: 'text', sql: `nullif(${candidate.text}, '')` };
  return { type: winner.type, sql: winner.convert(cell(candidate.text)) };
}

/** Infers every candidate over `table` in one scan; results are in the candidates' order. */
export async function inferTextColumns(
  connection: DuckDBConnection,
  table: string,
  candidates: readonly TextCandidate[],
): Promise<InferredColumn[]> {
  if (candidates.length === 0) return [];
  const cells = candidates.map((c, i) => `${cell(c.text)} AS ${quoteIdentifier(`v${i}`)}`);
  const counts = candidates.flatMap(countExpressions);
  const reader = await connection.runAndReadAll(
    `SELECT ${counts.join(', ')} FROM (SELECT *, ${cells.join(', ')} FROM ${quoteIdentifier(table)})`,
  );
  const row = (reader.getRows()[0] ?? []).map((value) => Number(value));
  const width = 2 + TEXT_TESTS.length;
  return candidates.map((c, i) => choose(c, row.slice(i * width, (i + 1) * width)));
}
