// date_format()'s patterns: an ODSQL date pattern read into free text and the symbols of
// explore-api.md, with its errors; each dialect writes the symbols (dialect/duckdb/date-format.ts).
import { QueryLangError } from '../errors.js';

/** explore-api.md's symbols of a date pattern. */
export const DATE_SYMBOLS = [
  'yy',
  'YY',
  'yyyy',
  'YYYY',
  'xx',
  'xxxx',
  'w',
  'ww',
  'e',
  'E',
  'EEEE',
  'D',
  'DDD',
  'M',
  'MM',
  'MMMM',
  'd',
  'dd',
  'H',
  'HH',
  'm',
  'mm',
  's',
  'ss',
] as const;

export type DateSymbol = (typeof DATE_SYMBOLS)[number];

const SYMBOL_SET: ReadonlySet<string> = new Set(DATE_SYMBOLS);

/** A piece of a pattern: free text, or a symbol. */
export type DatePiece = { readonly text: string } | { readonly symbol: DateSymbol };

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

/**
 * The pattern as pieces: free text in single quotes (`''` a quote), runs of one letter as symbols,
 * any other character as text. An unknown letter run or unterminated quoted text throws
 * QueryLangError.
 */
export function parseDateFormat(format: string): DatePiece[] {
  const pieces: DatePiece[] = [];
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
      const symbol = format.slice(i, next);
      if (!SYMBOL_SET.has(symbol)) throw new QueryLangError(`Unknown date format symbol: ${symbol}`);
      pieces.push({ symbol: symbol as DateSymbol });
    } else pieces.push({ text: char });
    i = next;
  }
  return pieces;
}
