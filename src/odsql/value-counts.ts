// Queries that read one field answered from its table of value counts (src/ingest/value-counts.ts)
// instead of the rows: month(date) over the 3M flights reads 213,834 dates and their counts, not
// 3M rows; `origin = 'SFO'` is counted from 229 rows.
//
// When: the source has the view of a field F's table (a DuckDB dataset, for a caller without a row
// filter: querySource gives no views otherwise); no single record is asked; every expression of
// the where (refine and exclude included) and, when grouped, of select, group_by and order_by
// names F and no other field; none searches (search, suggest and startswith read the index or
// every text field) nor calls random() (it hashes the row's identity); and either the query is
// ungrouped with a where, whose count alone is read from the table (its rows are records), or it
// is grouped with count, min and max as its only aggregations, or it gives the rows a facet of F
// counts (each table row then counts for its `_count`, src/facets/enumerate.ts).
//
// Why it is exact: the table is `SELECT F, count(*) AS _count ... GROUP BY F` of the rows. Every
// record of one of its rows has the same F, so any expression of F, condition or group key, takes
// one value over them: a condition keeps or drops them all, and they fall in one group. So a
// group's records are the `_count` of its table rows: count(*) is their sum, count(x) the sum
// over the rows where x is not null; count(DISTINCT x), min(x) and max(x) depend on the values
// only, which are the same. Sums, averages and quantiles depend on how often each value occurs,
// and stay with the rows. A count with no where, already answered from Parquet's metadata, too.
import { VALUE_COUNT_COLUMN } from '../catalog/schema.js';
import type { QuerySource } from './source.js';
import type { AnalyzedQuery } from './analyze.js';
import { childrenOf, type Expr } from './ast.js';
import { compileAnalyzed, type CompiledQuery, type CompileOptions } from './compile.js';
import type { Analysis } from './expr-info.js';

/** Functions whose value is not a function of their arguments' values alone. */
const ROW_FUNCTIONS: ReadonlySet<string> = new Set(['search', 'suggest', 'startswith', 'random']);

/** Aggregations a table of value counts answers exactly. */
const COUNT_AGGREGATES: ReadonlySet<string> = new Set(['count', 'min', 'max']);

/** Adds the fields `expr` names to `fields`; false when it calls what a table of counts cannot answer. */
function readsValuesOnly(expr: Expr, facts: Analysis, fields: Set<string>): boolean {
  if (expr.kind === 'field') fields.add(facts.get(expr)?.field?.name ?? expr.name);
  if (expr.kind === 'call') {
    const entry = facts.get(expr)?.entry;
    const name = entry?.name ?? expr.name.toLowerCase();
    if (ROW_FUNCTIONS.has(name)) return false;
    if (entry?.kind === 'aggregate' && !COUNT_AGGREGATES.has(name)) return false;
  }
  return childrenOf(expr).every((child) => readsValuesOnly(child, facts, fields));
}

/**
 * The source over the table of value counts that answers `query`, or null when it cannot. Of an
 * ungrouped query, the count is answered (its where is read) or, `withRows`, its rows too.
 */
export function valueCountsSource(
  source: QuerySource,
  query: AnalyzedQuery,
  recordId: string | null,
  withRows = false,
): QuerySource | null {
  if (!source.valueCounts || source.dialect !== undefined || recordId !== null) return null;
  const clauses =
    query.grouped || withRows
      ? [...query.where, ...[...query.outputs, ...query.groupBy, ...query.orderBy].map((k) => k.expr)]
      : query.where;
  const fields = new Set<string>();
  if (!clauses.every((expr) => readsValuesOnly(expr, query.facts, fields)) || fields.size !== 1) return null;
  const view = source.valueCounts.get([...fields][0]!);
  if (view === undefined) return null;
  return { ...source, table: view, searchTable: null, weight: VALUE_COUNT_COLUMN };
}

/**
 * Compiles `query` over `source`, or over a table of value counts where one answers it: a grouped
 * query entirely, an ungrouped one's count only.
 */
export function compileWithValueCounts(
  source: QuerySource,
  query: AnalyzedQuery,
  options: CompileOptions,
): CompiledQuery {
  const counts = valueCountsSource(source, query, options.recordId ?? null);
  if (counts === null) return compileAnalyzed(source, query, options);
  const overCounts = compileAnalyzed(counts, query, {
    ...options,
    context: { ...options.context, source: counts },
  });
  if (query.grouped) return overCounts;
  return Object.freeze({ ...compileAnalyzed(source, query, options), countSql: overCounts.countSql });
}

/**
 * The SQL of the rows of an ungrouped `query` that a facet counts, over the table of value counts
 * of its one field where one answers it; `weight` then names the column of how many records each
 * row stands for.
 */
export function compileWeightedRows(
  source: QuerySource,
  query: AnalyzedQuery,
  options: CompileOptions,
): { sql: string; weight: string | null } {
  const counts = valueCountsSource(source, query, options.recordId ?? null, true);
  if (counts === null) return { sql: compileAnalyzed(source, query, options).sql, weight: null };
  const context = { ...options.context, source: counts };
  return { sql: compileAnalyzed(counts, query, { ...options, context }).sql, weight: VALUE_COUNT_COLUMN };
}
