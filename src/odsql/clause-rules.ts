// Clause rules over analyzed expressions: which functions a clause allows, and what a grouped query may select.
import { childrenOf, exprKey, type Expr } from './ast.js';
import type { Analysis } from './expr-info.js';
import { QueryLangError } from './errors.js';
import type { ClauseName } from './types.js';

const LITERALS = new Set(['string', 'number', 'boolean', 'date']);

/**
 * Every function of `expr` must allow `clause`. Subtrees equal to a group key were checked in
 * group_by (so `range(...)` may be selected when it is a group key).
 */
export function checkClauseRules(
  expr: Expr,
  clause: ClauseName,
  groupKeys: ReadonlySet<string>,
  facts: Analysis,
): void {
  // Without group keys (where, ungrouped select) no key is written: an expression's key is its
  // whole subtree as JSON, and each level of a tree writing its own costs size x depth.
  if (groupKeys.size > 0 && groupKeys.has(exprKey(expr))) return;
  const entry = facts.get(expr)?.entry;
  if (expr.kind === 'call' && entry && !entry.clauses.includes(clause)) {
    const what = entry.kind === 'aggregate' ? 'Aggregation' : 'Function';
    throw new QueryLangError(
      `${what} ${expr.name}() is not allowed in ${clause} (only in ${entry.clauses.join(', ')})`,
    );
  }
  for (const child of childrenOf(expr)) checkClauseRules(child, clause, groupKeys, facts);
}

/** In a grouped query, a field may only be used inside an aggregation or as (part of) a group key. */
export function checkGroupedRules(expr: Expr, groupKeys: ReadonlySet<string>, facts: Analysis): void {
  if (groupKeys.has(exprKey(expr))) return;
  if (expr.kind === 'call' && facts.get(expr)?.entry?.kind === 'aggregate') return;
  if (expr.kind === 'field') throw new QueryLangError(`Field ${expr.name} must be in group_by`);
  for (const child of childrenOf(expr)) checkGroupedRules(child, groupKeys, facts);
}

/**
 * group_by takes fields and functions allowed there, ifnull only over fields and literals, and
 * arithmetic over those and number literals (`population+population`, as the JS client's README
 * writes it); a grouping function or an aggregation is never an operand.
 */
export function isGroupable(expr: Expr, facts: Analysis): boolean {
  if (expr.kind === 'field') return true;
  if (expr.kind === 'arithmetic') return isOperand(expr.left, facts) && isOperand(expr.right, facts);
  if (expr.kind === 'negate') return isOperand(expr.operand, facts);
  if (expr.kind !== 'call') return false;
  const kind = facts.get(expr)?.entry?.kind;
  if (kind !== 'scalar' && kind !== 'grouping') return false;
  return expr.name !== 'ifnull' || expr.args.every((a) => a.kind === 'field' || LITERALS.has(a.kind));
}

/** An operand of arithmetic in group_by: a number, or a groupable expression other than a grouping function. */
function isOperand(expr: Expr, facts: Analysis): boolean {
  if (expr.kind === 'number') return true;
  return isGroupable(expr, facts) && facts.get(expr)?.entry?.kind !== 'grouping';
}
