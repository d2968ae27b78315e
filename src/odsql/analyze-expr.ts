// Types one expression: resolves names through the query's scope, checks operand and argument
// types, and records what it learns of every node. Literals are coerced where ODSQL allows it.
import { node, type Comparison, type Expr, type ExprKind, type FieldRef } from './ast.js';
import type { Dialect } from './dialect/dialect.js';
import { QueryLangError } from './errors.js';
import { analyzeCall } from './analyze-call.js';
import { describe, plain, type Analyzer, type ExprInfo } from './expr-info.js';
import { dateLiteralType } from './functions/temporal.js';
import type { NodeBudget } from './limits-check.js';
import { MAX_NODES } from './limits.js';
import { comparable, isDateLike, isNumeric, isTextual, type ValueType } from './types.js';

/** Resolves a name to an analyzed expression: a field node, or the expression a label stands for. */
export type NameResolver = (ref: FieldRef) => Expr;

const NUMBER_TEXT = /^\s*-?[0-9]+(\.[0-9]+)?\s*$/;

/** A literal rewritten to be comparable with `target`, or null when ODSQL has no such coercion. */
function coerceLiteral(literal: Expr, target: ValueType, equality: boolean): Expr | null {
  if (literal.kind === 'string' && isDateLike(target)) return node.date(literal.value, literal.span);
  // `code = 75001` on a text field means the text; `name > 3` has no meaning and is an error.
  if (literal.kind === 'number' && isTextual(target) && equality)
    return node.string(String(literal.value), literal.span);
  if (literal.kind === 'string' && isNumeric(target) && NUMBER_TEXT.test(literal.value)) {
    return node.number(Number(literal.value), literal.span);
  }
  if (literal.kind === 'string' && target === 'boolean' && /^(true|false)$/i.test(literal.value)) {
    return node.boolean(literal.value.toLowerCase() === 'true', literal.span);
  }
  return null;
}

type Handler<K extends ExprKind> = (expr: Extract<Expr, { kind: K }>, analyzer: ExprAnalyzer) => Expr;

/** Analyzes expressions of one query, all clauses sharing one record of node facts. */
export class ExprAnalyzer implements Analyzer {
  constructor(
    readonly facts: Map<Expr, ExprInfo>,
    readonly resolveName: NameResolver,
    readonly timezone: string,
    readonly dialect: Dialect,
    private readonly budget: NodeBudget,
  ) {}

  /** Counts extra planner work against the query's node budget. */
  spend(nodes: number): void {
    this.budget.used += nodes;
    if (this.budget.used > MAX_NODES)
      throw new QueryLangError(`Query too complex: more than ${MAX_NODES} terms`);
  }

  /** Analyzes `expr`; returns the expression to compile (names resolved, literals coerced). */
  analyze(expr: Expr): Expr {
    const known = this.facts.get(expr);
    if (known) return expr;
    return (HANDLERS[expr.kind] as Handler<ExprKind>)(expr, this);
  }

  /** The facts of an analyzed node. */
  infoOf(expr: Expr): ExprInfo {
    const info = this.facts.get(expr);
    if (!info) throw new Error(`internal: node ${expr.kind} was not analyzed`);
    return info;
  }

  /** Records the facts of a node and returns it. */
  record(expr: Expr, info: ExprInfo): Expr {
    this.facts.set(expr, info);
    return expr;
  }

  /** Analyzes a sub-expression that must be a single value of a group accepted by `test`. */
  operand(expr: Expr, test: (type: ValueType) => boolean, wanted: string, where: string): Expr {
    const analyzed = this.analyze(expr);
    const info = this.infoOf(analyzed);
    if (!test(info.type)) {
      throw new QueryLangError(`${where} expects ${wanted}, got ${describe(analyzed, info.type)}`);
    }
    return analyzed;
  }

  /** Analyzes a condition: a boolean expression. */
  condition(expr: Expr, where: string): Expr {
    return this.operand(expr, (t) => t === 'boolean', 'a boolean expression', where);
  }

  /** Analyzes two sides that are compared, coercing a literal side to the other side's type. */
  comparablePair(left: Expr, right: Expr, what: string, equality: boolean): [Expr, Expr] {
    let [l, r] = [this.analyze(left), this.analyze(right)];
    const [li, ri] = [this.infoOf(l), this.infoOf(r)];
    if (li.type === 'null' || ri.type === 'null') {
      throw new QueryLangError(`null can only be tested with IS NULL or IS NOT NULL, not in ${what}`);
    }
    if (li.multivalued && ri.multivalued) throw new QueryLangError(`Cannot compare two multivalued fields`);
    if (!comparable(li.type, ri.type)) {
      const coercedRight = coerceLiteral(r, li.type, equality);
      const coercedLeft = coercedRight ? null : coerceLiteral(l, ri.type, equality);
      if (!coercedRight && !coercedLeft) {
        throw new QueryLangError(
          `Cannot compare ${describe(l, li.type)} with ${describe(r, ri.type)} in ${what}`,
        );
      }
      if (coercedRight) r = this.analyze(coercedRight);
      if (coercedLeft) l = this.analyze(coercedLeft);
    }
    return [l, r];
  }
}

const literal =
  (type: (expr: Expr) => ValueType) =>
  (expr: Expr, analyzer: ExprAnalyzer): Expr =>
    analyzer.record(expr, plain(type(expr)));

const notAValue = (what: string) => (): Expr => {
  throw new QueryLangError(what);
};

function analyzeComparison(expr: Comparison, analyzer: ExprAnalyzer): Expr {
  const equality = expr.op === '=' || expr.op === '!=';
  const [left, right] = analyzer.comparablePair(expr.left, expr.right, `comparison ${expr.op}`, equality);
  if (analyzer.infoOf(left).type === 'boolean' && expr.op !== '=' && expr.op !== '!=') {
    throw new QueryLangError(`Booleans can only be compared with = or !=`);
  }
  const rewritten =
    left === expr.left && right === expr.right ? expr : node.comparison(expr.op, left, right, expr.span);
  return analyzer.record(rewritten, plain('boolean', aggregated(analyzer, left, right)));
}

function analyzeField(expr: FieldRef, analyzer: ExprAnalyzer): Expr {
  return analyzer.resolveName(expr);
}

/** Whether any of `exprs` holds an aggregation: a test of one is an aggregate condition too. */
const aggregated = (analyzer: ExprAnalyzer, ...exprs: Expr[]): boolean =>
  exprs.some((e) => analyzer.infoOf(e).aggregate === true);

const HANDLERS: { [K in ExprKind]: Handler<K> } = {
  string: literal(() => 'text'),
  number: (expr, analyzer) => {
    if (!Number.isFinite(expr.value)) throw new QueryLangError(`Number out of range`);
    return analyzer.record(expr, plain(Number.isInteger(expr.value) ? 'int' : 'double'));
  },
  boolean: literal(() => 'boolean'),
  null: literal(() => 'null'),
  date: (expr, analyzer) => analyzer.record(expr, plain(dateLiteralType(expr.text))),
  geometry: notAValue("A geometry literal (geom'...') can only be an argument of a geo function"),
  quantity: notAValue('A distance or width such as 10km can only be an argument of a function'),
  star: notAValue('* can only be used alone in select, in count(*) or in search(*, ...)'),
  pattern: notAValue('A name ending with * can only be used in include() or exclude()'),
  bounds: notAValue('A bracketed list of bounds can only be used in range()'),
  field: analyzeField,
  negate: (expr, analyzer) => {
    const operand = analyzer.operand(expr.operand, isNumeric, 'a number', 'Unary minus');
    const rewritten = operand === expr.operand ? expr : node.negate(operand, expr.span);
    return analyzer.record(
      rewritten,
      plain(analyzer.infoOf(operand).type, analyzer.infoOf(operand).aggregate),
    );
  },
  not: (expr, analyzer) => {
    const operand = analyzer.condition(expr.operand, 'NOT');
    const rewritten = operand === expr.operand ? expr : node.not(operand, expr.span);
    return analyzer.record(rewritten, plain('boolean', analyzer.infoOf(operand).aggregate));
  },
  arithmetic: (expr, analyzer) => {
    const single = (t: ValueType) => isNumeric(t);
    const left = analyzer.operand(expr.left, single, 'numbers', `Operator ${expr.op}`);
    const right = analyzer.operand(expr.right, single, 'numbers', `Operator ${expr.op}`);
    if (analyzer.infoOf(left).multivalued || analyzer.infoOf(right).multivalued) {
      throw new QueryLangError(`Operator ${expr.op} expects numbers, got a multivalued field`);
    }
    const rewritten =
      left === expr.left && right === expr.right ? expr : node.arithmetic(expr.op, left, right, expr.span);
    const aggregate = analyzer.infoOf(left).aggregate || analyzer.infoOf(right).aggregate;
    return analyzer.record(rewritten, plain('double', aggregate));
  },
  logical: (expr, analyzer) => {
    const operands = expr.operands.map((o) => analyzer.condition(o, expr.op.toUpperCase()));
    const rewritten = operands.every((o, i) => o === expr.operands[i])
      ? expr
      : node.logical(expr.op, operands, expr.span);
    return analyzer.record(
      rewritten,
      plain(
        'boolean',
        operands.some((o) => analyzer.infoOf(o).aggregate),
      ),
    );
  },
  comparison: analyzeComparison,
  like: (expr, analyzer) => {
    const operand = analyzer.operand(expr.operand, isTextual, 'a text', 'LIKE');
    const pattern = analyzer.operand(expr.pattern, isTextual, 'a text', 'LIKE');
    if (analyzer.infoOf(pattern).multivalued) {
      throw new QueryLangError('LIKE expects one text as its pattern, got a multivalued field');
    }
    const rewritten =
      operand === expr.operand && pattern === expr.pattern ? expr : node.like(operand, pattern, expr.span);
    return analyzer.record(rewritten, plain('boolean', aggregated(analyzer, operand, pattern)));
  },
  is: (expr, analyzer) => {
    const test = expr.test === 'true' || expr.test === 'false';
    const operand = test
      ? analyzer.operand(expr.operand, (t) => t === 'boolean', 'a boolean', `IS ${expr.test.toUpperCase()}`)
      : analyzer.analyze(expr.operand);
    const rewritten = operand === expr.operand ? expr : node.is(operand, expr.test, expr.span);
    return analyzer.record(rewritten, plain('boolean', aggregated(analyzer, operand)));
  },
  in_range: (expr, analyzer) => {
    const [operand, low] = analyzer.comparablePair(expr.operand, expr.low, 'IN [..]', false);
    const [, high] = analyzer.comparablePair(operand, expr.high, 'IN [..]', false);
    const { type } = analyzer.infoOf(operand);
    if (!isNumeric(type) && !isDateLike(type) && !isTextual(type)) {
      throw new QueryLangError(`IN [..] expects a number, date or text, got ${describe(operand, type)}`);
    }
    const rewritten = node.inRange(operand, low, high, expr.lowInclusive, expr.highInclusive, expr.span);
    return analyzer.record(rewritten, plain('boolean', aggregated(analyzer, operand)));
  },
  in_list: (expr, analyzer) => {
    // A literal operand may take the items' type (`1 in ('a')` compares texts): settle it first.
    let operand = analyzer.analyze(expr.operand);
    for (const item of expr.items) [operand] = analyzer.comparablePair(operand, item, 'IN (...)', true);
    const items = expr.items.map((item) => {
      const [left, right] = analyzer.comparablePair(operand, item, 'IN (...)', true);
      if (analyzer.infoOf(left).type !== analyzer.infoOf(operand).type) {
        throw new QueryLangError(
          `IN (...) cannot compare ${describe(operand, analyzer.infoOf(operand).type)} with values of different types`,
        );
      }
      return right;
    });
    return analyzer.record(
      node.inList(operand, items, expr.span),
      plain('boolean', aggregated(analyzer, operand)),
    );
  },
  member: (expr, analyzer) => {
    const field = analyzer.analyze(expr.field);
    const [value] = analyzer.comparablePair(expr.value, field, 'IN', true);
    return analyzer.record(node.comparison('=', field, value, expr.span), plain('boolean'));
  },
  call: analyzeCall,
};
