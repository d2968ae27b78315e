// Checks a parsed tree against the size limits without recursion, so a hostile tree cannot overflow the stack.
import { childrenOf, type Expr } from './ast.js';
import { QueryLangError } from './errors.js';
import { MAX_DEPTH, MAX_IN_LIST, MAX_LITERAL_LENGTH, MAX_NODES } from './limits.js';

/** Counts nodes across all the clauses of one query. */
export interface NodeBudget {
  used: number;
}

const literalText = (expr: Expr): string | null =>
  expr.kind === 'string' ? expr.value : expr.kind === 'date' || expr.kind === 'geometry' ? expr.text : null;

/** Spends one node of the budget per node of `root`; throws when a limit is passed. */
export function checkTreeLimits(root: Expr, budget: NodeBudget): void {
  const pending: [Expr, number][] = [[root, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [expr, depth] = next;
    if (++budget.used > MAX_NODES)
      throw new QueryLangError(`Query too complex: more than ${MAX_NODES} terms`);
    if (depth > MAX_DEPTH)
      throw new QueryLangError(`Query too deeply nested (more than ${MAX_DEPTH} levels)`);
    const text = literalText(expr);
    if (text !== null && text.length > MAX_LITERAL_LENGTH) {
      throw new QueryLangError(`Literal too long: ${text.length} characters (at most ${MAX_LITERAL_LENGTH})`);
    }
    if (expr.kind === 'in_list' && expr.items.length > MAX_IN_LIST) {
      throw new QueryLangError(`IN list too long: ${expr.items.length} values (at most ${MAX_IN_LIST})`);
    }
    for (const child of childrenOf(expr)) pending.push([child, depth + 1]);
  }
}

/** Number of nodes of a tree (trees here are already within the limits). */
export function sizeOf(root: Expr): number {
  let size = 0;
  const pending = [root];
  for (let next = pending.pop(); next; next = pending.pop()) {
    size++;
    pending.push(...childrenOf(next));
  }
  return size;
}
