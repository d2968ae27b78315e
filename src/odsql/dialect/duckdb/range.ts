// DuckDB's spelling of range(): static bounds as a CASE of labelled ranges, equal widths as the
// bucket's low bound (numbers, labelled as range-labels.ts says) or a calendar bucket (dates,
// date-range.ts).
import type { Expr } from '../../ast.js';
import { compileDateRangeWidth } from './date-buckets.js';
import { rangeSpec } from '../../functions/grouping.js';
import { isDateLike } from '../../types.js';
import type { CompileContext, CompiledArg, GroupingSpelling, GroupSql } from '../dialect.js';
import { inclusiveBounds, widthLabel, type LabelSpelling } from '../range-labels.js';
import { staticRangeGroups } from '../static-range.js';
import { quoteString } from '../../../sql/quoting.js';

/** DuckDB's texts of a label: `10`, not `10.0`. */
const LABELS: LabelSpelling = {
  join: (sqls) => sqls.join(' || '),
  numberText: (sql) => `regexp_replace(CAST(${sql} AS VARCHAR), '\\.0$', '')`,
  integerText: (sql) => `CAST(CAST(${sql} AS BIGINT) AS VARCHAR)`,
  quoteString,
};

function widthGroups(x: string, width: Expr, args: readonly CompiledArg[], ctx: CompileContext): GroupSql {
  const type = args[0]!.type ?? 'null';
  if (width.kind === 'quantity' && isDateLike(type)) {
    const bucket = compileDateRangeWidth(x, width.value, width.unit, type, ctx.timezone);
    return { group: bucket.group, output: bucket.output, sort: bucket.group, filter: null, type };
  }
  // Rows are grouped on the bucket's low bound; its text label is made once per group.
  const step = width.kind === 'number' ? width.value : 1;
  const low = `(floor(CAST(${x} AS DOUBLE) / ${step}) * ${step})`;
  const inclusive = inclusiveBounds(type, [width]);
  const label = `CASE WHEN ${low} IS NULL THEN NULL ELSE ${widthLabel(low, step, inclusive, LABELS)} END`;
  return { group: low, output: label, sort: low, filter: null, type: 'text' };
}

/** range(x, ...): one spelling for both forms. */
export const range: GroupingSpelling = (args, ctx) => {
  const spec = rangeSpec(args);
  const x = args[0]!.sql;
  return spec.kind === 'width'
    ? widthGroups(x, spec.width, args, ctx)
    : staticRangeGroups(x, spec, args, ctx, LABELS.join);
};
