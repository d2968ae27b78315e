// date_format() in DuckDB's SQL: a pattern's pieces (functions/date-format.ts) as concatenated
// strftime pieces and localized names, on the request's wall clock.
import { DATE_NAMES, type DateNames, type Lang } from '../../functions/date-names.js';
import { parseDateFormat, type DatePiece, type DateSymbol } from '../../functions/date-format.js';
import type { DateLikeType } from '../../types.js';
import { quoteString } from '../../../sql/quoting.js';
import { localTimestamp } from './wall-clock.js';

/** A symbol is either a strftime directive or SQL over the local value (`v`) and the language's names. */
type FormatSymbol = { strftime: string } | { sql: (v: string, names: DateNames) => string };

const nameOf = (list: readonly string[], index: string): string =>
  `list_extract([${list.map(quoteString).join(', ')}], ${index})`;

/** The symbols of explore-api.md. DuckDB's strftime has no two-digit week-year nor unpadded week. */
const SYMBOLS = {
  yy: { strftime: '%y' },
  YY: { strftime: '%y' },
  yyyy: { strftime: '%Y' },
  YYYY: { strftime: '%Y' },
  xx: { sql: (v) => `right(strftime(${v}, '%G'), 2)` },
  xxxx: { strftime: '%G' },
  w: { sql: (v) => `CAST(week(${v}) AS VARCHAR)` },
  ww: { strftime: '%V' },
  e: { strftime: '%u' },
  E: { sql: (v, names) => nameOf(names.weekdaysShort, `isodow(${v})`) },
  EEEE: { sql: (v, names) => nameOf(names.weekdays, `isodow(${v})`) },
  D: { strftime: '%-j' },
  DDD: { strftime: '%j' },
  M: { strftime: '%-m' },
  MM: { strftime: '%m' },
  MMMM: { sql: (v, names) => nameOf(names.months, `month(${v})`) },
  d: { strftime: '%-d' },
  dd: { strftime: '%d' },
  H: { strftime: '%-H' },
  HH: { strftime: '%H' },
  m: { strftime: '%-M' },
  mm: { strftime: '%M' },
  s: { strftime: '%-S' },
  ss: { strftime: '%S' },
} as const satisfies Record<DateSymbol, FormatSymbol>;

/** A piece of the output: free text, a strftime directive, or SQL of its own. */
type Piece = { text: string } | { strftime: string } | { sql: string };

/** The pattern's pieces with each symbol spelled over the local value `value`. */
function spelled(pieces: readonly DatePiece[], value: string, names: DateNames): Piece[] {
  return pieces.map((piece) => {
    if ('text' in piece) return piece;
    const symbol: FormatSymbol = SYMBOLS[piece.symbol];
    return 'sql' in symbol ? { sql: symbol.sql(value, names) } : symbol;
  });
}

/** SQL terms to concatenate: consecutive text and directives share one strftime call. */
function termsOf(pieces: readonly Piece[], value: string): string[] {
  const terms: string[] = [];
  let pattern = '';
  let text = '';
  let hasDirective = false;
  const flush = (): void => {
    if (pattern) terms.push(hasDirective ? `strftime(${value}, ${quoteString(pattern)})` : quoteString(text));
    pattern = text = '';
    hasDirective = false;
  };
  for (const piece of pieces) {
    if ('sql' in piece) {
      flush();
      terms.push(piece.sql);
    } else if ('text' in piece) {
      pattern += piece.text.replaceAll('%', '%%');
      text += piece.text;
    } else {
      pattern += piece.strftime;
      hasDirective = true;
    }
  }
  flush();
  return terms;
}

/**
 * VARCHAR SQL of a date or datetime formatted with an ODSQL date_format pattern: symbols of
 * explore-api.md, free text in single quotes (`''` a quote), any other non-letter verbatim.
 * Datetimes are read on the wall clock of `timezone`; names are in `lang`. An unknown letter
 * run throws QueryLangError. A null value gives null.
 */
export function compileDateFormat(
  sqlExpr: string,
  format: string,
  type: DateLikeType,
  lang: Lang,
  timezone: string,
): string {
  const value = type === 'date' ? sqlExpr : localTimestamp(sqlExpr, timezone);
  const pieces = spelled(parseDateFormat(format), value, DATE_NAMES[lang]);
  const terms = termsOf(pieces, value);
  const text = terms.length ? terms.join(' || ') : "''";
  // Without any symbol the text does not depend on the value: keep null for null all the same.
  const constant = pieces.every((piece) => 'text' in piece);
  return constant ? `CASE WHEN ${sqlExpr} IS NULL THEN NULL ELSE ${text} END` : `(${text})`;
}
