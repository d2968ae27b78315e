// Registry entries of the grouping functions of group_by: range() (static bounds or equal widths) and geo_cluster().
import { quoteString } from '../../sql-text.js';
import type { Expr } from '../ast.js';
import { QueryLangError } from '../errors.js';
import { isDateLike, isNumeric } from '../types.js';
import { compileDateRangeWidth, presentDate, presentDatetime } from './date.js';
import { compileGeoCluster } from './geo.js';
import { dateGranule } from './temporal.js';
import {
  fixed,
  repeated,
  type Arg,
  type CompileContext,
  type CompiledArg,
  type FunctionEntry,
  type GroupSql,
} from './registry.js';

/** A range() call read from its arguments: static bounds with optional open ends, or one width. */
type RangeSpec =
  | { kind: 'static'; bounds: readonly Expr[]; openLow: boolean; openHigh: boolean }
  | { kind: 'width'; width: Expr };

/** Reads the forms of explore-api.md and supplement 5: `*, 10, 50, *`, `]10, 50[`, `[1, 2]`, `10`, `1month`. */
function rangeSpec(args: readonly Arg[]): RangeSpec {
  const parts = args.slice(1).map((a) => a.node);
  const [first] = parts;
  if (parts.length === 1 && first && (first.kind === 'number' || first.kind === 'quantity')) {
    return { kind: 'width', width: first };
  }
  if (parts.length === 1 && first?.kind === 'bounds') {
    return { kind: 'static', bounds: first.items, openLow: first.openLow, openHigh: first.openHigh };
  }
  const openLow = first?.kind === 'star';
  const openHigh = parts.length > 1 && parts[parts.length - 1]?.kind === 'star';
  const bounds = parts.slice(openLow ? 1 : 0, openHigh ? -1 : undefined);
  return { kind: 'static', bounds, openLow, openHigh };
}

function checkRange(args: readonly Arg[]): void {
  const type = args[0]?.type;
  const spec = rangeSpec(args);
  const dates = type !== null && type !== undefined && isDateLike(type);
  if (spec.kind === 'width') {
    const ok = dates ? spec.width.kind === 'quantity' : spec.width.kind === 'number' && spec.width.value > 0;
    if (ok && spec.width.kind === 'quantity' && (type === 'date' || type === 'datetime')) {
      // The builder validates the unit and the count: run it now so the error names group_by.
      compileDateRangeWidth('NULL', spec.width.value, spec.width.unit, type, 'UTC');
    }
    if (!ok)
      throw new QueryLangError(
        `range() on ${dates ? 'a date expects a width such as 1month' : 'a number expects a positive width'}`,
      );
    return;
  }
  const wanted = dates ? 'date' : 'number';
  if (spec.bounds.length === 0 || spec.bounds.some((b) => b.kind !== wanted)) {
    throw new QueryLangError(`range() expects ${wanted} bounds, optionally * at either end`);
  }
  const values = spec.bounds.map((b) => (b.kind === 'number' ? b.value : 0));
  if (!dates && values.some((v, i) => i > 0 && v <= values[i - 1]!)) {
    throw new QueryLangError('range() bounds must be increasing');
  }
  if (spec.bounds.length < 2 && !spec.openLow && !spec.openHigh) {
    throw new QueryLangError('range() needs two bounds, or * for an open end');
  }
}

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

function checkGeoCluster(args: readonly Arg[]): void {
  const precision = args[1]?.node;
  if (precision?.kind === 'number' && (precision.value < 1 || precision.value > 24)) {
    throw new QueryLangError(`geo_cluster() precision must be from 1 to 24, got ${precision.value}`);
  }
}

export const GROUPING_FUNCTIONS: readonly FunctionEntry[] = [
  {
    name: 'range',
    kind: 'grouping',
    clauses: ['group_by'],
    params: (count) => (count >= 2 ? ['orderable', ...repeated('range_part', 1)(count - 1)!] : null),
    arity: 'at least 2',
    check: (args) => {
      if (!isNumeric(args[0]!.type ?? 'null') && !isDateLike(args[0]!.type ?? 'null')) {
        throw new QueryLangError('range() expects a number or date field as argument 1');
      }
      checkRange(args);
    },
    returns: (args) =>
      rangeSpec(args).kind === 'width' && isDateLike(args[0]!.type ?? 'null') ? args[0]!.type! : 'text',
    group: (args, ctx) => {
      const spec = rangeSpec(args);
      const x = args[0]!.sql;
      return spec.kind === 'width' ? widthGroups(x, spec.width, args, ctx) : staticGroups(x, spec, args, ctx);
    },
  },
  {
    name: 'geo_cluster',
    kind: 'grouping',
    clauses: ['group_by'],
    params: fixed('point', 'integer_literal'),
    arity: '2',
    check: checkGeoCluster,
    returns: () => 'json',
    group: ([point, precision]) => {
      const cluster = compileGeoCluster(
        point!.sql,
        precision!.node.kind === 'number' ? precision!.node.value : 1,
      );
      const centroid = `{'lat': ${cluster.centroidLatSql}, 'lon': ${cluster.centroidLonSql}}`;
      return {
        group: cluster.keySql,
        output: `{'cluster_centroid': ${centroid}, 'count': count(*)}`,
        sort: cluster.keySql,
        filter: null,
        type: 'json',
      };
    },
  },
];
