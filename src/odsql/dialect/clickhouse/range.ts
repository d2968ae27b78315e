// ClickHouse's spelling of range() over numbers: static bounds as labelled ranges, equal widths as
// the bucket's low bound. Ranges of dates (calendar buckets in a time zone) are refused.
import type { Expr } from '../../ast.js';
import { QueryLangError } from '../../errors.js';
import { rangeSpec, type RangeSpec } from '../../functions/grouping.js';
import { isDateLike } from '../../types.js';
import type { GroupingSpelling, GroupSql } from '../dialect.js';
import { quoteString } from './quoting.js';

/** Concatenates literal texts and SQL texts into one SQL text expression (concat() wants two or more). */
const concat = (parts: readonly (string | { readonly sql: string })[]): string => {
  const sql = parts.map((p) => (typeof p === 'string' ? quoteString(p) : p.sql));
  return sql.length === 1 ? sql[0]! : `concat(${sql.join(', ')})`;
};

function staticGroups(x: string, spec: Extract<RangeSpec, { kind: 'static' }>): GroupSql {
  const value = (b: Expr): string => (b.kind === 'number' ? `(${String(b.value)})` : 'NULL');
  const label = (b: Expr): string => (b.kind === 'number' ? String(b.value) : '');
  const bounds = spec.bounds;
  const first = bounds[0]!;
  const last = bounds[bounds.length - 1]!;
  const branches: string[] = [];
  if (spec.openLow) branches.push(`WHEN ${x} < ${value(first)} THEN ${concat([`*-${label(first)}`])}`);
  bounds.slice(1).forEach((high, i) => {
    const low = bounds[i]!;
    const test = `${x} >= ${value(low)} AND ${x} < ${value(high)}`;
    branches.push(`WHEN ${test} THEN ${concat([`${label(low)}-${label(high)}`])}`);
  });
  if (spec.openHigh) branches.push(`WHEN ${x} >= ${value(last)} THEN ${concat([`${label(last)}-*`])}`);
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

/** Equal widths: rows grouped on the bucket's low bound, labelled `low-high` (`10`, not `10.0`). */
function widthGroups(x: string, width: Expr): GroupSql {
  const step = width.kind === 'number' ? String(width.value) : '1';
  const low = `(floor(toFloat64(${x}) / ${step}) * ${step})`;
  const label = `if(isNull(${low}), NULL, ${concat([{ sql: `toString(${low})` }, '-', { sql: `toString(${low} + ${step})` }])})`;
  return { group: low, output: label, sort: low, filter: null, type: 'text' };
}

export const range: GroupingSpelling = (args) => {
  if (isDateLike(args[0]!.type ?? 'null')) {
    throw new QueryLangError("range() over dates is not available on this dataset's engine (ClickHouse)");
  }
  const spec = rangeSpec(args);
  const x = args[0]!.sql;
  return spec.kind === 'width' ? widthGroups(x, spec.width) : staticGroups(x, spec);
};
