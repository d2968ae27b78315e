// DuckDB's spelling of the date functions: date parts on the request time zone's wall clock,
// now() and date_format(), over the builders of functions/date.ts; date literals as granules.
import {
  compileDateFormat,
  compileDatePart,
  compileNow,
  parseDateLiteral,
  type DateLikeType,
} from '../../functions/date.js';
import { DATE_PARTS, datelike, formatOf, namedValues } from '../../functions/temporal.js';
import type { FunctionSpelling } from '../dialect.js';
import { quoteString } from './quoting.js';

export const DATES: ReadonlyMap<string, FunctionSpelling> = new Map<string, FunctionSpelling>([
  ...DATE_PARTS.map((part): [string, FunctionSpelling] => [
    part,
    ([x], ctx) => compileDatePart(part, x!.sql, datelike(x), ctx.timezone),
  ]),
  ['now', (args, ctx) => compileNow(namedValues(args), ctx.timezone)],
  [
    'date_format',
    ([x, format], ctx) => compileDateFormat(x!.sql, formatOf(format), datelike(x), ctx.lang, ctx.timezone),
  ],
]);

/**
 * SQL of a date literal's granule [start, end) as values comparable with a field of `fieldType`
 * (DATE for date fields, TIMESTAMPTZ for datetime fields); `null`: the literal's own type.
 */
export function dateGranule(
  text: string,
  fieldType: DateLikeType | null,
  timezone: string,
): { start: string; end: string } {
  const literal = parseDateLiteral(text, timezone);
  const target = fieldType ?? literal.type;
  if (target === literal.type) return { start: literal.sql, end: literal.endSql };
  const convert = target === 'date' ? toDate : toInstant;
  return { start: convert(literal.sql, timezone), end: convert(literal.endSql, timezone) };
}

/** A DATE as the instant of its local midnight in the request's time zone. */
const toInstant = (dateSql: string, timezone: string): string =>
  `timezone(${quoteString(timezone)}, CAST(${dateSql} AS TIMESTAMP))`;

/** An instant as the local date it falls on, rounded up so that `< end` keeps a partial day. */
const toDate = (instantSql: string, timezone: string): string =>
  `CAST(date_trunc('day', timezone(${quoteString(timezone)}, ${instantSql}) + INTERVAL '1 day' - INTERVAL '1 microsecond') AS DATE)`;
