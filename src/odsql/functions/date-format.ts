// date_format(): an ODSQL date pattern -> concatenated strftime pieces and localized names, on the request's wall clock.
import { quoteString } from '../dialect/duckdb/quoting.js';
import { QueryLangError } from '../errors.js';
import type { DateLikeType } from '../types.js';
import { DATE_NAMES, type DateNames, type Lang } from './date-names.js';
import { localTimestamp } from './date-sql.js';

/** A symbol is either a strftime directive or SQL over the local value (`v`) and the language's names. */
type FormatSymbol = { strftime: string } | { sql: (v: string, names: DateNames) => string };

const nameOf = (list: readonly string[], index: string): string =>
  `list_extract([${list.map(quoteString).join(', ')}], ${index})`;

/** explore-api.md's symbols. DuckDB's strftime has no two-digit week-year nor unpadded week. */
const SYMBOLS: Readonly<Record<string, FormatSymbol>> = {
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
};

/** A piece of the output: free text, a strftime directive, or SQL of its own. */
type Piece = { text: string } | { strftime: string } | { sql: string };

/** Quoted free text starting at `start` (on the opening quote): its text and the index after it. */
function quoted(format: string, start: number): { text: string; next: number } {
  let text = '';
  let i = start + 1;
  while (i < format.length) {
    if (format[i] !== "'") text += format[i++];
    else if (format[i + 1] !== "'") return { text, next: i + 1 };
    else {
      text += "'";
      i += 2;
    }
  }
  throw new QueryLangError(`Unterminated quoted text in date format: ${format}`);
}

/** The pattern as pieces: quoted text, runs of one letter looked up in SYMBOLS, any other character as text. */
function piecesOf(format: string, value: string, names: DateNames): Piece[] {
  const pieces: Piece[] = [];
  let i = 0;
  while (i < format.length) {
    const char = format[i]!;
    let next = i + 1;
    if (char === "'" && format[next] === "'") {
      pieces.push({ text: "'" });
      next++;
    } else if (char === "'") {
      const free = quoted(format, i);
      pieces.push({ text: free.text });
      next = free.next;
    } else if (/[A-Za-z]/.test(char)) {
      while (format[next] === char) next++;
      const symbol = SYMBOLS[format.slice(i, next)];
      if (symbol === undefined)
        throw new QueryLangError(`Unknown date format symbol: ${format.slice(i, next)}`);
      pieces.push('sql' in symbol ? { sql: symbol.sql(value, names) } : symbol);
    } else pieces.push({ text: char });
    i = next;
  }
  return pieces;
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
  const pieces = piecesOf(format, value, DATE_NAMES[lang]);
  const terms = termsOf(pieces, value);
  const text = terms.length ? terms.join(' || ') : "''";
  // Without any symbol the text does not depend on the value: keep null for null all the same.
  const constant = pieces.every((piece) => 'text' in piece);
  return constant ? `CASE WHEN ${sqlExpr} IS NULL THEN NULL ELSE ${text} END` : `(${text})`;
}
