// DuckDB's spelling of range(): static bounds as a CASE of labelled ranges, equal widths as the
// bucket's low bound (numbers) or a calendar bucket (dates, date-range.ts).
import type { Expr } from '../../ast.js';
import { compileDateRangeWidth } from './date-buckets.js';
import { rangeSpec } from '../../functions/grouping.js';
import { isDateLike } from '../../types.js';
import type { CompileContext, CompiledArg, GroupingSpelling, GroupSql } from '../dialect.js';
import { staticRangeGroups, type JoinTexts } from '../static-range.js';

/** Texts joined into one. */
const JOIN_TEXTS: JoinTexts = (sqls) => sqls.join(' || ');

/** A number as text in a group key: `10`, not `10.0`. */
const numberLabel = (sql: string): string => `regexp_replace(CAST(${sql} AS VARCHAR), '\\.0$', '')`;

function widthGroups(x: string, width: Expr, args: readonly CompiledArg[], ctx: CompileContext): GroupSql {
  const type = args[0]!.type ?? 'null';
  if (width.kind === 'quantity' && isDateLike(type)) {
    const bucket = compileDateRangeWidth(x, width.value, width.unit, type, ctx.timezone);
    return { group: bucket.group, output: bucket.output, sort: bucket.group, filter: null, type };
  }
  // Rows are grouped on the bucket's low bound; its text label is made once per group.
  const step = width.kind === 'number' ? String(width.value) : '1';
  const low = `(floor(CAST(${x} AS DOUBLE) / ${step}) * ${step})`;
  const label = `CASE WHEN ${low} IS NULL THEN NULL ELSE ${numberLabel(low)} || '-' || ${numberLabel(`${low} + ${step}`)} END`;
  return { group: low, output: label, sort: low, filter: null, type: 'text' };
}

/** range(x, ...): one spelling for both forms. */
export const range: GroupingSpelling = (args, ctx) => {
  const spec = rangeSpec(args);
  const x = args[0]!.sql;
  return spec.kind === 'width'
    ? widthGroups(x, spec.width, args, ctx)
    : staticRangeGroups(x, spec, args, ctx, JOIN_TEXTS);
};
