// DuckDB's spelling of the ODSQL operators: frozen tables, one entry per operator.
import type { ArithmeticOp, ComparisonOp } from '../../ast.js';

export const COMPARISON_SQL = Object.freeze({
  '=': '=',
  '!=': '<>',
  '<': '<',
  '>': '>',
  '<=': '<=',
  '>=': '>=',
} as const satisfies Record<ComparisonOp, string>);

export const GRANULE_SQL = Object.freeze({
  '=': (x, start, end) => `(${x} >= ${start} AND ${x} < ${end})`,
  '!=': (x, start, end) => `(${x} < ${start} OR ${x} >= ${end})`,
  '<': (x, start) => `(${x} < ${start})`,
  '<=': (x, _start, end) => `(${x} < ${end})`,
  '>': (x, _start, end) => `(${x} >= ${end})`,
  '>=': (x, start) => `(${x} >= ${start})`,
} as const satisfies Record<ComparisonOp, (x: string, start: string, end: string) => string>);

export const ARITHMETIC_SQL = Object.freeze({
  '+': (l, r) => `(${l} + ${r})`,
  '-': (l, r) => `(${l} - ${r})`,
  '*': (l, r) => `(${l} * ${r})`,
  // Division by zero yields null (explore-api.md), not DuckDB's infinity.
  '/': (l, r) => `(${l} / NULLIF(${r}, 0))`,
} as const satisfies Record<ArithmeticOp, (left: string, right: string) => string>);
