// DuckDB's spelling of range(): static bounds as a CASE of labelled ranges, equal widths as the
// bucket's low bound (numbers) or a calendar bucket (dates, date-range.ts).
import type { Expr } from '../../ast.js';
import { compileDateRangeWidth, presentDate, presentDatetime } from '../../functions/date.js';
import { rangeSpec, type RangeSpec } from '../../functions/grouping.js';
import { isDateLike } from '../../types.js';
import type { CompileContext, CompiledArg, GroupingSpelling, GroupSql } from '../dialect.js';
import { dateGranule } from './date.js';
import { quoteString } from './quoting.js';

/** A number as text in a group key: `10`, not `10.0`. */
const numberLabel = (sql: string): string => `regexp_replace(CAST(${sql} AS VARCHAR), '\\.0$', '')`;

/** Part of a group key: literal text, or SQL computing text. */
type KeyPart = string | { readonly sql: string };

/** Concatenates key parts into one SQL text expression, folding adjacent literal texts. */
function keySql(parts: readonly KeyPart[]): string {
  const merged: KeyPart[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if (typeof part === 'string' && typeof last === 'string') merged[merged.length - 1] = last + part;
    else merged.push(part);
  }
  return merged.map((p) => (typeof p === 'string' ? quoteString(p) : p.sql)).join(' || ');
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
      ? dateGranule(b.text, type, ctx.timezone).start
      : b.kind === 'number'
        ? `(${String(b.value)})`
        : 'NULL';
  const label = (b: Expr): KeyPart =>
    b.kind === 'number'
      ? String(b.value)
      : { sql: type === 'date' ? presentDate(value(b)) : presentDatetime(value(b), ctx.timezone) };
  const bounds = spec.bounds;
  const first = bounds[0]!;
  const last = bounds[bounds.length - 1]!;
  const branches: string[] = [];
  if (spec.openLow) branches.push(`WHEN ${x} < ${value(first)} THEN ${keySql(['*-', label(first)])}`);
  bounds.slice(1).forEach((high, i) => {
    const low = bounds[i]!;
    const test = `${x} >= ${value(low)} AND ${x} < ${value(high)}`;
    branches.push(`WHEN ${test} THEN ${keySql([label(low), '-', label(high)])}`);
  });
  if (spec.openHigh) branches.push(`WHEN ${x} >= ${value(last)} THEN ${keySql([label(last), '-*'])}`);
  const inside = [
    spec.openLow ? null : `${x} >= ${value(first)}`,
    spec.openHigh ? null : `${x} < ${value(last)}`,
  ];
  const bounded = inside.filter((c) => c !== null);
  const key = `CASE ${branches.join(' ')} END`;
  return {
    group: key,
    output: key,
    sort: `min(${x})`,
    filter: bounded.length ? `(${x} IS NULL OR (${bounded.join(' AND ')}))` : null,
    type: 'text',
  };
}

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
  return spec.kind === 'width' ? widthGroups(x, spec.width, args, ctx) : staticGroups(x, spec, args, ctx);
};
