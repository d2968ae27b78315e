// date_format()'s patterns: an ODSQL date pattern read into free text and pieces of the date, with
// its errors. The pattern letters are those of the service's format reference (Joda-Time's, which
// explore-api.md's symbols are a part of): a run of one letter is one piece, its length the
// number's least digits or the name's form. Each dialect writes the pieces (dialect/date-format.ts).
import { QueryLangError } from '../errors.js';
import { MAX_DATE_FORMAT_PIECES, MAX_DATE_SYMBOL_LETTERS } from '../limits.js';

/** Numbers of a date on its wall clock, each written with at least some digits. */
export type DateNumber =
  | 'year'
  | 'century'
  | 'weekyear'
  | 'week'
  | 'dayOfWeek'
  | 'dayOfYear'
  | 'month'
  | 'day'
  | 'hour'
  | 'hourOfHalfday'
  | 'clockhourOfHalfday'
  | 'clockhourOfDay'
  | 'minute'
  | 'second';

/** Names of a date in the request's language. */
export type DateName = 'era' | 'halfday' | 'month' | 'monthShort' | 'weekday' | 'weekdayShort';

/** A piece of a pattern. */
export type DatePiece =
  | { readonly text: string }
  | { readonly number: DateNumber; readonly digits: number }
  /** `yy`, `xx`: the last two digits of the year or week-year. */
  | { readonly twoDigits: 'year' | 'weekyear' }
  | { readonly name: DateName }
  /** `S...`: the fraction of the second, as many digits as letters (milliseconds, then zeros). */
  | { readonly fraction: number }
  /** `Z` +0100, `ZZ` +01:00, `ZZZ` the time zone's id. */
  | { readonly zone: 'offset' | 'colon' | 'id' };

/** The number each numeric letter writes. */
const NUMBERS: Readonly<Record<string, DateNumber>> = {
  C: 'century',
  w: 'week',
  e: 'dayOfWeek',
  D: 'dayOfYear',
  d: 'day',
  H: 'hour',
  K: 'hourOfHalfday',
  h: 'clockhourOfHalfday',
  k: 'clockhourOfDay',
  m: 'minute',
  s: 'second',
};

/** The piece of a run of `count` times the letter `letter`, or null for a letter with no meaning. */
function pieceOf(letter: string, count: number): DatePiece | null {
  const number = NUMBERS[letter];
  if (number) return { number, digits: count };
  switch (letter) {
    case 'y':
    case 'Y':
    case 'x': {
      const year = letter === 'x' ? 'weekyear' : 'year';
      return count === 2 ? { twoDigits: year } : { number: year, digits: count };
    }
    case 'M':
      if (count >= 3) return { name: count === 3 ? 'monthShort' : 'month' };
      return { number: 'month', digits: count };
    case 'E':
      return { name: count >= 4 ? 'weekday' : 'weekdayShort' };
    case 'G':
      return { name: 'era' };
    case 'a':
      return { name: 'halfday' };
    case 'S':
      return { fraction: count };
    case 'Z':
      return { zone: count === 1 ? 'offset' : count === 2 ? 'colon' : 'id' };
    default:
      return null;
  }
}

/** The piece of one letter run, or the QueryLangError naming what is wrong with it. */
function letterPiece(run: string): DatePiece {
  const letter = run[0]!;
  if (letter === 'z') {
    throw new QueryLangError(
      `Date format symbol ${run} (a time zone name) is not supported: use Z, ZZ or ZZZ`,
    );
  }
  const piece = pieceOf(letter, run.length);
  if (!piece) throw new QueryLangError(`Unknown date format symbol: ${run}`);
  if (run.length > MAX_DATE_SYMBOL_LETTERS) {
    throw new QueryLangError(
      `Date format symbol ${letter} repeated ${run.length} times: at most ${MAX_DATE_SYMBOL_LETTERS}`,
    );
  }
  return piece;
}

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

/** Appends a piece, text beside text made one. */
function push(pieces: DatePiece[], piece: DatePiece): void {
  const last = pieces[pieces.length - 1];
  if (last && 'text' in last && 'text' in piece) pieces[pieces.length - 1] = { text: last.text + piece.text };
  else pieces.push(piece);
}

/**
 * The pattern as pieces: free text in single quotes (`''` a quote), runs of one letter as pieces,
 * any other character as text. An unknown letter, a run longer than MAX_DATE_SYMBOL_LETTERS,
 * more than MAX_DATE_FORMAT_PIECES pieces or unterminated quoted text throws QueryLangError.
 */
export function parseDateFormat(format: string): DatePiece[] {
  const pieces: DatePiece[] = [];
  let i = 0;
  while (i < format.length) {
    const char = format[i]!;
    let next = i + 1;
    if (char === "'" && format[next] === "'") {
      push(pieces, { text: "'" });
      next++;
    } else if (char === "'") {
      const free = quoted(format, i);
      push(pieces, { text: free.text });
      next = free.next;
    } else if (/[A-Za-z]/.test(char)) {
      while (format[next] === char) next++;
      push(pieces, letterPiece(format.slice(i, next)));
    } else push(pieces, { text: char });
    if (pieces.length > MAX_DATE_FORMAT_PIECES) {
      throw new QueryLangError(`A date format has at most ${MAX_DATE_FORMAT_PIECES} symbols`);
    }
    i = next;
  }
  return pieces;
}
