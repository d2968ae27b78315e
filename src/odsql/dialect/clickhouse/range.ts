// ClickHouse's spelling of range(): static bounds as labelled ranges, equal widths of numbers as
// the bucket's low bound, and calendar buckets of dates (a day, week, month, quarter or year on
// the request time zone's wall clock). Buckets of several days or below a day are refused: they
// count from DuckDB's time_bucket origin, which ClickHouse 18.16 has no equal of.
import type { Expr } from '../../ast.js';
import { QueryLangError } from '../../errors.js';
import { isCalendar, unitOf, type RangeUnit } from '../../functions/date-range.js';
import { rangeSpec, type RangeSpec } from '../../functions/grouping.js';
import { isDateLike } from '../../types.js';
import type { CompileContext, CompiledArg, GroupingSpelling, GroupSql } from '../dialect.js';
import { quoteString } from './quoting.js';

type KeyPart = string | { readonly sql: string };

/** Concatenates literal texts and SQL texts into one SQL text expression (concat() wants two or more). */
function concat(parts: readonly KeyPart[]): string {
  const merged: KeyPart[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if (typeof part === 'string' && typeof last === 'string') merged[merged.length - 1] = last + part;
    else merged.push(part);
  }
  const sql = merged.map((p) => (typeof p === 'string' ? quoteString(p) : p.sql));
  return sql.length === 1 ? sql[0]! : `concat(${sql.join(', ')})`;
}

function staticGroups(
  x: string,
  spec: Extract<RangeSpec, { kind: 'static' }>,
  args: readonly CompiledArg[],
  ctx: CompileContext,
): GroupSql {
  const type = args[0]!.type === 'date' ? 'date' : 'datetime';
  const value = (b: Expr): string =>
    b.kind === 'date'
      ? ctx.dialect.dateGranule(b.text, type, ctx.timezone).start
      : b.kind === 'number'
        ? `(${String(b.value)})`
        : 'NULL';
  const label = (b: Expr): KeyPart =>
    b.kind === 'number' ? String(b.value) : { sql: ctx.dialect.present[type](value(b), ctx) };
  const bounds = spec.bounds;
  const first = bounds[0]!;
  const last = bounds[bounds.length - 1]!;
  const branches: string[] = [];
  if (spec.openLow) branches.push(`WHEN ${x} < ${value(first)} THEN ${concat(['*-', label(first)])}`);
  bounds.slice(1).forEach((high, i) => {
    const low = bounds[i]!;
    const test = `${x} >= ${value(low)} AND ${x} < ${value(high)}`;
    branches.push(`WHEN ${test} THEN ${concat([label(low), '-', label(high)])}`);
  });
  if (spec.openHigh) branches.push(`WHEN ${x} >= ${value(last)} THEN ${concat([label(last), '-*'])}`);
  const inside = [
    spec.openLow ? null : `${x} >= ${value(first)}`,
    spec.openHigh ? null : `${x} < ${value(last)}`,
  ].filter((c) => c !== null);
  const key = `CASE ${branches.join(' ')} END`;
  return {
    group: key,
    output: key,
    sort: `min(${x})`,
    filter: inside.length ? `(${x} IS NULL OR (${inside.join(' AND ')}))` : null,
    type: 'text',
  };
}

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
  const label = `if(isNull(${low}), NULL, ${concat([{ sql: `toString(${low})` }, '-', { sql: `toString(${low} + ${step})` }])})`;
  return { group: low, output: label, sort: low, filter: null, type: 'text' };
}

export const range: GroupingSpelling = (args, ctx) => {
  const spec = rangeSpec(args);
  const x = args[0]!.sql;
  if (spec.kind === 'static') return staticGroups(x, spec, args, ctx);
  return isDateLike(args[0]!.type ?? 'null')
    ? dateGroups(x, spec.width, args, ctx)
    : widthGroups(x, spec.width);
};
