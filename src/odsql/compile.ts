// Analyzed query -> one SELECT in the context's dialect, its count query, and the output columns.
// Each clause is written in compile-clauses.ts; this file compiles the conditions and group keys
// and puts the statement together.
import { ORDINAL_COLUMN } from '../catalog/schema.js';
import type { QuerySource } from './source.js';
import type { AnalyzedQuery, KeyedExpr } from './analyze.js';
import { exprKey } from './ast.js';
import {
  compileOrderBy,
  compileOutputs,
  infoOf,
  limitClause,
  selectSql,
  tableRows,
  type Page,
} from './compile-clauses.js';
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

type Context = Omit<CompileContext, 'rowIdentity'>;

function inClause<T>(clause: Clause, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw error instanceof QueryLangError ? error.inClause(clause) : error;
  }
}

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
      source.unordered === true && source.weight === undefined,
    ),
  );
  if (withRecordId && !query.grouped) {
    outputs.selected.push({ sql: recordIdSql(source, dialect), key: RECORD_ID_OUTPUT });
  }
  // Rows that stand for several records each carry how many: facets over them sum it.
  if (source.weight !== undefined && !query.grouped) {
    outputs.selected.push({ sql: quoteIdentifier(source.weight), key: source.weight });
  }
  const { rows, countSql } = tableRows(source, query, conditions, groups, {
    nullGroups,
    ordinalSets,
    dialect,
  });
  if (withGroupCount && query.grouped && dialect.groupCount)
    outputs.selected.push({ sql: dialect.groupCount(countSql), key: GROUP_COUNT_OUTPUT });
  const sql = selectSql(outputs.selected, `${rows}${orderBy}${limitClause(page, dialect)}`, dialect);
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
