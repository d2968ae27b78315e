// ClickHouse's spelling of range(): static bounds as labelled ranges, equal widths of numbers as
// the bucket's low bound, and calendar buckets of dates (a day, week, month, quarter or year on
// the request time zone's wall clock). Buckets of several days or below a day are refused: they
// count from DuckDB's time_bucket origin, which ClickHouse 18.16 has no equal of.
import type { Expr } from '../../ast.js';
import { QueryLangError } from '../../errors.js';
import { isCalendar, unitOf, type RangeUnit } from '../../functions/date-range.js';
import { rangeSpec } from '../../functions/grouping.js';
import { isDateLike } from '../../types.js';
import type { CompileContext, CompiledArg, GroupingSpelling, GroupSql } from '../dialect.js';
import { staticRangeGroups, type JoinTexts } from '../static-range.js';
import { quoteString } from '../../../sql/clickhouse-quoting.js';

/** Texts joined into one. */
const JOIN_TEXTS: JoinTexts = (sqls) => `concat(${sqls.join(', ')})`;
/** The first day of a date's calendar bucket. */
const BUCKET_START = {
  day: 'toDate',
  week: 'toMonday',
  month: 'toStartOfMonth',
  quarter: 'toStartOfQuarter',
  year: 'toStartOfYear',
} as const satisfies Partial<Record<RangeUnit, string>>;

/** A bucket of a date or instant: grouped on its local first day, output as that day (or its local midnight). */
function dateGroups(x: string, width: Expr, args: readonly CompiledArg[], ctx: CompileContext): GroupSql {
  const type = args[0]!.type === 'date' ? 'date' : 'datetime';
  const n = width.kind === 'quantity' ? width.value : 0;
  const unit = unitOf(n, width.kind === 'quantity' ? width.unit : '');
  if (!isCalendar(unit) && !(unit === 'day' && n === 1)) {
    throw new QueryLangError(
      `range() over dates by ${n}${width.kind === 'quantity' ? width.unit : ''} is not available on this dataset's engine (ClickHouse)`,
    );
  }
  const start = BUCKET_START[unit];
  const zone = quoteString(ctx.timezone);
  if (type === 'date')
    return { group: `${start}(${x})`, output: `${start}(${x})`, sort: `${start}(${x})`, filter: null, type };
  const day = `${start}(toTimeZone(${x}, ${zone}))`;
  const midnight = `toDateTime(concat(toString(${day}), ' 00:00:00'), ${zone})`;
  return { group: day, output: midnight, sort: day, filter: null, type };
}

/** Equal widths: rows grouped on the bucket's low bound, labelled `low-high` (`10`, not `10.0`). */
function widthGroups(x: string, width: Expr): GroupSql {
  const step = width.kind === 'number' ? String(width.value) : '1';
  const low = `(floor(toFloat64(${x}) / ${step}) * ${step})`;
  const label = `if(isNull(${low}), NULL, concat(toString(${low}), '-', toString(${low} + ${step})))`;
  return { group: low, output: label, sort: low, filter: null, type: 'text' };
}

export const range: GroupingSpelling = (args, ctx) => {
  const spec = rangeSpec(args);
  const x = args[0]!.sql;
  if (spec.kind === 'static') return staticRangeGroups(x, spec, args, ctx, JOIN_TEXTS);
  return isDateLike(args[0]!.type ?? 'null')
    ? dateGroups(x, spec.width, args, ctx)
    : widthGroups(x, spec.width);
};
