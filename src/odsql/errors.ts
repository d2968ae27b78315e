// The one error every ODSQL stage throws; the API turns it into 400 QueryLangError.

/** The parameters a query is made of; a message names the ones containing the error. */
export type Clause = 'select' | 'where' | 'group_by' | 'order_by' | 'refine' | 'exclude' | 'facet' | 'q';

/** Where a syntax error is: the offending token, its offset in the clause, and what could have come instead. */
export interface SyntaxPosition {
  readonly position: number;
  readonly token: string;
  readonly expected: readonly string[];
}

/** A user's query is wrong: `problem` says what, `clauses` where (public service wording). */
export class QueryLangError extends Error {
  constructor(
    readonly problem: string,
    readonly clauses: readonly Clause[] = [],
    /** Set for syntax errors, for clients that point at the error (the message already says it). */
    readonly syntax: SyntaxPosition | null = null,
  ) {
    super(clauses.length ? `${problem}. Clause(s) containing the error(s): ${clauses.join(', ')}.` : problem);
  }

  /** The same problem, attributed to a clause (stages below the API do not know which one they serve). */
  inClause(clause: Clause): QueryLangError {
    return this.clauses.includes(clause)
      ? this
      : new QueryLangError(this.problem, [...this.clauses, clause], this.syntax);
  }
}
