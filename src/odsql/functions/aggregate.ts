// Registry entries of the aggregations: avg, count, max, min, median, percentile, sum.
import { QueryLangError } from '../errors.js';
import type { ValueType } from '../types.js';
import type { Expr } from '../ast.js';
import { fixed, type Arg, type FunctionEntry } from './registry.js';

const AGGREGATE_CLAUSES = ['select', 'order_by'] as const;

const typeOfFirst = (args: readonly Arg[]): ValueType => args[0]?.type ?? 'null';

/** percentile's p is a literal from 0 to 100 (explore-api.md "Limits"). */
function checkPercentile(args: readonly Arg[]): void {
  const p = args[1]?.node;
  if (p?.kind === 'number' && (p.value < 0 || p.value > 100)) {
    throw new QueryLangError(`percentile() expects a percentage between 0 and 100, got ${p.value}`);
  }
}

/** The quantile fraction a median or percentile call asks for. */
export function quantileFraction(name: string, p: Expr | undefined): number {
  return name === 'percentile' && p?.kind === 'number' ? p.value / 100 : 0.5;
}

export const AGGREGATE_FUNCTIONS: readonly FunctionEntry[] = [
  {
    name: 'avg',
    kind: 'aggregate',
    clauses: AGGREGATE_CLAUSES,
    params: fixed('number'),
    arity: '1',
    returns: () => 'double',
  },
  {
    // Exact, though the spec allows an estimate: DuckDB's HyperLogLog was both wrong and slower
    // than count(DISTINCT) (docs/odsql.md).
    name: 'count',
    kind: 'aggregate',
    clauses: AGGREGATE_CLAUSES,
    params: fixed('any_or_star'),
    arity: '1',
    distinct: true,
    returns: () => 'int',
  },
  {
    name: 'max',
    kind: 'aggregate',
    clauses: AGGREGATE_CLAUSES,
    params: fixed('orderable'),
    arity: '1',
    returns: typeOfFirst,
  },
  {
    name: 'min',
    kind: 'aggregate',
    clauses: AGGREGATE_CLAUSES,
    params: fixed('orderable'),
    arity: '1',
    returns: typeOfFirst,
  },
  {
    name: 'median',
    kind: 'aggregate',
    clauses: AGGREGATE_CLAUSES,
    params: fixed('number'),
    arity: '1',
    returns: () => 'double',
  },
  {
    name: 'percentile',
    kind: 'aggregate',
    clauses: AGGREGATE_CLAUSES,
    params: fixed('number', 'number_literal'),
    arity: '2',
    check: checkPercentile,
    returns: () => 'double',
  },
  {
    name: 'sum',
    kind: 'aggregate',
    clauses: AGGREGATE_CLAUSES,
    params: fixed('number'),
    arity: '1',
    returns: typeOfFirst,
  },
];
