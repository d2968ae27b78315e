// Analyzed expression -> SQL of the context's dialect, one handler per node kind. Names are quoted,
// values escaped: nothing of the query text reaches SQL except through the dialect's quoting and numbers.
import {
  exprKey,
  type Comparison,
  type ComparisonOp,
  type DateLiteral,
  type Expr,
  type ExprKind,
} from './ast.js';
import { unavailable, type CompileContext, type CompiledArg, type Dialect } from './dialect/dialect.js';
import type { Analysis, ExprInfo } from './expr-info.js';
import { QueryLangError } from './errors.js';
import { isDateLike } from './types.js';

/** What compiling an expression needs: the analysis, the request context, and the group keys in scope. */
export interface ExprCompiler {
  readonly facts: Analysis;
  readonly ctx: CompileContext;
  /** In select and order_by of a grouped query: SQL standing for each group key, by structural key. */
  readonly groupKeys: ReadonlyMap<string, string>;
}

/** Compiles an analyzed expression. */
export function compileExpr(expr: Expr, compiler: ExprCompiler): string {
  const groupKey = compiler.groupKeys.size > 0 ? compiler.groupKeys.get(exprKey(expr)) : undefined;
  if (groupKey !== undefined) return groupKey;
  return (HANDLERS[expr.kind] as Handler<ExprKind>)(expr, compiler);
}

/**
 * A number as SQL text; negative numbers in parentheses so that `- -1` never reads as a comment.
 * A fraction is a DOUBLE (`e0`): DuckDB reads 2.2597004920661993 as a DECIMAL(17,16), and adding
 * 98 to it overflowed DECIMAL(18) (a 500).
 */
export function numberSql(value: number): string {
  if (!Number.isFinite(value)) throw new QueryLangError('Number out of range');
  const text = Number.isInteger(value) || /e/i.test(String(value)) ? String(value) : `${value}e0`;
  return value < 0 ? `(${text})` : text;
}

/** SQL of a literal written as a raw argument (string, number, boolean, null); '' for other raw nodes. */
export function rawSql(expr: Expr, dialect: Dialect): string {
  if (expr.kind === 'string') return dialect.quoteString(expr.value);
  if (expr.kind === 'number') return numberSql(expr.value);
  if (expr.kind === 'boolean') return dialect.boolean(expr.value);
  if (expr.kind === 'null') return 'NULL';
  return '';
}

type Handler<K extends ExprKind> = (expr: Extract<Expr, { kind: K }>, compiler: ExprCompiler) => string;

/** The operator with its sides swapped: `5 < f` is `f > 5`. */
const FLIPPED = {
  '=': '=',
  '!=': '!=',
  '<': '>',
  '>': '<',
  '<=': '>=',
  '>=': '<=',
} as const satisfies Record<ComparisonOp, ComparisonOp>;

const infoOf = (expr: Expr, compiler: ExprCompiler): ExprInfo => {
  const info = compiler.facts.get(expr);
  if (!info) throw new Error(`internal: node ${expr.kind} was not analyzed`);
  return info;
};

function granule(literal: DateLiteral, other: Expr, compiler: ExprCompiler): { start: string; end: string } {
  const type = infoOf(other, compiler).type;
  return compiler.ctx.dialect.dateGranule(
    literal.text,
    isDateLike(type) ? type : 'datetime',
    compiler.ctx.timezone,
  );
}

/** `side op literal` for one value, any element of a list, or a whole date granule. */
function compareTo(side: Expr, op: ComparisonOp, other: Expr, compiler: ExprCompiler): string {
  const sql = compileExpr(side, compiler);
  const info = infoOf(side, compiler);
  if (other.kind === 'date' && isDateLike(info.type)) {
    const { start, end } = granule(other, side, compiler);
    return compiler.ctx.dialect.granule[op](sql, start, end);
  }
  const value = compileExpr(other, compiler);
  const { comparison, lists } = compiler.ctx.dialect;
  const operator = comparison[op];
  if (!info.multivalued) return `(${sql} ${operator} ${value})`;
  if (op === '=') return lists.contains(sql, value);
  if (op === '!=') return `(NOT ${lists.contains(sql, value)})`;
  return lists.any(sql, (item) => `${item} ${operator} ${value}`);
}

function compileComparison(expr: Comparison, compiler: ExprCompiler): string {
  const rightFirst = expr.left.kind === 'date' || infoOf(expr.right, compiler).multivalued;
  return rightFirst
    ? compareTo(expr.right, FLIPPED[expr.op], expr.left, compiler)
    : compareTo(expr.left, expr.op, expr.right, compiler);
}

/** A call's arguments with their SQL: literal-only arguments as written, values compiled. */
export function compileArgs(info: ExprInfo, compiler: ExprCompiler): CompiledArg[] {
  return info.args.map((arg) => ({
    ...arg,
    sql: arg.type === null ? rawSql(arg.node, compiler.ctx.dialect) : compileExpr(arg.node, compiler),
  }));
}

function compileCall(expr: Extract<Expr, { kind: 'call' }>, compiler: ExprCompiler): string {
  const info = infoOf(expr, compiler);
  const entry = info.entry;
  if (!entry || entry.kind === 'declaration' || entry.kind === 'grouping') {
    throw new QueryLangError(
      `${expr.name}() can only be used in ${entry?.clauses.join(', ') ?? 'no clause'}`,
    );
  }
  const { dialect } = compiler.ctx;
  const spelling = dialect.functions.get(entry.name);
  if (!spelling) throw unavailable(`${entry.name}()`, dialect);
  return spelling(compileArgs(info, compiler), compiler.ctx, expr);
}

const HANDLERS: { [K in ExprKind]: Handler<K> } = {
  string: (expr, compiler) => compiler.ctx.dialect.quoteString(expr.value),
  number: (expr) => numberSql(expr.value),
  boolean: (expr, compiler) => compiler.ctx.dialect.boolean(expr.value),
  null: () => 'NULL',
  date: (expr, compiler) => compiler.ctx.dialect.dateGranule(expr.text, null, compiler.ctx.timezone).start,
  geometry: () => {
    throw new QueryLangError("A geometry literal (geom'...') can only be an argument of a geo function");
  },
  quantity: () => {
    throw new QueryLangError('A distance or width can only be an argument of a function');
  },
  star: () => {
    throw new QueryLangError('* cannot be used here');
  },
  pattern: () => {
    throw new QueryLangError('A name ending with * can only be used in include() or exclude()');
  },
  bounds: () => {
    throw new QueryLangError('A bracketed list of bounds can only be used in range()');
  },
  field: (expr, compiler) => compiler.facts.get(expr)?.sql ?? compiler.ctx.dialect.quoteIdentifier(expr.name),
  negate: (expr, compiler) => compiler.ctx.dialect.negate(compileExpr(expr.operand, compiler)),
  not: (expr, compiler) => compiler.ctx.dialect.not(compileExpr(expr.operand, compiler)),
  arithmetic: (expr, compiler) => {
    // Two integers are computed in DOUBLE: BIGINT overflow would be an error mid-query.
    const integers =
      infoOf(expr.left, compiler).type === 'int' && infoOf(expr.right, compiler).type === 'int';
    const left = compileExpr(expr.left, compiler);
    return compiler.ctx.dialect.arithmetic[expr.op](
      integers ? compiler.ctx.dialect.toDouble(left) : left,
      compileExpr(expr.right, compiler),
    );
  },
  logical: (expr, compiler) =>
    `(${expr.operands.map((o) => compileExpr(o, compiler)).join(expr.op === 'and' ? ' AND ' : ' OR ')})`,
  comparison: compileComparison,
  like: (expr, compiler) => {
    const { containsText, lists } = compiler.ctx.dialect;
    const operand = compileExpr(expr.operand, compiler);
    const pattern = compileExpr(expr.pattern, compiler);
    return infoOf(expr.operand, compiler).multivalued
      ? lists.any(operand, (item) => containsText(item, pattern))
      : containsText(operand, pattern);
  },
  is: (expr, compiler) => {
    const { isTrue, isFalse, lists } = compiler.ctx.dialect;
    const operand = compileExpr(expr.operand, compiler);
    const multivalued = infoOf(expr.operand, compiler).multivalued;
    if (expr.test === 'true') return isTrue(operand);
    if (expr.test === 'false') return isFalse(operand);
    if (expr.test === 'null')
      return multivalued ? `(${operand} IS NULL OR ${lists.length(operand)} = 0)` : `(${operand} IS NULL)`;
    return multivalued ? `(${lists.length(operand)} > 0)` : `(${operand} IS NOT NULL)`;
  },
  in_range: (expr, compiler) => {
    const low = compareTo(expr.operand, expr.lowInclusive ? '>=' : '>', expr.low, compiler);
    const high = compareTo(expr.operand, expr.highInclusive ? '<=' : '<', expr.high, compiler);
    return `(${low} AND ${high})`;
  },
  in_list: (expr, compiler) => {
    const info = infoOf(expr.operand, compiler);
    if (isDateLike(info.type) || expr.items.some((i) => i.kind === 'date')) {
      return `(${expr.items.map((i) => compareTo(expr.operand, '=', i, compiler)).join(' OR ')})`;
    }
    const operand = compileExpr(expr.operand, compiler);
    const items = expr.items.map((i) => compileExpr(i, compiler));
    return info.multivalued
      ? compiler.ctx.dialect.lists.hasAny(operand, items)
      : `(${operand} IN (${items.join(', ')}))`;
  },
  member: (expr, compiler) => compareTo(expr.field, '=', expr.value, compiler),
  call: compileCall,
};
