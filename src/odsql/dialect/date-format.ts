// date_format() for every dialect: a pattern's pieces (functions/date-format.ts) as terms over a
// date's wall clock, which a dialect joins into one text. A dialect gives how it reads the clock's
// numbers, pads a number, picks a name from a list and tells an instant's offset, and may write a
// piece as a directive of its own formatting function (DuckDB's strftime).
import type { DateNames } from '../functions/date-names.js';
import type { DateName, DateNumber, DatePiece } from '../functions/date-format.js';
import type { DateLikeType } from '../types.js';

/** The wall-clock numbers a dialect reads; weeks and week-years are ISO's, Monday is day 1. */
export type WallPart =
  | 'year'
  | 'month'
  | 'day'
  | 'hour'
  | 'minute'
  | 'second'
  | 'millisecond'
  | 'dayOfYear'
  | 'isoWeek'
  | 'isoYear'
  | 'isoDayOfWeek';

/** How a dialect writes what date_format() needs. */
export interface DateFormatSpelling {
  /** Integer SQL of a wall-clock number of the local value `v` (null for null). */
  readonly part: (part: WallPart, v: string, type: DateLikeType) => string;
  /** Text SQL of a non-negative integer SQL with at least `digits` digits, zero padded. */
  readonly padded: (sql: string, digits: number) => string;
  /** The text at the 1-based `index` SQL of a constant list. */
  readonly pick: (texts: readonly string[], index: string) => string;
  /** Integer SQL of an integer SQL divided by a positive integer, rounded down. */
  readonly intDiv: (sql: string, by: number) => string;
  /**
   * Integer SQL of the seconds east of UTC of the value `x` (`v` on its wall clock) in
   * `timezone`; a date's is its local midnight's.
   */
  readonly offsetSeconds: (x: string, v: string, type: DateLikeType, timezone: string) => string;
  /** The directive of the dialect's own formatting function writing `piece`, if it has one. */
  readonly directive: (piece: DatePiece) => string | null;
}

/** A term of the output: free text, a directive of the dialect's formatting function, or SQL. */
export type FormatTerm =
  { readonly text: string } | { readonly directive: string } | { readonly sql: string };

/** What the terms are written over: the value `x`, its local wall clock `v`, names and zone. */
export interface FormatSubject {
  readonly x: string;
  readonly v: string;
  readonly type: DateLikeType;
  readonly names: DateNames;
  readonly timezone: string;
}

/** Integer SQL of a number of the pattern. */
function numberSql(number: DateNumber, s: FormatSubject, spelling: DateFormatSpelling): string {
  const part = (p: WallPart) => spelling.part(p, s.v, s.type);
  switch (number) {
    case 'century':
      return spelling.intDiv(part('year'), 100);
    case 'weekyear':
      return part('isoYear');
    case 'week':
      return part('isoWeek');
    case 'dayOfWeek':
      return part('isoDayOfWeek');
    case 'hourOfHalfday':
      return `(${part('hour')} % 12)`;
    case 'clockhourOfHalfday':
      return `((${part('hour')} + 11) % 12 + 1)`;
    case 'clockhourOfDay':
      return `((${part('hour')} + 23) % 24 + 1)`;
    default:
      return part(number);
  }
}

/** Text SQL of a name of the pattern, in the subject's language. */
function nameSql(name: DateName, s: FormatSubject, spelling: DateFormatSpelling): string {
  const part = (p: WallPart) => spelling.part(p, s.v, s.type);
  const { names } = s;
  switch (name) {
    case 'month':
      return spelling.pick(names.months, part('month'));
    case 'monthShort':
      return spelling.pick(names.monthsShort, part('month'));
    case 'weekday':
      return spelling.pick(names.weekdays, part('isoDayOfWeek'));
    case 'weekdayShort':
      return spelling.pick(names.weekdaysShort, part('isoDayOfWeek'));
    case 'halfday':
      return spelling.pick(names.halfdays, `(${spelling.intDiv(part('hour'), 12)} + 1)`);
    case 'era':
      return spelling.pick(names.eras, `CASE WHEN ${part('year')} > 0 THEN 2 ELSE 1 END`);
  }
}

/** The `+01:00` (or `+0100`) text SQL of the value's offset from UTC. */
function offsetSql(colon: boolean, s: FormatSubject, spelling: DateFormatSpelling): string[] {
  const seconds = spelling.offsetSeconds(s.x, s.v, s.type, s.timezone);
  const abs = `abs(${seconds})`;
  const hours = spelling.padded(spelling.intDiv(abs, 3600), 2);
  const minutes = spelling.padded(spelling.intDiv(`(${abs} % 3600)`, 60), 2);
  const sign = `CASE WHEN ${seconds} < 0 THEN '-' ELSE '+' END`;
  return colon ? [sign, hours, "':'", minutes] : [sign, hours, minutes];
}

/** The terms of one piece. */
function pieceTerms(piece: DatePiece, s: FormatSubject, spelling: DateFormatSpelling): FormatTerm[] {
  if ('text' in piece) return [piece];
  const directive = spelling.directive(piece);
  if (directive !== null) return [{ directive }];
  if ('number' in piece)
    return [{ sql: spelling.padded(numberSql(piece.number, s, spelling), piece.digits) }];
  if ('twoDigits' in piece) {
    const year = spelling.part(piece.twoDigits === 'year' ? 'year' : 'isoYear', s.v, s.type);
    return [{ sql: spelling.padded(`(${year} % 100)`, 2) }];
  }
  if ('name' in piece) return [{ sql: nameSql(piece.name, s, spelling) }];
  if ('fraction' in piece) {
    const millis = spelling.padded(spelling.part('millisecond', s.v, s.type), 3);
    if (piece.fraction >= 3) return [{ sql: millis }, { text: '0'.repeat(piece.fraction - 3) }];
    return [{ sql: `substring(${millis}, 1, ${piece.fraction})` }];
  }
  if (piece.zone === 'id') return [{ text: s.timezone }];
  return offsetSql(piece.zone === 'colon', s, spelling).map((sql) => ({ sql }));
}

/** The terms of a pattern's pieces, in order; empty texts left out. */
export function formatTerms(
  pieces: readonly DatePiece[],
  subject: FormatSubject,
  spelling: DateFormatSpelling,
): FormatTerm[] {
  return pieces
    .flatMap((piece) => pieceTerms(piece, subject, spelling))
    .filter((term) => !('text' in term) || term.text !== '');
}
