// DuckDB's spelling of the date functions: date parts on the request time zone's wall clock,
// now() and date_format() (date-now.ts, date-format.ts); date literals as granules.
import { parseDateLiteral, type DateLikeType, type DateReading } from '../../functions/date.js';
import { DATE_PARTS, datelike, formatOf, namedValues, type DatePart } from '../../functions/temporal.js';
import type { FunctionSpelling } from '../dialect.js';
import { compileDateFormat } from './date-format.js';
import { compileNow } from './date-now.js';
import { quoteString } from '../../../sql/quoting.js';
import { instantOf, localTimestamp } from './wall-clock.js';

/**
 * BIGINT SQL of one component of a date or datetime, read on the request time zone's wall
 * clock for datetimes; hour, minute and second of a date are 0 (null stays null).
 */
export function compileDatePart(
  part: DatePart,
  sqlExpr: string,
  type: DateLikeType,
  timezone: string,
): string {
  const value = type === 'date' ? sqlExpr : localTimestamp(sqlExpr, timezone);
  return `${part}(${value})`;
}

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
  const literal = parseDateLiteral(text);
  const granule = dateLiteralSql(literal.reading, timezone);
  const target = fieldType ?? literal.type;
  if (target === literal.type) return granule;
  const convert = target === 'date' ? toDate : toInstant;
  return { start: convert(granule.start, timezone), end: convert(granule.end, timezone) };
}

/**
 * SQL of a date literal's granule [start, end) in the literal's own type: DATE for dates,
 * TIMESTAMPTZ for datetimes (naive ones local to `timezone`).
 */
export function dateLiteralSql(reading: DateReading, timezone: string): { start: string; end: string } {
  if (reading.kind === 'date') return { start: `DATE '${reading.start}'`, end: `DATE '${reading.end}'` };
  const start =
    reading.offset === null
      ? instantOf(`TIMESTAMP ${quoteString(reading.wall)}`, timezone)
      : `TIMESTAMPTZ '${reading.wall}${reading.offset}'`;
  return { start, end: `(${start} + to_microseconds(${reading.micros}))` };
}

/** A DATE as the instant of its local midnight in the request's time zone. */
const toInstant = (dateSql: string, timezone: string): string =>
  `timezone(${quoteString(timezone)}, CAST(${dateSql} AS TIMESTAMP))`;

/** An instant as the local date it falls on, rounded up so that `< end` keeps a partial day. */
const toDate = (instantSql: string, timezone: string): string =>
  `CAST(date_trunc('day', timezone(${quoteString(timezone)}, ${instantSql}) + INTERVAL '1 day' - INTERVAL '1 microsecond') AS DATE)`;
