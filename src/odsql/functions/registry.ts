// The shape of a function registry entry and what each argument position accepts.
// The registry is data and it is the allow-list: no function name reaches SQL unless an entry names
// it and the dialect spells it. Entries say what a function means, never how an engine writes it.
import type { Field } from '../../catalog/schema.js';
import type { Expr } from '../ast.js';
import type { ClauseName, ValueType } from '../types.js';
import { isDateLike, isGeo, isNumeric, isTextual } from '../types.js';

/** An argument after analysis: value arguments have a type; literal-only arguments have `type: null`. */
export interface Arg {
  readonly node: Expr;
  readonly type: ValueType | null;
  readonly multivalued: boolean;
  /** The dataset field when the argument is a plain field reference. */
  readonly field: Field | null;
}

interface EntryBase {
  readonly name: string;
  readonly clauses: readonly ClauseName[];
  /** Argument kinds for a call with `count` arguments, or null when that arity is wrong. */
  readonly params: (count: number) => readonly ArgKind[] | null;
  /** The arities in words, for error messages ("1 or 2"). */
  readonly arity: string;
  /** Rules on argument values beyond their kinds (a percentile within 0..100). */
  readonly check?: (args: readonly Arg[]) => void;
  /** Whether `name(distinct x)` is accepted. */
  readonly distinct?: boolean;
  /**
   * Planner work of one call, in tree nodes (default 1): calls that expand into large SQL
   * (full-text search, polygons) count for more against the query's node budget.
   */
  readonly cost?: (args: readonly Arg[]) => number;
}

/**
 * A scalar function, predicate, aggregation or ordering (one SQL expression), or a grouping
 * function of group_by (range, geo_cluster): its spelling is the dialect's (dialect/<engine>/).
 */
export interface ValueEntry extends EntryBase {
  readonly kind: 'scalar' | 'predicate' | 'aggregate' | 'ordering' | 'grouping';
  readonly returns: (args: readonly Arg[]) => ValueType;
}

/** include()/exclude(): constrain the fields of `*`; never compiled to SQL. */
export interface DeclarationEntry extends EntryBase {
  readonly kind: 'declaration';
}

export type FunctionEntry = ValueEntry | DeclarationEntry;

/** How an argument position is checked: analyzed as a value of some types, or read as written. */
export interface ArgKindSpec {
  readonly describe: string;
  readonly mode: 'value' | 'raw';
  readonly accepts: (arg: Arg) => boolean;
}

const value = (describe: string, accepts: (arg: Arg) => boolean): ArgKindSpec => ({
  describe,
  mode: 'value',
  accepts,
});
const raw = (describe: string, accepts: (node: Expr) => boolean): ArgKindSpec => ({
  describe,
  mode: 'raw',
  accepts: (arg) => accepts(arg.node),
});
const single = (test: (type: ValueType) => boolean) => (arg: Arg) =>
  arg.type !== null && !arg.multivalued && test(arg.type);

const NOW_NAMES = /^[a-z]+$/;

/** Argument kinds: every position of every entry names one of these. */
export const ARG_KINDS = {
  number: value('a number', single(isNumeric)),
  text: value('a text', single(isTextual)),
  datelike: value('a date or datetime', single(isDateLike)),
  geo: value('a geo field', single(isGeo)),
  point: value(
    'a geo_point_2d field',
    single((t) => t === 'geo_point_2d'),
  ),
  // ifnull() of a multivalued field would compare a list with a value: single values only.
  any: value(
    'a single value',
    single((t) => t !== 'null'),
  ),
  orderable: value(
    'a number, text or date',
    single((t) => isNumeric(t) || isTextual(t) || isDateLike(t)),
  ),
  any_or_star: value(
    'a field or *',
    (arg) => arg.node.kind === 'star' || (arg.type !== null && arg.type !== 'null'),
  ),
  text_field_or_star: value(
    'a text field or *',
    (arg) => arg.node.kind === 'star' || (arg.field !== null && arg.type !== null && isTextual(arg.type)),
  ),
  string: raw('a string literal', (n) => n.kind === 'string'),
  string_or_null: raw('a string literal or null', (n) => n.kind === 'string' || n.kind === 'null'),
  number_literal: raw('a number', (n) => n.kind === 'number'),
  integer_literal: raw('an integer', (n) => n.kind === 'number' && Number.isInteger(n.value)),
  geometry: raw("a geometry literal (geom'...')", (n) => n.kind === 'geometry'),
  distance: raw('a distance such as 10km', (n) => n.kind === 'quantity'),
  spatial_relation: raw(
    'INTERSECTS, DISJOINT or WITHIN',
    (n) => n.kind === 'field' && /^(intersects|disjoint|within)$/i.test(n.name),
  ),
  named_integer: raw(
    'a named integer such as days=-1',
    (n) =>
      n.kind === 'comparison' &&
      n.op === '=' &&
      n.left.kind === 'field' &&
      NOW_NAMES.test(n.left.name.toLowerCase()) &&
      n.right.kind === 'number' &&
      Number.isInteger(n.right.value),
  ),
  range_part: raw(
    'a bound (number, date literal or *), a bracketed list of bounds, or a width such as 10 or 1month',
    (n) => ['number', 'date', 'star', 'bounds', 'quantity'].includes(n.kind),
  ),
  pattern: raw('a field name, optionally ending with *', (n) => n.kind === 'pattern' || n.kind === 'field'),
} as const satisfies Record<string, ArgKindSpec>;

export type ArgKind = keyof typeof ARG_KINDS;

/** Parameters: exactly these kinds. */
export function fixed(...kinds: ArgKind[]): (count: number) => readonly ArgKind[] | null {
  return (count) => (count === kinds.length ? kinds : null);
}

/** Parameters: the required kinds, then up to `optional.length` more. */
export function withOptional(
  required: readonly ArgKind[],
  optional: readonly ArgKind[],
): (count: number) => readonly ArgKind[] | null {
  return (count) =>
    count >= required.length && count <= required.length + optional.length
      ? [...required, ...optional].slice(0, count)
      : null;
}

/** Parameters: any number (at least `min`) of one kind. */
export function repeated(kind: ArgKind, min: number): (count: number) => readonly ArgKind[] | null {
  return (count) => (count >= min ? Array.from({ length: count }, () => kind) : null);
}
