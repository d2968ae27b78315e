// date_format() in DuckDB's SQL: a pattern's terms (dialect/date-format.ts) as concatenated
// strftime calls, where strftime has the piece, and SQL of its own for the rest (names, padding
// past strftime's), on the request's wall clock.
import { DATE_NAMES, type Lang } from '../../functions/date-names.js';
import { parseDateFormat, type DatePiece } from '../../functions/date-format.js';
import type { DateLikeType } from '../../types.js';
import { quoteString } from '../../../sql/quoting.js';
import { formatTerms, type DateFormatSpelling, type FormatTerm, type WallPart } from '../date-format.js';
import { localTimestamp } from './wall-clock.js';

/** DuckDB's functions of each wall-clock number. */
const PARTS = {
  year: 'year',
  month: 'month',
  day: 'day',
  hour: 'hour',
  minute: 'minute',
  second: 'second',
  millisecond: 'millisecond',
  dayOfYear: 'dayofyear',
  isoWeek: 'week',
  isoYear: 'isoyear',
  isoDayOfWeek: 'isodow',
} as const satisfies Record<WallPart, string>;

/** strftime's directives by piece: unpadded (one letter), and padded to their width. */
const DIRECTIVES: Readonly<Record<string, Readonly<Record<number, string>>>> = {
  year: { 1: '%Y', 3: '%Y', 4: '%Y' },
  weekyear: { 1: '%G', 3: '%G', 4: '%G' },
  month: { 1: '%-m', 2: '%m' },
  day: { 1: '%-d', 2: '%d' },
  hour: { 1: '%-H', 2: '%H' },
  clockhourOfHalfday: { 1: '%-I', 2: '%I' },
  minute: { 1: '%-M', 2: '%M' },
  second: { 1: '%-S', 2: '%S' },
  dayOfYear: { 1: '%-j', 3: '%j' },
  week: { 2: '%V' },
  dayOfWeek: { 1: '%u' },
};

const SPELLING: DateFormatSpelling = {
  part: (part, v) => `${PARTS[part]}(${v})${part === 'millisecond' ? ' % 1000' : ''}`,
  padded: (sql, digits) => (digits <= 1 ? `CAST(${sql} AS VARCHAR)` : `printf('%0${digits}d', ${sql})`),
  pick: (texts, index) => `list_extract([${texts.map(quoteString).join(', ')}], ${index})`,
  intDiv: (sql, by) => `(${sql} // ${by})`,
  offsetSeconds: (x, v, type, timezone) => {
    const wall = type === 'date' ? `CAST(${x} AS TIMESTAMP)` : v;
    const instant = type === 'date' ? `timezone(${quoteString(timezone)}, ${wall})` : x;
    return `CAST(epoch(${wall}) - epoch(${instant}) AS BIGINT)`;
  },
  directive: (piece: DatePiece) => {
    if ('twoDigits' in piece) return piece.twoDigits === 'year' ? '%y' : null;
    return 'number' in piece ? (DIRECTIVES[piece.number]?.[piece.digits] ?? null) : null;
  },
};

/** The lambda parameter holding the value and its wall clock. */
const LAMBDA = 'date_format_value';

/** SQL terms to concatenate: consecutive text and directives share one strftime call. */
function sqlTerms(terms: readonly FormatTerm[], value: string): string[] {
  const sqls: string[] = [];
  let pattern = '';
  let text = '';
  let hasDirective = false;
  const flush = (): void => {
    if (pattern) sqls.push(hasDirective ? `strftime(${value}, ${quoteString(pattern)})` : quoteString(text));
    pattern = text = '';
    hasDirective = false;
  };
  for (const term of terms) {
    if ('sql' in term) {
      flush();
      sqls.push(term.sql);
    } else if ('text' in term) {
      pattern += term.text.replaceAll('%', '%%');
      text += term.text;
    } else {
      pattern += term.directive;
      hasDirective = true;
    }
  }
  flush();
  return sqls;
}

/**
 * VARCHAR SQL of a date or datetime formatted with an ODSQL date_format pattern (the letters of
 * functions/date-format.ts, free text in single quotes, `''` a quote, any other non-letter
 * verbatim). Datetimes are read on the wall clock of `timezone`; names are in `lang`. An unknown
 * letter run throws QueryLangError. A null value gives null.
 */
export function compileDateFormat(
  sqlExpr: string,
  format: string,
  type: DateLikeType,
  lang: Lang,
  timezone: string,
): string {
  const pieces = parseDateFormat(format);
  const value = type === 'date' ? sqlExpr : localTimestamp(sqlExpr, timezone);
  const names = DATE_NAMES[lang];
  const terms = formatTerms(pieces, { x: sqlExpr, v: value, type, names, timezone }, SPELLING);
  const sqls = sqlTerms(terms, value);
  // Without any symbol the text does not depend on the value: keep null for null all the same.
  if (terms.every((term) => 'text' in term)) {
    return `CASE WHEN ${sqlExpr} IS NULL THEN NULL ELSE ${sqls.length ? sqls.join(' || ') : "''"} END`;
  }
  if (sqls.filter((sql) => !sql.startsWith("'")).length <= 1) return `(${sqls.join(' || ')})`;
  // The value is read by several terms: once, into a lambda's parameter, rather than its SQL
  // (a time zone's wall clock is kilobytes) written again in each.
  const subject = { x: `${LAMBDA}.x`, v: `${LAMBDA}.v`, type, names, timezone };
  const body = sqlTerms(formatTerms(pieces, subject, SPELLING), subject.v).join(' || ');
  return `list_transform([{'x': ${sqlExpr}, 'v': ${value}}], lambda ${LAMBDA}: ${body})[1]`;
}
