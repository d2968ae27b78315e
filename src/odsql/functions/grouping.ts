// Registry entries of the grouping functions of group_by: range() (static bounds or equal widths) and geo_cluster().
import type { Expr } from '../ast.js';
import { QueryLangError } from '../errors.js';
import { isDateLike, isNumeric } from '../types.js';
import { unitOf } from './date-range.js';
import { fixed, repeated, type Arg, type FunctionEntry } from './registry.js';

/** A range() call read from its arguments: static bounds with optional open ends, or one width. */
export type RangeSpec =
  | { kind: 'static'; bounds: readonly Expr[]; openLow: boolean; openHigh: boolean }
  | { kind: 'width'; width: Expr };

/** Reads the forms of explore-api.md and supplement 5: `*, 10, 50, *`, `]10, 50[`, `[1, 2]`, `10`, `1month`. */
export function rangeSpec(args: readonly Arg[]): RangeSpec {
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
    // The unit and the count are checked now so that the error names group_by.
    if (ok && spec.width.kind === 'quantity' && (type === 'date' || type === 'datetime'))
      unitOf(spec.width.value, spec.width.unit);
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
  },
  {
    name: 'geo_cluster',
    kind: 'grouping',
    clauses: ['group_by'],
    params: fixed('point', 'integer_literal'),
    arity: '2',
    check: checkGeoCluster,
    returns: () => 'json',
  },
];
