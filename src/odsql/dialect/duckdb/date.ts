// DuckDB's spelling of the date functions: date parts on the request time zone's wall clock,
// now() and date_format(), over the builders of functions/date.ts.
import { compileDateFormat, compileDatePart, compileNow } from '../../functions/date.js';
import { DATE_PARTS, datelike, formatOf, namedValues } from '../../functions/temporal.js';
import type { FunctionSpelling } from '../dialect.js';

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
