// The clauses of the one SELECT an analyzed query compiles to (compile.ts puts them together):
// its select list, the rows it reads (FROM with unnested group keys, WHERE, GROUP BY), ORDER BY
// with its tie-breaks, LIMIT, and the query counting its records or groups.
import { ORDINAL_COLUMN, RECORD_ID_COLUMN } from '../catalog/schema.js';
import type { QuerySource } from './source.js';
import type { AnalyzedQuery, KeyedExpr } from './analyze.js';
import { exprKey } from './ast.js';
import { compileExpr, type ExprCompiler } from './compile-expr.js';
import type { Dialect, GroupSql } from './dialect/dialect.js';
import { QueryLangError } from './errors.js';
import type { ExprInfo } from './expr-info.js';
import { presentValue } from './present.js';
import type { OutputColumn } from './types.js';

/** The page of rows a query returns. */
export interface Page {
  /** null or undefined: no LIMIT. */
  readonly limit: number | null;
  readonly offset: number;
}

/** The facts the analyzer found for one node of the query. */
export const infoOf = (query: AnalyzedQuery, expr: KeyedExpr['expr']): ExprInfo => {
  const info = query.facts.get(expr);
  if (!info) throw new Error(`internal: node ${expr.kind} was not analyzed`);
  return info;
};

/** The rows a query reads (FROM, WHERE with its group filters, GROUP BY) and the query counting them. */
export function tableRows(
  source: QuerySource,
  query: AnalyzedQuery,
  conditions: readonly string[],
  groups: readonly GroupSql[],
  { nullGroups, ordinalSets, dialect }: RowsOptions,
): { rows: string; countSql: string } {
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
  return { rows: `FROM ${from}${rowFilter}${groupBy}`, countSql };
}

/** What tableRows reads besides the query: whether null group keys count, the search ordinal sets. */
interface RowsOptions {
  readonly nullGroups: boolean;
  /** Each lone index search's condition and the ordinals it matches (CompileContext.ordinalSets). */
  readonly ordinalSets: ReadonlyMap<string, string>;
  readonly dialect: Dialect;
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

/** ` LIMIT n OFFSET m` in the dialect's spelling, after checking the page's numbers. */
export function limitClause(page: Page, dialect: Dialect): string {
  const limit = page.limit ?? -1;
  if (!Number.isSafeInteger(limit) || limit < -1) throw new RangeError(`invalid limit ${limit}`);
  if (!Number.isSafeInteger(page.offset) || page.offset < 0)
    throw new RangeError(`invalid offset ${page.offset}`);
  return dialect.limit(limit >= 0 ? limit : null, page.offset);
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
export interface Selected {
  readonly sql: string;
  readonly key: string;
}

/**
 * `SELECT <outputs> <rest>`. Where an alias shadows the column of the same name in the whole
 * query (ClickHouse: `t` presented as text and aliased `t` is then what `where t > ...` reads),
 * the outputs are computed under names no column has and renamed by an outer SELECT.
 */
export function selectSql(selected: readonly Selected[], rest: string, dialect: Dialect): string {
  const q = (name: string) => dialect.quoteIdentifier(name);
  if (!dialect.aliasesShadowColumns) {
    return `SELECT ${selected.map((s) => `${s.sql} AS ${q(s.key)}`).join(', ')} ${rest}`;
  }
  const inner = selected.map((s, i) => `${s.sql} AS ${q(`odsql ${i}`)}`).join(', ');
  const outer = selected.map((s, i) => `${q(`odsql ${i}`)} AS ${q(s.key)}`).join(', ');
  return `SELECT ${outer} FROM (SELECT ${inner} ${rest}) AS ${q('odsql')}`;
}

const outputType = (info: ExprInfo): OutputColumn['type'] => (info.type === 'null' ? 'text' : info.type);

/** The select list: each output's SQL as presented, and its column (key, type, list or not). */
export function compileOutputs(query: AnalyzedQuery, groups: readonly GroupSql[], compiler: ExprCompiler) {
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

const CONSTANTS: ReadonlySet<string> = new Set(['number', 'string', 'boolean', 'null', 'date']);

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
export function compileOrderBy(
  query: AnalyzedQuery,
  groups: readonly GroupSql[],
  compiler: ExprCompiler,
  table: string,
  ordinal: string,
  inFileOrder: boolean,
  unordered = false,
): string {
  if (inFileOrder) return '';
  // A constant sorts nothing, and a bare integer would be read by DuckDB as a column position.
  const keys = query.orderBy
    .filter((o) => !CONSTANTS.has(o.expr.kind))
    .map((o) => {
      const random = infoOf(query, o.expr).entry?.kind === 'ordering';
      const direction = o.descending && !random ? 'DESC' : 'ASC';
      const sql = compileExpr(o.expr, compiler);
      // A field's column, qualified against a select label of its name; a technical field is its SQL.
      const column =
        !query.grouped && o.expr.kind === 'field' && infoOf(query, o.expr).sql === undefined
          ? `${table}.${sql}`
          : sql;
      return `${column} ${direction} NULLS LAST`;
    });
  const ties = query.grouped
    ? groups.map((g) => `${g.sort} ASC NULLS LAST`)
    : keys.length || !compiler.ctx.dialect.storageOrder || unordered
      ? [`${ordinal} ASC`]
      : [];
  const all = [...new Set([...keys, ...ties])];
  return all.length ? ` ORDER BY ${all.join(', ')}` : '';
}
