// v1 values read against a field's type: numbers, texts, booleans, and dates written YYYY,
// YYYY/MM, YYYY/MM/DD or ISO 8601, where a partial date stands for its whole period.
import type { Field } from '../../../catalog/schema.js';
import { datePathRange, node, type Expr } from '../../../odsql/index.js';
import { fail } from './cursor.js';

/** A value as written after an operator: a text (quoted or not), or an expression (`#now()`). */
export type Value = { readonly text: string; readonly quoted: boolean } | { readonly expr: Expr };

export type Comparison = '<' | '<=' | '>' | '>=';

/** A date or instant as v1 writes it: `2015`, `2015-02-03`, `2015-02-03T10:00:00Z`, `2015/02`. */
const DATE_TEXT =
  /^\d{4}(?:[-/]\d{1,2}(?:[-/]\d{1,2}(?:[T ]\d{2}(?::\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?)?)?)?$/;

const isDate = (field: Field): boolean => field.type === 'date' || field.type === 'datetime';

/** The period [start, end) a partial date stands for, when the field is a date. */
function period(field: Field, value: Value): { start: Expr; end: Expr } | null {
  if (!isDate(field) || 'expr' in value) return null;
  const range = datePathRange(value.text);
  return range && { start: node.date(range.start), end: node.date(range.end) };
}

/** A literal of the field's type (dates stay text, read in the request's time zone by the compiler). */
export function literal(field: Field, value: Value): Expr {
  if ('expr' in value) return value.expr;
  const { text } = value;
  if (field.type === 'int' || field.type === 'double') {
    const number = Number(text);
    return Number.isFinite(number) && text.trim() !== ''
      ? node.number(number)
      : fail(`${text} is not a number for field ${field.name}`);
  }
  if (isDate(field)) {
    return DATE_TEXT.test(text)
      ? node.date(text.replaceAll('/', '-'))
      : fail(`${text} is not a date for field ${field.name}`);
  }
  if (field.type === 'boolean') return node.boolean(/^(true|1)$/i.test(text));
  return node.string(text);
}

/** How a comparison with a period reads: which end of it, and the operator then used. */
const PERIOD_ENDS = {
  '>=': ['>=', 'start'],
  '>': ['>=', 'end'],
  '<': ['<', 'start'],
  '<=': ['<', 'end'],
} as const satisfies Record<Comparison, readonly [Comparison, 'start' | 'end']>;

/** `field <op> value`; a partial date compares with its period (`<= 2016/09`: up to September's end). */
export function compare(field: Field, op: Comparison, value: Value): Expr {
  const ref = node.field(field.name, true);
  const whole = period(field, value);
  if (!whole) return node.comparison(op, ref, literal(field, value));
  const [operator, end] = PERIOD_ENDS[op];
  return node.comparison(operator, ref, whole[end]);
}

/** A bound of a range: its value (null for `*`) and whether it belongs to the range. */
export interface Bound {
  readonly value: Value | null;
  readonly inclusive: boolean;
}

/** `field:[low TO high]` (`]` / `[` outside make a bound exclusive, `*` leaves it open). */
export function between(field: Field, low: Bound, high: Bound): Expr {
  const conditions = [
    ...(low.value ? [compare(field, low.inclusive ? '>=' : '>', low.value)] : []),
    ...(high.value ? [compare(field, high.inclusive ? '<=' : '<', high.value)] : []),
  ];
  if (conditions.length === 0) return node.is(node.field(field.name, true), 'not_null');
  return conditions.length === 1 ? conditions[0]! : node.logical('and', conditions);
}

/**
 * `field:value`: a word of a text field (`exact`: the whole value), a member of a multivalued
 * one, the period of a partial date, or an equal value; `field:*` is any value.
 */
export function matches(field: Field, value: Value, exact: boolean): Expr {
  const ref = node.field(field.name, true);
  if ('expr' in value) return node.comparison('=', ref, value.expr);
  if (value.text === '*' && !value.quoted) return node.is(ref, 'not_null');
  if (field.annotations.multivalued !== undefined) return node.member(node.string(value.text), ref);
  if (field.type === 'text') {
    return exact
      ? node.comparison('=', ref, node.string(value.text))
      : node.call('search', [ref, node.string(value.text.replace(/\*+$/, ''))]);
  }
  const whole = period(field, value);
  if (whole) return node.inRange(ref, whole.start, whole.end, true, false);
  return node.comparison('=', ref, literal(field, value));
}
