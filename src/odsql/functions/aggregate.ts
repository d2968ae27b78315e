// Registry entries of the aggregations: avg, count, max, min, median, percentile, sum.
import { QueryLangError } from '../errors.js';
import type { ValueType } from '../types.js';
import type { Call, Expr } from '../ast.js';
import { exprKey } from '../clause-rules.js';
import { fixed, type Arg, type CompileContext, type CompiledArg, type FunctionEntry } from './registry.js';

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

/**
 * Exact quantiles (quantile_cont, interpolated as the spec's examples are). Every median and
 * percentile of one argument reads its value from one list over all their fractions: DuckDB
 * computes identical aggregates once, so they share one state (one sorted copy of the values).
 */
function quantileSql([x, p]: readonly CompiledArg[], ctx: CompileContext, call: Call): string {
  const fraction = quantileFraction(call.name.toLowerCase(), p?.node);
  const list = ctx.quantiles?.get(exprKey(x!.node));
  const at = list?.indexOf(fraction) ?? -1;
  if (!list || at < 0) return `quantile_cont(${x!.sql}, ${fraction})`;
  return `quantile_cont(${x!.sql}, [${list.join(', ')}])[${at + 1}]`;
}

export const AGGREGATE_FUNCTIONS: readonly FunctionEntry[] = [
  {
    name: 'avg',
    kind: 'aggregate',
    clauses: AGGREGATE_CLAUSES,
    params: fixed('number'),
    arity: '1',
    returns: () => 'double',
    compile: ([x]) => `avg(${x!.sql})`,
  },
  {
    // Exact, though the spec allows an estimate: DuckDB's HyperLogLog answered 165 for 174
    // distributors and was slower than count(DISTINCT) on 3M flights (README, ODSQL).
    name: 'count',
    kind: 'aggregate',
    clauses: AGGREGATE_CLAUSES,
    params: fixed('any_or_star'),
    arity: '1',
    distinct: true,
    returns: () => 'int',
    compile: ([x], _ctx, call) => {
      if (x!.node.kind === 'star') return 'count(*)';
      return call.distinct ? `count(DISTINCT ${x!.sql})` : `count(${x!.sql})`;
    },
  },
  {
    name: 'max',
    kind: 'aggregate',
    clauses: AGGREGATE_CLAUSES,
    params: fixed('orderable'),
    arity: '1',
    returns: typeOfFirst,
    compile: ([x]) => `max(${x!.sql})`,
  },
  {
    name: 'min',
    kind: 'aggregate',
    clauses: AGGREGATE_CLAUSES,
    params: fixed('orderable'),
    arity: '1',
    returns: typeOfFirst,
    compile: ([x]) => `min(${x!.sql})`,
  },
  {
    name: 'median',
    kind: 'aggregate',
    clauses: AGGREGATE_CLAUSES,
    params: fixed('number'),
    arity: '1',
    returns: () => 'double',
    compile: quantileSql,
  },
  {
    name: 'percentile',
    kind: 'aggregate',
    clauses: AGGREGATE_CLAUSES,
    params: fixed('number', 'number_literal'),
    arity: '2',
    check: checkPercentile,
    returns: () => 'double',
    compile: quantileSql,
  },
  {
    name: 'sum',
    kind: 'aggregate',
    clauses: AGGREGATE_CLAUSES,
    params: fixed('number'),
    arity: '1',
    returns: typeOfFirst,
    compile: ([x]) => `sum(${x!.sql})`,
  },
];
