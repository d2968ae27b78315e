// range() over static bounds, for every dialect: a CASE of labelled ranges (`*-10`, `10-20`,
// `20-*`; an integer field's `[*, 9]`, `[10, 19]`, `[20, *]`: range-labels.ts), the rows outside
// every range filtered out. A dialect gives only how texts are joined.
import type { Expr } from '../ast.js';
import type { RangeSpec } from '../functions/grouping.js';
import type { CompileContext, CompiledArg, GroupSql } from './dialect.js';
import { inclusiveBounds, type JoinTexts } from './range-labels.js';

/** Part of a group key: literal text, or SQL computing text. */
type KeyPart = string | { readonly sql: string };

/** The label of the range [low, high) (null: an open end); `inclusive`: integer bounds `[low, high - 1]`. */
function rangeLabel(low: KeyPart | null, high: KeyPart | null, inclusive: boolean): KeyPart[] {
  if (!inclusive) return [low ?? '*', '-', high ?? '*'];
  const last = typeof high === 'string' ? String(Number(high) - 1) : '*';
  return ['[', low ?? '*', ', ', last, ']'];
}

/** Concatenates key parts into one SQL text expression, folding adjacent literal texts. */
function keySql(parts: readonly KeyPart[], ctx: CompileContext, join: JoinTexts): string {
  const merged: KeyPart[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if (typeof part === 'string' && typeof last === 'string') merged[merged.length - 1] = last + part;
    else merged.push(part);
  }
  const sqls = merged.map((p) => (typeof p === 'string' ? ctx.dialect.quoteString(p) : p.sql));
  return sqls.length === 1 ? sqls[0]! : join(sqls);
}

/** The groups of range(x, [b1, b2, ...]): one per range between bounds, labelled by its bounds. */
export function staticRangeGroups(
  x: string,
  spec: Extract<RangeSpec, { kind: 'static' }>,
  args: readonly CompiledArg[],
  ctx: CompileContext,
  join: JoinTexts,
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
  const text = (parts: readonly KeyPart[]) => keySql(parts, ctx, join);
  const bounds = spec.bounds;
  const first = bounds[0]!;
  const last = bounds[bounds.length - 1]!;
  const branches: string[] = [];
  const inclusive = inclusiveBounds(args[0]!.type ?? null, bounds);
  const labelled = (low: Expr | null, high: Expr | null) =>
    text(rangeLabel(low && label(low), high && label(high), inclusive));
  if (spec.openLow) branches.push(`WHEN ${x} < ${value(first)} THEN ${labelled(null, first)}`);
  bounds.slice(1).forEach((high, i) => {
    const low = bounds[i]!;
    const test = `${x} >= ${value(low)} AND ${x} < ${value(high)}`;
    branches.push(`WHEN ${test} THEN ${labelled(low, high)}`);
  });
  if (spec.openHigh) branches.push(`WHEN ${x} >= ${value(last)} THEN ${labelled(last, null)}`);
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
