// What the compiler asks of the SQL it writes for one engine: quoting and the spelling of operators.
// A second engine is a second object of this shape (kysely's Dialect, malloy's dialect/<db>/).
import type { ArithmeticOp, ComparisonOp } from '../ast.js';

/** The spelling of one SQL engine, handed to the compiler in its context. */
export interface Dialect {
  readonly name: string;
  /** An identifier quoted so that any name, quotes included, stays one identifier. */
  quoteIdentifier(name: string): string;
  /** A string literal quoted so that any text stays one value; NUL is refused. */
  quoteString(value: string): string;
  /** The SQL operator of each ODSQL comparison of two values. */
  readonly comparison: Readonly<Record<ComparisonOp, string>>;
  /**
   * A comparison with a whole date granule (supplement 5: `t > date'2026-08-29'` excludes the whole
   * 29th): `start` is the granule's first instant, `end` the next granule's.
   */
  readonly granule: Readonly<Record<ComparisonOp, (x: string, start: string, end: string) => string>>;
  /** An arithmetic operation over two compiled operands. */
  readonly arithmetic: Readonly<Record<ArithmeticOp, (left: string, right: string) => string>>;
}
