// ClickHouse's spelling of the aggregations, each giving DuckDB's answer: count distinct is exact
// (uniqExact, 0 over no rows), and median and percentile interpolate between the two nearest
// values as DuckDB's quantile_cont does (ClickHouse 18.16's quantileExact answers one of them).
import { quantileFraction } from '../../functions/aggregate.js';
import type { FunctionSpelling } from '../dialect.js';

/**
 * The value at fraction p of the sorted non-null values v[0..n-1]: at rank h = p * (n - 1),
 * v[floor h] + (h - floor h) * (v[ceil h] - v[floor h]); null without values.
 */
const quantile: FunctionSpelling = ([x, p], _ctx, call) => {
  const fraction = quantileFraction(call.name.toLowerCase(), p?.node);
  const sorted = `arraySort(groupArray(toFloat64(${x!.sql})))`;
  const rank = `(${fraction} * (length(${sorted}) - 1))`;
  const at = (index: string) => `arrayElement(${sorted}, toUInt64(${index}) + 1)`;
  const low = at(`floor(${rank})`);
  const high = at(`ceil(${rank})`);
  return `if(empty(${sorted}), NULL, ${low} + (${rank} - floor(${rank})) * (${high} - ${low}))`;
};

export const AGGREGATES: ReadonlyMap<string, FunctionSpelling> = new Map<string, FunctionSpelling>([
  ['avg', ([x]) => `avg(${x!.sql})`],
  [
    'count',
    ([x], _ctx, call) => {
      if (x!.node.kind === 'star') return 'count(*)';
      // A list is counted when it has elements (an empty array stands for null).
      if (x!.multivalued) return call.distinct ? `uniqExact(${x!.sql})` : `countIf(notEmpty(${x!.sql}))`;
      return call.distinct ? `coalesce(uniqExact(${x!.sql}), 0)` : `count(${x!.sql})`;
    },
  ],
  ['max', ([x]) => `max(${x!.sql})`],
  ['min', ([x]) => `min(${x!.sql})`],
  ['median', quantile],
  ['percentile', quantile],
  ['sum', ([x]) => `sum(${x!.sql})`],
]);
