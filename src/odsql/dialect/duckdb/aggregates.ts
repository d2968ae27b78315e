// DuckDB's spelling of the aggregations: avg, count, max, min, median, percentile, sum.
import { exprKey } from '../../clause-rules.js';
import { quantileFraction } from '../../functions/aggregate.js';
import type { FunctionSpelling } from '../dialect.js';

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

export const AGGREGATES: ReadonlyMap<string, FunctionSpelling> = new Map<string, FunctionSpelling>([
  ['avg', ([x]) => `avg(${x!.sql})`],
  [
    'count',
    ([x], _ctx, call) => {
      if (x!.node.kind === 'star') return 'count(*)';
      return call.distinct ? `count(DISTINCT ${x!.sql})` : `count(${x!.sql})`;
    },
  ],
  ['max', ([x]) => `max(${x!.sql})`],
  ['min', ([x]) => `min(${x!.sql})`],
  ['median', quantile],
  ['percentile', quantile],
  ['sum', ([x]) => `sum(${x!.sql})`],
]);
