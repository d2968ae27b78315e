// The ODSQL compiler's surface: request parameters in, one DuckDB SELECT (and its count) out.
import type { QuerySource } from './source.js';
import { duckdbDialect } from './dialect/duckdb/dialect.js';
import type { Expr } from './ast.js';
import { analyzeQuery, type AnalyzedQuery, type ClauseCondition, type ParsedItems } from './analyze.js';
import type { CompiledQuery, CompileOptions } from './compile.js';
import { keptCompilation } from './compile-cache.js';
import { QueryLangError } from './errors.js';
import { technicalColumns } from './technical.js';
import { facetKeyFields, type FacetKey } from './facet-key.js';
import type { Lang } from './functions/date.js';
import type { Output } from './dialect/dialect.js';
import { checkHolisticCost, quantileLists } from './limits-holistic.js';
import { parseGroupBy, parseOrderBy, parseSelect, parseWhereClause } from './parse.js';
import { compileWeightedRows, compileWithValueCounts, valueCountsSource } from './value-counts.js';

export { LANGS, type Lang } from './functions/date.js';
export type { Output } from './dialect/dialect.js';
export type { CompiledQuery } from './compile.js';
export type { OutputColumn } from './types.js';
export { splitRow, type SplitRow } from './hidden-columns.js';
export { cell, type Cell, type CellType, type ObjectEntry, type ShapedColumn } from './shape.js';
export { shapedSql, textWidthsSql } from './shape-sql.js';
export type { Expr } from './ast.js';
export { analysesSoFar, type ClauseCondition } from './analyze.js';
export { node, NO_SPAN } from './ast.js';
export { QueryLangError, type Clause } from './errors.js';
export { FUNCTION_NAMES } from './functions/index.js';
export { compileGroupKey } from './group-key.js';
export type { GroupKeySql } from './facet-key.js';
export { facetKeyFields, type FacetKey } from './facet-key.js';
export { datePathRange, facetConditions, type RefinedFacet } from './refine.js';
export { findField } from './scope.js';

export interface QueryParams {
  select?: string;
  where?: readonly string[];
  groupBy?: string;
  orderBy?: string;
  /** null, undefined or -1: no LIMIT. */
  limit?: number | null;
  offset?: number;
  /** Output language of date_format names; default 'fr' (supplement 5). */
  lang?: Lang;
  /** IANA time zone of dates in the query and in the output; default 'UTC'. */
  timezone?: string;
  /** Boolean ASTs ANDed in; a bare Expr's errors name the where clause. */
  extraWhere?: readonly (Expr | ClauseCondition)[];
  /** Only the record with this id (the single-record operation). */
  recordId?: string;
  /** Adds the record id as a last `_recordid` column to ungrouped rows (links, v1, exports). */
  withRecordId?: boolean;
  /**
   * Adds the number of groups as a last `_group_count` column to grouped rows, so that a page
   * of groups and its total come from one aggregation instead of two.
   */
  withGroupCount?: boolean;
  /** False: rows whose group key is null form no group (Explore API v2.0); default true (v2.1). */
  nullGroups?: boolean;
}

const TIME_ZONES: ReadonlySet<string> = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/**
 * Canonical names of the zones asked so far, keyed by the names Intl lists (so a few hundred at
 * most): making a DateTimeFormat costs a good share of compiling a short query
 * (bench/README.md, Measurements behind the code).
 */
const CANONICAL = new Map<string, string>();

/**
 * The canonical IANA name of a time zone (`Asia/Kolkata` -> `Asia/Calcutta`, `Etc/UTC` -> `UTC`),
 * or null when it is unknown. Intl's canonical names are all known to DuckDB's ICU; offsets
 * such as `+01:00` are not zone names and are refused.
 */
export function canonicalTimeZone(name: string): string | null {
  const known = CANONICAL.get(name);
  if (known !== undefined) return known;
  if (!ZONE_NAME.test(name)) return null;
  try {
    const canonical = new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
    if (!TIME_ZONES.has(canonical)) return null;
    if (TIME_ZONES.has(name)) CANONICAL.set(name, canonical);
    return canonical;
  } catch {
    return null;
  }
}

const present = (text: string | undefined): text is string => text !== undefined && text.trim() !== '';

const clauseCondition = (condition: Expr | ClauseCondition): ClauseCondition =>
  'clause' in condition && 'expr' in condition ? condition : { expr: condition, clause: 'where' };

/** A request's query clauses analyzed over a source, and how to compile them. */
function analyzeParams(
  source: QuerySource,
  params: QueryParams,
  output: Output,
): { analyzed: AnalyzedQuery; options: CompileOptions } {
  const timezone = canonicalTimeZone(params.timezone ?? 'UTC');
  if (timezone === null) throw new QueryLangError(`Unknown timezone: ${params.timezone}`);
  const items = <T>(text: string | undefined, parse: (t: string) => readonly T[]): ParsedItems<T> | null =>
    present(text) ? { text, items: parse(text) } : null;
  const parsed = {
    select: items(params.select, parseSelect),
    where: [
      ...(source.rowFilter ? [{ expr: source.rowFilter, clause: 'where' as const }] : []),
      ...whereConditions(params.where ?? []),
      ...(params.extraWhere ?? []).map(clauseCondition),
    ],
    groupBy: items(params.groupBy, parseGroupBy),
    orderBy: items(params.orderBy, parseOrderBy),
  };
  const dialect = source.dialect ?? duckdbDialect;
  const analyzed = analyzeQuery(source.fields, parsed, timezone, dialect, technicalColumns(source, dialect));
  const holisticBytes = checkHolisticCost(analyzed, source.rows ?? 0, source.distinctCounts ?? new Map());
  const options = {
    holisticBytes,
    page: { limit: params.limit ?? null, offset: params.offset ?? 0 },
    recordId: params.recordId ?? null,
    withRecordId: params.withRecordId ?? false,
    withGroupCount: params.withGroupCount ?? false,
    nullGroups: params.nullGroups ?? true,
    context: {
      dialect,
      source,
      timezone,
      lang: params.lang ?? 'fr',
      output,
      quantiles: quantileLists(analyzed),
    },
  };
  return { analyzed, options };
}

/**
 * Compiles a request's query clauses over a source; every user error is a QueryLangError. Kept
 * by the source object and the inputs (compile-cache.ts): the same query over the same source is
 * compiled once.
 */
export function compileQuery(
  source: QuerySource,
  params: QueryParams,
  output: Output = 'json',
): CompiledQuery {
  return keptCompilation(source, [output, params], () => {
    const { analyzed, options } = analyzeParams(source, params, output);
    return compileWithValueCounts(source, analyzed, options);
  });
}

/** What a facet statement is compiled from: the request's conditions, not its clauses or page. */
export type FacetParams = Omit<QueryParams, 'select' | 'groupBy' | 'orderBy' | 'limit' | 'offset'>;

/** The rows facet keys reading `fields` count under `params`, with their weight column if over value counts. */
function facetRows(source: QuerySource, params: FacetParams, fields: readonly string[]) {
  const select = fields.map((name) => `\`${name}\``).join(', ');
  const { analyzed, options } = analyzeParams(source, { ...params, select, limit: null }, 'native');
  return compileWeightedRows(source, analyzed, options);
}

/**
 * One statement counting facet `keys` over the records `params` selects (its select, grouping,
 * order and page are the statement's own): rows (s = index of the key in `keys`, v = value, n =
 * count). `unnested`: the keys read one multivalued field, each of whose values is counted. Keys
 * of one field are counted from its table of value counts where that answers them.
 */
export function compileFacetCounts(
  source: QuerySource,
  params: FacetParams,
  keys: readonly FacetKey[],
  unnested: boolean,
): string {
  const rows = facetRows(source, params, facetKeyFields(keys));
  const dialect = source.dialect ?? duckdbDialect;
  return dialect.facetCounts(rows.sql, keys, unnested, params.timezone ?? 'UTC', rows.weight);
}

/** Whether facet keys reading `field` alone are counted from its table of value counts under `params`. */
export function facetReadsValueCounts(source: QuerySource, params: FacetParams, field: string): boolean {
  if (source.valueCounts?.has(field) !== true) return false;
  const { analyzed } = analyzeParams(source, { ...params, select: `\`${field}\``, limit: null }, 'native');
  return valueCountsSource(source, analyzed, null, true) !== null;
}

/** The conditions of `where` texts (blank ones add none), parsed; their errors name the where clause. */
export function whereConditions(texts: readonly string[]): ClauseCondition[] {
  return texts.filter(present).map((text) => ({ expr: parseWhereClause(text), clause: 'where' }));
}

/** Parses one where expression into an AST (to build extraWhere from other syntaxes). */
export function parseWhere(text: string): Expr {
  return parseWhereClause(text);
}

/** Why `text` is not a where expression (the parser's message), or null when it is one. */
export function whereProblem(text: string): string | null {
  try {
    parseWhereClause(text);
    return null;
  } catch (error) {
    if (!(error instanceof QueryLangError)) throw error;
    return error.message;
  }
}
