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
import { inclusiveBounds, widthLabel, type LabelSpelling } from '../range-labels.js';
import { staticRangeGroups } from '../static-range.js';
import { quoteString } from '../../../sql/clickhouse-quoting.js';

/** ClickHouse's texts of a label: toString() writes a whole Float64 as `10`. */
const LABELS: LabelSpelling = {
  join: (sqls) => `concat(${sqls.join(', ')})`,
  numberText: (sql) => `toString(${sql})`,
  integerText: (sql) => `toString(toInt64(${sql}))`,
  quoteString,
};
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

/** Equal widths: rows grouped on the bucket's low bound, labelled as range-labels.ts says. */
function widthGroups(x: string, width: Expr, args: readonly CompiledArg[]): GroupSql {
  const step = width.kind === 'number' ? width.value : 1;
  const low = `(floor(toFloat64(${x}) / ${step}) * ${step})`;
  const inclusive = inclusiveBounds(args[0]!.type ?? null, [width]);
  const label = `if(isNull(${low}), NULL, ${widthLabel(low, step, inclusive, LABELS)})`;
  return { group: low, output: label, sort: low, filter: null, type: 'text' };
}

export const range: GroupingSpelling = (args, ctx) => {
  const spec = rangeSpec(args);
  const x = args[0]!.sql;
  if (spec.kind === 'static') return staticRangeGroups(x, spec, args, ctx, LABELS.join);
  return isDateLike(args[0]!.type ?? 'null')
    ? dateGroups(x, spec.width, args, ctx)
    : widthGroups(x, spec.width, args);
};
