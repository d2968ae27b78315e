// The functions the generated parser's one-line actions call: token text in, frozen AST nodes out.
import { node, item as makeItem, orderItem as makeOrderItem } from './ast.js';
import type { ComparisonOp, Expr, FieldRef, IsTestKind, Item, OrderItem, Span } from './ast.js';
import { QueryLangError } from './errors.js';
import { MAX_NODES } from './limits.js';

/** Jison's location of a rule or token (the grammar enables `ranges`). */
export interface Location {
  readonly range: readonly [number, number];
}

const spanOf = (loc: Location): Span => Object.freeze({ start: loc.range[0], end: loc.range[1] });

/** Removes the quotes around a token and resolves backslash escapes (`\x` is `x`). */
export function unquote(text: string): string {
  return text.slice(1, -1).replace(/\\([\s\S])/g, '$1');
}

/** The quoted part of `date'...'` or `geom'...'`. */
const quotedPart = (text: string): string => unquote(text.slice(text.search(/['"]/)));

const COMPARISON_OPS: Record<string, ComparisonOp> = {
  '=': '=',
  ':': '=',
  '!=': '!=',
  '<>': '!=',
  '<': '<',
  '>': '>',
  '<=': '<=',
  '>=': '>=',
};

/** A one-element list (the start of a comma-separated list). */
export const list = <T>(first: T): T[] => [first];

/** Appends to a list under construction; the parser owns the array until the clause is built. */
export function append<T>(items: T[], next: T): T[] {
  items.push(next);
  return items;
}

export const string = (text: string, loc: Location) => node.string(unquote(text), spanOf(loc));
export const number = (text: string, loc: Location) => node.number(Number(text), spanOf(loc));
export const boolean = (value: boolean, loc: Location) => node.boolean(value, spanOf(loc));
export const nullLiteral = (loc: Location) => node.null(spanOf(loc));
export const date = (text: string, loc: Location) => node.date(quotedPart(text), spanOf(loc));
export const geometry = (text: string, loc: Location) => node.geometry(quotedPart(text), spanOf(loc));
export const star = (loc: Location) => node.star(spanOf(loc));
export const pattern = (text: string, loc: Location) => node.pattern(text.slice(0, -1), spanOf(loc));
export const field = (text: string, loc: Location) => node.field(text, false, spanOf(loc));
export const quotedField = (text: string, loc: Location) => node.field(unquote(text), true, spanOf(loc));
export const not = (operand: Expr, loc: Location) => node.not(operand, spanOf(loc));
export const like = (operand: Expr, pattern: Expr, loc: Location) => node.like(operand, pattern, spanOf(loc));
export const is = (operand: Expr, test: IsTestKind, loc: Location) => node.is(operand, test, spanOf(loc));
export const inList = (operand: Expr, items: Expr[], loc: Location) =>
  node.inList(operand, items, spanOf(loc));
export const member = (value: Expr, fieldRef: FieldRef, loc: Location) =>
  node.member(value, fieldRef, spanOf(loc));
export const item = (expr: Expr, label: string | null, loc: Location): Item =>
  makeItem(expr, label, spanOf(loc));
export const orderItem = (expr: Expr, direction: 'asc' | 'desc' | null, loc: Location): OrderItem =>
  makeOrderItem(expr, direction, spanOf(loc));

/** `10km`, `1month`: the number and its unit, the unit's case kept (`m` minute, `M` month). */
export function quantity(text: string, loc: Location): Expr {
  const digits = /^[0-9]+(\.[0-9]+)?/.exec(text)?.[0] ?? '';
  return node.quantity(Number(digits), text.slice(digits.length), spanOf(loc));
}

/** Unary minus; a minus before a number is folded into a negative number literal. */
export function negate(operand: Expr, loc: Location): Expr {
  if (operand.kind === 'number') return node.number(-operand.value, spanOf(loc));
  return node.negate(operand, spanOf(loc));
}

export const arithmetic = (op: '+' | '-' | '*' | '/', left: Expr, right: Expr, loc: Location) =>
  node.arithmetic(op, left, right, spanOf(loc));

/** AND/OR, flattening chains of the same operator so a long OR list is one shallow node. */
export function logical(op: 'and' | 'or', left: Expr, right: Expr, loc: Location): Expr {
  const operands = left.kind === 'logical' && left.op === op ? [...left.operands, right] : [left, right];
  if (operands.length > MAX_NODES) throw new QueryLangError(`Too many ${op.toUpperCase()} terms`);
  return node.logical(op, operands, spanOf(loc));
}

/** A comparison; `:` is the legacy spelling of `=` and `<>` the other spelling of `!=`. */
export function comparison(op: string, left: Expr, right: Expr, loc: Location): Expr {
  const normalized = COMPARISON_OPS[op];
  if (!normalized) throw new QueryLangError(`Unknown comparison operator ${op}`);
  return node.comparison(normalized, left, right, spanOf(loc));
}

/** `IN [low..high]`: a `[` before low or a `]` after high is an inclusive bound. */
export function inRange(
  operand: Expr,
  open: string,
  low: Expr,
  high: Expr,
  close: string,
  loc: Location,
): Expr {
  return node.inRange(operand, low, high, open === '[', close === ']', spanOf(loc));
}

/** A bound list of range(): a leading `]` or trailing `[` faces out and keeps the open-ended group. */
export function bounds(open: string, items: Expr[], close: string, loc: Location): Expr {
  return node.bounds(items, open === ']', close === '[', spanOf(loc));
}

/** A function call; `distinct` for `count(distinct f)`. */
export function call(name: string, args: Expr[], distinct: boolean, loc: Location): Expr {
  return node.call(name.toLowerCase(), args, distinct, spanOf(loc));
}
