// Holistic aggregations: the states a query needs (percentiles of one argument share one) and
// what they may cost, checked before DuckDB allocates memory its limit does not count.
import { childrenOf, exprKey, type Expr } from './ast.js';
import type { AnalyzedQuery } from './analyze.js';
import { QueryLangError } from './errors.js';
import { quantileFraction } from './functions/aggregate.js';
import { HOLISTIC_BUDGET_BYTES, HOLISTIC_BYTES, MAX_HOLISTIC_STATES } from './limits.js';

/** Functions whose state holds every value of their first argument, by the state they fill. */
const HOLISTIC: ReadonlyMap<string, 'quantile' | 'list'> = new Map([
  ['median', 'quantile'],
  ['percentile', 'quantile'],
  ['envelope', 'list'],
]);

/** A holistic call: the state it fills (family and argument key) and, for quantiles, its fraction. */
interface HolisticCall {
  readonly state: string;
  readonly argumentKey: string;
  readonly fraction: number | null;
}

/** Holistic calls of the query's outputs and sort keys (aggregations appear nowhere else). */
function holisticCalls(query: AnalyzedQuery): HolisticCall[] {
  const calls: HolisticCall[] = [];
  const pending: Expr[] = [...query.outputs.map((o) => o.expr), ...query.orderBy.map((o) => o.expr)];
  for (let next = pending.pop(); next; next = pending.pop()) {
    pending.push(...childrenOf(next));
    const info = query.facts.get(next);
    const family = info?.entry ? HOLISTIC.get(info.entry.name) : undefined;
    if (!info?.entry || !family || !info.args[0]) continue;
    const argumentKey = exprKey(info.args[0].node);
    const fraction = family === 'quantile' ? quantileFraction(info.entry.name, info.args[1]?.node) : null;
    calls.push({ state: `${family}:${argumentKey}`, argumentKey, fraction });
  }
  return calls;
}

/**
 * The quantile fractions the query asks of each argument, by the argument's structural key,
 * sorted: every median and percentile of one argument reads one list computed from one state.
 */
export function quantileLists(query: AnalyzedQuery): ReadonlyMap<string, readonly number[]> {
  const lists = new Map<string, Set<number>>();
  for (const { argumentKey, fraction } of holisticCalls(query)) {
    if (fraction === null) continue;
    lists.set(argumentKey, (lists.get(argumentKey) ?? new Set<number>()).add(fraction));
  }
  return new Map([...lists].map(([key, set]) => [key, [...set].sort((a, b) => a - b)]));
}

const MIB = 2 ** 20;

/**
 * The most groups the query's group_by can make over `rows` rows: the product of the distinct
 * counts of its plain single-valued fields (measured at ingest; one more for null), `rows` when
 * an item is anything else; 1 without group_by.
 */
export function groupsBound(
  query: AnalyzedQuery,
  rows: number,
  distinct: ReadonlyMap<string, number>,
): number {
  let groups = 1;
  for (const item of query.groupBy) {
    const info = query.facts.get(item.expr);
    const field = item.expr.kind === 'field' && !info?.multivalued ? info?.field : undefined;
    const count = field ? distinct.get(field.name) : undefined;
    groups *= count === undefined ? rows : count + 1;
    if (groups >= rows) return rows;
  }
  return Math.min(groups, Math.max(rows, 1));
}

/**
 * The bytes a query's holistic states may hold (every value of `rows` rows once per state, and
 * each group's own share per state), which the engine reserves from the process's budget while it
 * runs; refuses a query whose states are too many, or could hold more than one query may.
 */
export function checkHolisticCost(
  query: AnalyzedQuery,
  rows: number,
  distinct: ReadonlyMap<string, number>,
): number {
  const states = new Set(holisticCalls(query).map((c) => c.state));
  if (states.size > MAX_HOLISTIC_STATES) {
    throw new QueryLangError(
      `Too many holistic aggregations: median, percentile and envelope over ${states.size} different arguments (at most ${MAX_HOLISTIC_STATES} per query; percentiles of one field count once)`,
    );
  }
  if (states.size === 0) return 0;
  const groups = groupsBound(query, rows, distinct);
  const perState = rows * HOLISTIC_BYTES.perValue + groups * HOLISTIC_BYTES.perGroup;
  const bytes = states.size * perState;
  if (bytes > HOLISTIC_BUDGET_BYTES) {
    const most = Math.floor(HOLISTIC_BUDGET_BYTES / perState);
    throw new QueryLangError(
      `Query too costly: median, percentile and envelope over ${states.size} different argument(s) would keep about ${Math.ceil(bytes / MIB)} MB for the dataset's ${rows} records in up to ${groups} group(s) (at most ${HOLISTIC_BUDGET_BYTES / MIB} MB: ${most} such argument(s) here)`,
    );
  }
  return bytes;
}
