// Analyzed query -> one SELECT in the context's dialect, its count query, and the output columns.
import { ORDINAL_COLUMN, RECORD_ID_COLUMN } from '../catalog/schema.js';
import type { QuerySource } from '../catalog/source.js';
import type { AnalyzedQuery, KeyedExpr } from './analyze.js';
import { exprKey } from './ast.js';
import type { ExprInfo } from './expr-info.js';
import { compileArgs, compileExpr, type ExprCompiler } from './compile-expr.js';
import { QueryLangError, type Clause } from './errors.js';
import {
  unavailable,
  type CompileContext,
  type Dialect,
  type GroupSql,
  type Output,
} from './dialect/dialect.js';
import { readsInFileOrder } from './file-order.js';
import { GROUP_COUNT_OUTPUT, RECORD_ID_OUTPUT } from './hidden-columns.js';
import { presentValue } from './present.js';
import { recordIdCondition, recordIdSql } from './record-id.js';
import type { OutputColumn } from './types.js';

/** One SELECT (values inlined, so `params` is always empty), its count query and its columns. */
export interface CompiledQuery {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly countSql: string;
  readonly countParams: readonly unknown[];
  readonly columns: readonly OutputColumn[];
  readonly grouped: boolean;
  /** The engine's spelling the SQL is written in (shaped rows over it are written in it too). */
  readonly dialect: Dialect;
  /** The shapes its values are presented in. */
  readonly output: Output;
  /** Bytes its holistic aggregations may hold outside the engine's memory limit (limits-holistic.ts). */
  readonly holisticBytes: number;
}

export interface Page {
  /** null or undefined: no LIMIT. */
  readonly limit: number | null;
  readonly offset: number;
}

type Context = Omit<CompileContext, 'rowIdentity'>;

function inClause<T>(clause: Clause, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw error instanceof QueryLangError ? error.inClause(clause) : error;
  }
}

const infoOf = (query: AnalyzedQuery, expr: KeyedExpr['expr']): ExprInfo => {
  const info = query.facts.get(expr);
  if (!info) throw new Error(`internal: node ${expr.kind} was not analyzed`);
  return info;
};

/** A group key's SQL: grouping functions give their own; any other expression is its own key. */
export function compileGroup(query: AnalyzedQuery, key: KeyedExpr, compiler: ExprCompiler): GroupSql {
  const info = infoOf(query, key.expr);
  if (info.entry?.kind !== 'grouping') {
    const sql = compileExpr(key.expr, compiler);
    return { group: sql, output: sql, sort: sql, filter: null, type: info.type };
  }
  const { dialect } = compiler.ctx;
  const spelling = dialect.groupings.get(info.entry.name);
  if (!spelling) throw unavailable(`${info.entry.name}()`, dialect);
  return spelling(compileArgs(info, compiler), compiler.ctx);
}

/** Rows of the table, with multivalued group keys unnested (a cross product). */
function fromClause(
  source: QuerySource,
  query: AnalyzedQuery,
  where: string,
  dialect: Dialect,
): { from: string; where: string } {
  const table = dialect.quoteIdentifier(source.table);
  if (query.unnested.length === 0) return { from: table, where };
  const columns = [...source.fields.map((f) => f.name), RECORD_ID_COLUMN, ORDINAL_COLUMN];
  return dialect.unnest(table, where, query.unnested, columns);
}

const whereClause = (conditions: readonly string[]): string =>
  conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';

const outputType = (info: ExprInfo): OutputColumn['type'] => (info.type === 'null' ? 'text' : info.type);

const CONSTANTS: ReadonlySet<string> = new Set(['number', 'string', 'boolean', 'null', 'date']);

function limitClause(page: Page, dialect: Dialect): string {
  const limit = page.limit ?? -1;
  if (!Number.isSafeInteger(limit) || limit < -1) throw new RangeError(`invalid limit ${limit}`);
  if (!Number.isSafeInteger(page.offset) || page.offset < 0)
    throw new RangeError(`invalid offset ${page.offset}`);
  return dialect.limit(limit >= 0 ? limit : null, page.offset);
}

/** How an analyzed query is compiled besides its clauses. */
export interface CompileOptions {
  readonly page: Page;
  readonly context: Context;
  /** Only the record of this id (the single-record operation); null or absent: every record. */
  readonly recordId?: string | null;
  readonly withRecordId?: boolean;
  readonly withGroupCount?: boolean;
  readonly nullGroups?: boolean;
  readonly holisticBytes?: number;
}

/** Compiles an analyzed query over `source`. */
export function compileAnalyzed(
  source: QuerySource,
  query: AnalyzedQuery,
  {
    page,
    context,
    recordId = null,
    withRecordId = false,
    withGroupCount = false,
    nullGroups = true,
    holisticBytes = 0,
  }: CompileOptions,
): CompiledQuery {
  const { dialect } = context;
  const quoteIdentifier = (name: string) => dialect.quoteIdentifier(name);
  /** A record's identity in SQL: its ordinal (see compileOrderBy). */
  const ordinal = quoteIdentifier(ORDINAL_COLUMN);
  const ordinalSets = new Map<string, string>();
  const rowCtx: CompileContext = { ...context, rowIdentity: ordinal, ordinalSets };
  const rowCompiler: ExprCompiler = { facts: query.facts, ctx: rowCtx, groupKeys: new Map() };
  const conditions = [
    ...(recordId === null ? [] : [recordIdCondition(source, dialect, recordId)]),
    ...inClause('where', () => query.where.map((w) => compileExpr(w, rowCompiler))),
  ];
  const groups = inClause('group_by', () => query.groupBy.map((g) => compileGroup(query, g, rowCompiler)));
  const groupCtx: CompileContext = { ...context, rowIdentity: groups.map((g) => g.group).join(', ') || '0' };
  const outer = (pick: (g: GroupSql) => string): ExprCompiler => ({
    facts: query.facts,
    ctx: query.grouped ? groupCtx : rowCtx,
    groupKeys: new Map(query.groupBy.map((g, i) => [exprKey(g.expr), pick(groups[i]!)])),
  });
  const outputs = inClause('select', () =>
    compileOutputs(
      query,
      groups,
      outer((g) => g.output),
    ),
  );
  const inFileOrder = readsInFileOrder(source, query, dialect, ordinalSets.size > 0);
  const orderBy = inClause('order_by', () =>
    compileOrderBy(
      query,
      groups,
      outer((g) => g.sort),
      quoteIdentifier(source.table),
      ordinal,
      inFileOrder,
    ),
  );
  if (withRecordId && !query.grouped) {
    outputs.selected.push({ sql: recordIdSql(source, dialect), key: RECORD_ID_OUTPUT });
  }
  // Rows that stand for several records each carry how many: facets over them sum it.
  if (source.weight !== undefined && !query.grouped) {
    outputs.selected.push({ sql: quoteIdentifier(source.weight), key: source.weight });
  }
  const groupFilters = groups.flatMap((g) => [
    ...(g.filter ? [g.filter] : []),
    ...(nullGroups ? [] : [`${g.group} IS NOT NULL`]),
  ]);
  const { from, where } = fromClause(source, query, whereClause(conditions), dialect);
  const [condition] = conditions;
  const loneSearch =
    conditions.length === 1 && groupFilters.length === 0 && query.unnested.length === 0
      ? (ordinalSets.get(condition!) ?? null)
      : null;
  const rowFilter =
    where + (groupFilters.length ? `${where ? ' AND ' : ' WHERE '}${groupFilters.join(' AND ')}` : '');
  const groupBy = groups.length ? ` GROUP BY ${groups.map((g) => g.group).join(', ')}` : '';
  const countSql = countQuery(query, from, rowFilter, groupBy, loneSearch, source.weight ?? null, dialect);
  if (withGroupCount && query.grouped && dialect.groupCount)
    outputs.selected.push({ sql: dialect.groupCount(countSql), key: GROUP_COUNT_OUTPUT });
  const rest = `FROM ${from}${rowFilter}${groupBy}${orderBy}${limitClause(page, dialect)}`;
  const sql = selectSql(outputs.selected, rest, dialect);
  return Object.freeze({
    sql,
    params: [],
    countSql,
    countParams: [],
    columns: outputs.columns,
    grouped: query.grouped,
    dialect,
    output: context.output,
    holisticBytes,
  });
}

/**
 * The query counting the records (or groups) of `query`. The records of a lone index search are
 * counted from the index (its distinct ordinals): the same number without the semi-join of every
 * row's ordinal (bench/README.md, Measurements behind the code).
 * Rows of a `weight` column (a table of value counts) stand for that many records each.
 */
function countQuery(
  query: AnalyzedQuery,
  from: string,
  filters: string,
  groupBy: string,
  loneSearch: string | null,
  weight: string | null,
  dialect: Dialect,
): string {
  if (!query.grouped && loneSearch !== null) {
    return `SELECT count(DISTINCT "ordinal") AS total_count FROM (${loneSearch}) AS ${dialect.quoteIdentifier('ordinals')}("ordinal")`;
  }
  const records = weight === null ? 'count(*)' : `coalesce(sum(${dialect.quoteIdentifier(weight)}), 0)`;
  if (!query.grouped) return `SELECT ${records} AS total_count FROM ${from}${filters}`;
  if (!groupBy) return 'SELECT 1 AS total_count';
  return `SELECT count(*) AS total_count FROM (SELECT 1 FROM ${from}${filters}${groupBy}) AS ${dialect.quoteIdentifier('groups')}`;
}

/** An output column's SQL and its key. */
interface Selected {
  readonly sql: string;
  readonly key: string;
}

/**
 * `SELECT <outputs> <rest>`. Where an alias shadows the column of the same name in the whole
 * query (ClickHouse: `t` presented as text and aliased `t` is then what `where t > ...` reads),
 * the outputs are computed under names no column has and renamed by an outer SELECT.
 */
function selectSql(selected: readonly Selected[], rest: string, dialect: Dialect): string {
  const q = (name: string) => dialect.quoteIdentifier(name);
  if (!dialect.aliasesShadowColumns) {
    return `SELECT ${selected.map((s) => `${s.sql} AS ${q(s.key)}`).join(', ')} ${rest}`;
  }
  const inner = selected.map((s, i) => `${s.sql} AS ${q(`odsql ${i}`)}`).join(', ');
  const outer = selected.map((s, i) => `${q(`odsql ${i}`)} AS ${q(s.key)}`).join(', ');
  return `SELECT ${outer} FROM (SELECT ${inner} ${rest}) AS ${q('odsql')}`;
}

function compileOutputs(query: AnalyzedQuery, groups: readonly GroupSql[], compiler: ExprCompiler) {
  const selected: Selected[] = [];
  const columns: OutputColumn[] = [];
  for (const output of query.outputs) {
    const info = infoOf(query, output.expr);
    const groupIndex = query.groupBy.findIndex((g) => exprKey(g.expr) === exprKey(output.expr));
    const type = groupIndex >= 0 ? groups[groupIndex]!.type : info.type;
    const value = presentValue(compileExpr(output.expr, compiler), type, compiler.ctx);
    selected.push({ sql: value, key: output.key });
    const columnType =
      compiler.ctx.output !== 'json' && type === 'json' ? 'text' : outputType({ ...info, type });
    columns.push(Object.freeze({ key: output.key, type: columnType, multivalued: info.multivalued }));
  }
  if (selected.length === 0) throw new QueryLangError('The query selects nothing');
  return { selected, columns: Object.freeze(columns) };
}

/**
 * Nulls last whatever the direction. Ties are broken by the record's ordinal (or the group keys)
 * so that pages never overlap: records that sort alike keep their storage order, as without
 * order_by, where no sort is paid. Not by the record id: a sorted page read and compared that
 * text column for every matching row, several times the ordinal's cost (docs/odsql.md).
 * A bare field is named with its table: DuckDB reads a bare name in ORDER BY as the select
 * alias, so `order_by=date` sorted the text a datetime is written as (computed for every
 * matching row, and out of order across a change of offset) instead of the stored instant:
 * several times slower than the column (bench/README.md, Measurements behind the code).
 * `inFileOrder`: the rows in file order are the rows so sorted (file-order.ts), no sort is paid.
 */
function compileOrderBy(
  query: AnalyzedQuery,
  groups: readonly GroupSql[],
  compiler: ExprCompiler,
  table: string,
  ordinal: string,
  inFileOrder: boolean,
): string {
  if (inFileOrder) return '';
  // A constant sorts nothing, and a bare integer would be read by DuckDB as a column position.
  const keys = query.orderBy
    .filter((o) => !CONSTANTS.has(o.expr.kind))
    .map((o) => {
      const random = infoOf(query, o.expr).entry?.kind === 'ordering';
      const direction = o.descending && !random ? 'DESC' : 'ASC';
      const sql = compileExpr(o.expr, compiler);
      const column = !query.grouped && o.expr.kind === 'field' ? `${table}.${sql}` : sql;
      return `${column} ${direction} NULLS LAST`;
    });
  const ties = query.grouped
    ? groups.map((g) => `${g.sort} ASC NULLS LAST`)
    : keys.length || !compiler.ctx.dialect.storageOrder
      ? [`${ordinal} ASC`]
      : [];
  const all = [...new Set([...keys, ...ties])];
  return all.length ? ` ORDER BY ${all.join(', ')}` : '';
}
