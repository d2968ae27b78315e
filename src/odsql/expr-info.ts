// What the analyzer records of each node, shared by the analyzer, the call checker and the compiler.
import type { Field } from '../catalog/schema.js';
import type { Expr } from './ast.js';
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
}

export type Analysis = ReadonlyMap<Expr, ExprInfo>;

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
