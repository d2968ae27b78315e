// The labels of range() groups over numbers, for every dialect. An integer field cut at integers
// is labelled with inclusive integer bounds, as the public service answers (`[0, 14]`, `[15, 29]`;
// `[*, 14]`, `[40, *]`); any other number keeps the documented `low-high` (`0-15`, `*-10`,
// `20.5-*`). A dialect gives only how texts are joined and how a number is written.
import type { Expr } from '../ast.js';
import type { ValueType } from '../types.js';

/** Joins two or more SQL texts into one (DuckDB's `||`, ClickHouse's concat()). */
export type JoinTexts = (sqls: readonly string[]) => string;

/** How a dialect writes the parts of a number label. */
export interface LabelSpelling {
  readonly join: JoinTexts;
  /** Text of a number SQL: `10`, not `10.0`. */
  readonly numberText: (sql: string) => string;
  /** Text of a whole number SQL held as a double: `14`. */
  readonly integerText: (sql: string) => string;
  readonly quoteString: (text: string) => string;
}

/** Whether range() over a value of `type` cut at `cuts` labels groups with inclusive integer bounds. */
export function inclusiveBounds(type: ValueType | null, cuts: readonly Expr[]): boolean {
  return type === 'int' && cuts.every((c) => c.kind === 'number' && Number.isSafeInteger(c.value));
}

/** The label SQL of the equal-width bucket whose low bound is the SQL `low` (never null). */
export function widthLabel(low: string, step: number, inclusive: boolean, spelling: LabelSpelling): string {
  const { join, quoteString } = spelling;
  if (!inclusive) {
    return join([spelling.numberText(low), quoteString('-'), spelling.numberText(`${low} + ${step}`)]);
  }
  const high = spelling.integerText(`${low} + ${step - 1}`);
  return join([quoteString('['), spelling.integerText(low), quoteString(', '), high, quoteString(']')]);
}
