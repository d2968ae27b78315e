// What the analyzer records of each node, shared by the analyzer, the call checker and the compiler.
import type { Field } from '../catalog/schema.js';
import type { Expr } from './ast.js';
import type { Dialect } from './dialect/dialect.js';
import type { Arg, FunctionEntry } from './functions/registry.js';
import { TYPE_NAMES, type ValueType } from './types.js';

/** What the analyzer knows of a node. */
export interface ExprInfo {
  readonly type: ValueType;
  readonly multivalued: boolean;
  /** The node is or contains an aggregation. */
  readonly aggregate: boolean;
  readonly field: Field | null;
  readonly entry: FunctionEntry | null;
  readonly args: readonly Arg[];
  /** The SQL a technical field stands for (technical.ts); absent: a field's column, or no field. */
  readonly sql?: string;
}

export type Analysis = ReadonlyMap<Expr, ExprInfo>;

/**
 * What the call checker and the name scope ask of the expression analyzer (analyze-expr.ts),
 * so that they depend on this surface and not on the analyzer that calls them.
 */
export interface Analyzer {
  readonly facts: Analysis;
  /** The dialect of the dataset's engine: a function it does not spell is refused here. */
  readonly dialect: Dialect;
  /** Analyzes `expr`; returns the expression to compile (names resolved, literals coerced). */
  analyze(expr: Expr): Expr;
  /** The facts of an analyzed node. */
  infoOf(expr: Expr): ExprInfo;
  /** Records the facts of a node and returns it. */
  record(expr: Expr, info: ExprInfo): Expr;
  /** Counts extra planner work against the query's node budget. */
  spend(nodes: number): void;
}

/** The facts of a single value that is neither a field nor a call. */
export const plain = (type: ValueType, aggregate = false): ExprInfo => ({
  type,
  multivalued: false,
  aggregate,
  field: null,
  entry: null,
  args: [],
});

/** A value's type in words for error messages, with the field's name when it is one. */
export const describe = (expr: Expr, type: ValueType): string =>
  expr.kind === 'field' ? `${TYPE_NAMES[type]} (${expr.name})` : TYPE_NAMES[type];
