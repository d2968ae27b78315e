// The types a text cell may hold, in the order inference tries them: a SQL test and a SQL conversion each.
import type { FieldType } from '../catalog/schema.js';
import { quoteString } from '../sql/quoting.js';

/** One type a text column may have: a test every non-empty cell must pass, and the conversion. */
export interface TextTest {
  readonly type: FieldType;
  /** SQL condition on a trimmed, non-empty cell `v`. */
  readonly test: (v: string) => string;
  readonly convert: (v: string) => string;
  /** The strptime format of a date test, whose month-first twin may read the same cells. */
  readonly format?: string;
  /**
   * What every cell passing `test` has, far cheaper to check: `number` (NUMBER_SHAPE, checked
   * once per cell for every numeric test) or a character it contains. Only a speed-up: a cell
   * without it is counted as failing, which the test would say too.
   */
  readonly gate: TestGate;
  /**
   * A narrower shape of the cells passing `test` that `convert` here reads to the same values for
   * less work (Counts.outside says whether every cell of a column has it).
   */
  readonly cheaper?: { readonly shape: (v: string) => string; readonly convert: (v: string) => string };
}

/** A necessary condition of a test (see TextTest.gate); null: the test is cheap, run it on every cell. */
export type TestGate = 'number' | { readonly contains: string } | null;

/**
 * The instant of a naive TIMESTAMP read as UTC, the session's zone (src/ingest/work-connection.ts):
 * its microseconds since the epoch made a TIMESTAMPTZ. The same value as `CAST(x AS TIMESTAMPTZ)`
 * in UTC without ICU's calendar per value: 3M flights' dates 0.15 s of CPU against 0.43.
 */
function utcInstant(timestampSql: string): string {
  return `make_timestamptz(epoch_us(${timestampSql}))`;
}

const INT = '[+-]?(0|[1-9][0-9]*)';
const DECIMAL = '[+-]?((0|[1-9][0-9]*)(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?';
const ISO_NAIVE = '[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?)?';
const ISO_DATETIME = `${ISO_NAIVE}(Z|[+-][0-9]{2}(:[0-9]{2})?)?`;

/**
 * Day-first before month-first; a column where both read every cell (no day above 12) is
 * ambiguous and stays text (see MONTH_FIRST_TWIN). Points are day-first only (`25.11.2026`).
 */
const DATE_FORMATS = [
  '%Y-%m-%d',
  '%Y/%m/%d',
  '%d/%m/%Y',
  '%m/%d/%Y',
  '%d.%m.%Y',
  '%d-%m-%Y',
  '%m-%d-%Y',
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

/** Day-first formats -> the month-first format that reads the same shape of cells. */
export const MONTH_FIRST_TWIN: Readonly<Record<string, string>> = {
  '%d/%m/%Y': '%m/%d/%Y',
  '%d-%m-%Y': '%m-%d-%Y',
  '%d/%m/%Y %H:%M:%S': '%m/%d/%Y %H:%M:%S',
  '%d/%m/%Y %H:%M': '%m/%d/%Y %H:%M',
};

/** A date format as people write it: `%d/%m/%Y` -> `dd/mm/yyyy`. */
export function readableFormat(format: string): string {
  const names: Readonly<Record<string, string>> = {
    '%Y': 'yyyy',
    '%m': 'mm',
    '%d': 'dd',
    '%H': 'HH',
    '%M': 'MM',
    '%S': 'SS',
  };
  return format.replace(/%[A-Za-z]/g, (piece) => names[piece] ?? piece);
}

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

/**
 * How a text source writes numbers and missing values. A decimal comma is read where the
 * delimiter is not a comma (`3,5` in a `;`-separated file); where it is (or in JSON), a comma
 * groups thousands (`"1,234.5"`).
 */
export interface TextDialect {
  readonly decimalComma: boolean;
  /** Cells (trimmed) that mean "no value" in a column of another type than text. */
  readonly nullTokens: readonly string[];
}

/** What publishers write for a missing value; `--null` adds more. */
export const DEFAULT_NULL_TOKENS: readonly string[] = ['NA', 'N/A', 'n/a', 'null', 'NULL', '-', '#N/A'];

export const DEFAULT_DIALECT: TextDialect = { decimalComma: false, nullTokens: DEFAULT_NULL_TOKENS };

/** What a cell's SQL may leave out, its column's counts having shown it does nothing there. */
export interface CellWork {
  /** The trim, for a column where no cell has anything to trim (Counts.padded). */
  readonly trim?: boolean;
  /**
   * The null tokens, for one where no cell is empty or a token (Counts.tokens): the 3M flights'
   * three typed columns 0.55 s of CPU to convert and write -> 0.46.
   */
  readonly tokens?: boolean;
}

/** A cell as tested and converted: trimmed, and null when empty or a null token (but what `work` leaves out). */
export function cellSql(text: string, dialect: TextDialect, work: CellWork = {}): string {
  const { trim = true, tokens = true } = work;
  const cell = trim ? `trim(${text})` : text;
  if (!tokens) return cell;
  const list = ['', ...dialect.nullTokens].map(quoteString).join(', ');
  return `(CASE WHEN list_contains([${list}], ${cell}) THEN NULL ELSE ${cell} END)`;
}

/** Spaces that group thousands where a comma is the decimal mark: space, no-break and narrow no-break. */
const SPACES = ' \u00a0\u202f';
const GROUP_SPACES = `[${SPACES}]`;

/** Integers with thousands grouped (`1,234,567`; `1 234 567` with a decimal comma), or plain. */
function groupedInt(dialect: TextDialect): string {
  const separator = dialect.decimalComma ? GROUP_SPACES : ',';
  return `[+-]?([1-9][0-9]{0,2}(${separator}[0-9]{3})+|0|[1-9][0-9]*)`;
}

/** Decimals grouped by commas (`1,234.5`), or with a decimal comma (`1.234,5`, `1 234,5`, `3,5`). */
function groupedDecimal(dialect: TextDialect): string {
  if (!dialect.decimalComma) return '[+-]?[1-9][0-9]{0,2}(,[0-9]{3})+(\\.[0-9]+)?';
  return `[+-]?(0|[1-9][0-9]{0,2}([.${SPACES}][0-9]{3})+|[1-9][0-9]*)(,[0-9]+)?`;
}

/** A plain decimal; an integer too wide for BIGINT is an identifier, not a measure: it stays text. */
const plainDecimal = (v: string): string =>
  `${matches(v, DECIMAL)} AND (${matches(v, '.*[.eE].*')} OR TRY_CAST(${v} AS BIGINT) IS NOT NULL)`;

/**
 * A grouped or decimal-comma number; a bare integer too wide for BIGINT stays text. Where commas
 * group, plain decimals may mix in (`7`, `1,234.5`); where a comma is the decimal mark, a point
 * only groups thousands (`1.234` is 1234 beside `0,5`: a column of points alone was read before).
 */
function groupedDecimalTest(v: string, dialect: TextDialect): string {
  const grouped =
    `(${matches(v, groupedDecimal(dialect))}` +
    ` AND (${matches(v, `.*[,.${SPACES}].*`)} OR TRY_CAST(${v} AS BIGINT) IS NOT NULL))`;
  return dialect.decimalComma ? grouped : `(${plainDecimal(v)} OR ${grouped})`;
}

/** The grouped or decimal-comma number as DuckDB reads it: group marks removed, a decimal point. */
function plainNumber(v: string, dialect: TextDialect): string {
  if (!dialect.decimalComma) return `replace(${v}, ',', '')`;
  return `replace(regexp_replace(${v}, '[.${SPACES}]', '', 'g'), ',', '.')`;
}

/**
 * How many cells are codes, which a numeric type would lose (an aggregate over cells `v`, each
 * standing for `weight` cells, that pass `gate`; 0 when none): integers with leading zeros
 * (`00501`), and integers written with a `+` (phone prefixes `+2`, `+33`) where every integer of
 * the column has one (`+7` beside `-3` is a signed number).
 */
export function codesCountSql(v: string, weight: string, gate: string): string {
  const sumIf = (pattern: string): string =>
    `sum(CASE WHEN ${gate} AND ${matches(v, pattern)} THEN ${weight} ELSE 0 END)`;
  const plus = sumIf('\\+[0-9]+');
  return `(${sumIf('[+-]?0[0-9]+')} + CASE WHEN ${plus} = ${sumIf('[+-]?[0-9]+')} THEN ${plus} ELSE 0 END)`;
}

/**
 * Every cell a numeric test or the code test passes has this shape (a sign, digits, points,
 * commas and group spaces, an exponent): one regular expression per cell instead of one per test.
 */
const NUMBER_SHAPE = `[+-]?[0-9.][0-9.,${SPACES}]*([eE][+-]?[0-9]+)?`;

/** The `number` gate of the numeric tests and the code test (see TextTest.gate). */
export const numberShape = (v: string): string => matches(v, NUMBER_SHAPE);

/** The character every cell of a date or datetime format holds: its first separator. */
function formatGate(format: string): TestGate {
  const separator = format.replace(/%[A-Za-z]/g, '')[0];
  return separator === undefined ? null : { contains: separator };
}

/**
 * Tried in order; leading zeros keep a column text (codes such as `00501` are not numbers).
 * Plain numbers first, then the dialect's grouped and decimal-comma forms.
 */
export function textTests(dialect: TextDialect): readonly TextTest[] {
  return [
    {
      type: 'boolean',
      test: (v) => `lower(${v}) IN ('true', 'false')`,
      convert: (v) => `lower(${v}) = 'true'`,
      gate: null,
    },
    {
      type: 'int',
      test: (v) => `${matches(v, INT)} AND TRY_CAST(${v} AS BIGINT) IS NOT NULL`,
      convert: (v) => `CAST(${v} AS BIGINT)`,
      gate: 'number',
    },
    {
      type: 'double',
      test: plainDecimal,
      convert: (v) => `CAST(${v} AS DOUBLE)`,
      gate: 'number',
    },
    {
      type: 'int',
      test: (v) =>
        `${matches(v, groupedInt(dialect))} AND TRY_CAST(${plainNumber(v, dialect)} AS BIGINT) IS NOT NULL`,
      convert: (v) => `CAST(${plainNumber(v, dialect)} AS BIGINT)`,
      gate: 'number',
    },
    {
      type: 'double',
      test: (v) => groupedDecimalTest(v, dialect),
      convert: (v) => `CAST(${plainNumber(v, dialect)} AS DOUBLE)`,
      gate: 'number',
    },
    ...DATE_FORMATS.map((format): TextTest => ({
      type: 'date',
      test: (v) => parsesAs(v, format),
      convert: (v) => `CAST(strptime(${v}, ${quoteString(format)}) AS DATE)`,
      format,
      gate: formatGate(format),
    })),
    {
      type: 'datetime',
      test: (v) => `${matches(v, ISO_DATETIME)} AND TRY_CAST(${v} AS TIMESTAMPTZ) IS NOT NULL`,
      convert: (v) => `CAST(${v} AS TIMESTAMPTZ)`,
      gate: { contains: '-' },
      // Without an offset or a Z, the text is a wall-clock time read in the session's zone (UTC):
      // the naive cast then reads the same instant, 0.15 s of CPU for 3M cells against 0.58 under
      // ICU (test/ingest/iso-datetime.test.ts holds the equivalence).
      cheaper: {
        shape: (v) => matches(v, ISO_NAIVE),
        convert: (v) => utcInstant(`CAST(${v} AS TIMESTAMP)`),
      },
    },
    ...DATETIME_FORMATS.map((format): TextTest => ({
      type: 'datetime',
      test: (v) => parsesAs(v, format),
      convert: (v) => utcInstant(`strptime(${v}, ${quoteString(format)})`),
      format,
      gate: formatGate(format),
    })),
  ];
}
