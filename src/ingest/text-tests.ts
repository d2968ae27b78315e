// The types a text cell may hold, in the order inference tries them: a SQL test and a SQL conversion each.
import type { FieldType } from '../catalog/schema.js';
import { quoteString } from '../sql-text.js';

/** One type a text column may have: a test every non-empty cell must pass, and the conversion. */
export interface TextTest {
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

/** The regular expression of the strings a strptime format can match, field by field. */
const FORMAT_PIECES: Readonly<Record<string, string>> = {
  '%Y': '[0-9]{4}',
  '%m': '[0-9]{1,2}',
  '%d': '[0-9]{1,2}',
  '%H': '[0-9]{1,2}',
  '%M': '[0-9]{1,2}',
  '%S': '[0-9]{1,2}',
  '%b': '[A-Za-z]{3}',
  '%B': '[A-Za-z]+',
};

/** `%d/%m/%Y` -> `[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}`. */
export function formatShape(format: string): string {
  return format
    .split(/(%[A-Za-z])/)
    .map((piece) => FORMAT_PIECES[piece] ?? piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('');
}

/**
 * Parses with `format` only cells of its shape: a failing strptime costs about ten times a
 * failing regular expression, and most cells of most columns fail most formats.
 */
function parsesAs(v: string, format: string): string {
  return `CASE WHEN ${matches(v, formatShape(format))} THEN try_strptime(${v}, ${quoteString(format)}) IS NOT NULL ELSE false END`;
}

/** Tried in order; leading zeros keep a column text (codes such as `00501` are not numbers). */
export const TEXT_TESTS: readonly TextTest[] = [
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
    test: (v) => parsesAs(v, format),
    convert: (v) => `CAST(strptime(${v}, ${quoteString(format)}) AS DATE)`,
  })),
  {
    type: 'datetime',
    test: (v) => `${matches(v, ISO_DATETIME)} AND TRY_CAST(${v} AS TIMESTAMPTZ) IS NOT NULL`,
    convert: (v) => `CAST(${v} AS TIMESTAMPTZ)`,
  },
  ...DATETIME_FORMATS.map((format): TextTest => ({
    type: 'datetime',
    test: (v) => parsesAs(v, format),
    convert: (v) => `CAST(strptime(${v}, ${quoteString(format)}) AS TIMESTAMPTZ)`,
  })),
];
