// DuckDB's spelling of the aggregations: avg, count, max, min, median, percentile, sum.
import { exprKey } from '../../ast.js';
import { quantileFraction } from '../../functions/aggregate.js';
import type { CompileContext, FunctionSpelling } from '../dialect.js';

/**
 * Exact quantiles (quantile_cont, interpolated as the spec's examples are). Every median and
 * percentile of one argument reads its value from one list over all their fractions: DuckDB
 * computes identical aggregates once, so they share one state (one sorted copy of the values).
 */
const quantile: FunctionSpelling = ([x, p], ctx, call) => {
  const fraction = quantileFraction(call.name.toLowerCase(), p?.node);
  const list = ctx.quantiles?.get(exprKey(x!.node));
  const at = list?.indexOf(fraction) ?? -1;
  if (!list || at < 0) return `quantile_cont(${x!.sql}, ${fraction})`;
  return `quantile_cont(${x!.sql}, [${list.join(', ')}])[${at + 1}]`;
};

/**
 * The records counted over rows that stand for `weight` records each (a table of value counts,
 * src/odsql/value-counts.ts), those where `x` is not null if given: a BIGINT as count() is.
 */
function weightedCount(weight: string, x: string | null, ctx: CompileContext): string {
  const filter = x === null ? '' : ` FILTER (WHERE ${x} IS NOT NULL)`;
  return `CAST(coalesce(sum(${ctx.dialect.quoteIdentifier(weight)})${filter}, 0) AS BIGINT)`;
}

export const AGGREGATES: ReadonlyMap<string, FunctionSpelling> = new Map<string, FunctionSpelling>([
  ['avg', ([x]) => `avg(${x!.sql})`],
  [
    'count',
    ([x], ctx, call) => {
      const weight = ctx.source.weight;
      if (x!.node.kind === 'star') return weight ? weightedCount(weight, null, ctx) : 'count(*)';
      if (call.distinct) return `count(DISTINCT ${x!.sql})`;
      return weight ? weightedCount(weight, x!.sql, ctx) : `count(${x!.sql})`;
    },
  ],
  ['max', ([x]) => `max(${x!.sql})`],
  ['min', ([x]) => `min(${x!.sql})`],
  ['median', quantile],
  ['percentile', quantile],
  ['sum', ([x]) => `sum(${x!.sql})`],
]);
