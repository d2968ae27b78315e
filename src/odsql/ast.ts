// The ODSQL syntax tree: a closed union of readonly nodes, each frozen and carrying its source span.

/** Character offsets [start, end) of a node in the clause text it was parsed from. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

interface Node<K extends string> {
  readonly kind: K;
  readonly span: Span;
}

export interface StringLiteral extends Node<'string'> {
  readonly value: string;
}
export interface NumberLiteral extends Node<'number'> {
  readonly value: number;
}
export interface BooleanLiteral extends Node<'boolean'> {
  readonly value: boolean;
}
export type NullLiteral = Node<'null'>;
/** `date'...'`: the text between the quotes, interpreted later in the request's time zone. */
export interface DateLiteral extends Node<'date'> {
  readonly text: string;
}
/** `geom'...'`: WKT or GeoJSON text. */
export interface GeometryLiteral extends Node<'geometry'> {
  readonly text: string;
}
/** A number glued to a unit: `10km`, `1month`, `3M` (the unit keeps its case). */
export interface QuantityLiteral extends Node<'quantity'> {
  readonly value: number;
  readonly unit: string;
}
/** A name: a dataset field or a label of the query; `quoted` when written in back quotes. */
export interface FieldRef extends Node<'field'> {
  readonly name: string;
  readonly quoted: boolean;
}
/** `*`: all fields in select, every row in count(*), every text field in search(*, ...). */
export type Star = Node<'star'>;
/** `name*` in include()/exclude(): a prefix wildcard. */
export interface Pattern extends Node<'pattern'> {
  readonly prefix: string;
}
export interface Negate extends Node<'negate'> {
  readonly operand: Expr;
}
export interface Not extends Node<'not'> {
  readonly operand: Expr;
}
export type ArithmeticOp = '+' | '-' | '*' | '/';
export interface Arithmetic extends Node<'arithmetic'> {
  readonly op: ArithmeticOp;
  readonly left: Expr;
  readonly right: Expr;
}
/** AND / OR over two or more operands (chains are flattened so long OR lists stay shallow). */
export interface Logical extends Node<'logical'> {
  readonly op: 'and' | 'or';
  readonly operands: readonly Expr[];
}
export type ComparisonOp = '=' | '!=' | '<' | '>' | '<=' | '>=';
export interface Comparison extends Node<'comparison'> {
  readonly op: ComparisonOp;
  readonly left: Expr;
  readonly right: Expr;
}
export interface Like extends Node<'like'> {
  readonly operand: Expr;
  readonly pattern: Expr;
}
export type IsTestKind = 'null' | 'not_null' | 'true' | 'false';
export interface IsTest extends Node<'is'> {
  readonly operand: Expr;
  readonly test: IsTestKind;
}
/** `f IN [a..b]`; `]` before a or `[` after b make that bound exclusive. */
export interface InRange extends Node<'in_range'> {
  readonly operand: Expr;
  readonly low: Expr;
  readonly high: Expr;
  readonly lowInclusive: boolean;
  readonly highInclusive: boolean;
}
export interface InList extends Node<'in_list'> {
  readonly operand: Expr;
  readonly items: readonly Expr[];
}
/** `<literal> IN <multivalued field>`. */
export interface Membership extends Node<'member'> {
  readonly value: Expr;
  readonly field: FieldRef;
}
export interface Call extends Node<'call'> {
  readonly name: string;
  readonly args: readonly Expr[];
  readonly distinct: boolean;
}
/** A bracketed bound list of range(): `]10, 50[` keeps both open-ended groups. */
export interface Bounds extends Node<'bounds'> {
  readonly items: readonly Expr[];
  readonly openLow: boolean;
  readonly openHigh: boolean;
}

export type Expr =
  | StringLiteral
  | NumberLiteral
  | BooleanLiteral
  | NullLiteral
  | DateLiteral
  | GeometryLiteral
  | QuantityLiteral
  | FieldRef
  | Star
  | Pattern
  | Negate
  | Not
  | Arithmetic
  | Logical
  | Comparison
  | Like
  | IsTest
  | InRange
  | InList
  | Membership
  | Call
  | Bounds;

export type ExprKind = Expr['kind'];

/** A select or group_by entry: an expression and its optional `AS` label. */
export interface Item {
  readonly expr: Expr;
  readonly label: string | null;
  readonly span: Span;
}

/** An order_by entry; `direction` is null when none was written. */
export interface OrderItem {
  readonly expr: Expr;
  readonly direction: 'asc' | 'desc' | null;
  readonly span: Span;
}

/** The direct sub-expressions of a node, in source order. */
export function childrenOf(expr: Expr): readonly Expr[] {
  return CHILDREN[expr.kind](expr as never);
}

const none = (): readonly Expr[] => [];
const CHILDREN: { [K in ExprKind]: (node: Extract<Expr, { kind: K }>) => readonly Expr[] } = {
  string: none,
  number: none,
  boolean: none,
  null: none,
  date: none,
  geometry: none,
  quantity: none,
  field: none,
  star: none,
  pattern: none,
  negate: (n) => [n.operand],
  not: (n) => [n.operand],
  arithmetic: (n) => [n.left, n.right],
  logical: (n) => n.operands,
  comparison: (n) => [n.left, n.right],
  like: (n) => [n.operand, n.pattern],
  is: (n) => [n.operand],
  in_range: (n) => [n.operand, n.low, n.high],
  in_list: (n) => [n.operand, ...n.items],
  member: (n) => [n.value, n.field],
  call: (n) => n.args,
  bounds: (n) => n.items,
};

const KEYS = new WeakMap<Expr, string>();

/** A structural key of an expression (spans and quoting ignored): equal keys, same expression. */
export function exprKey(expr: Expr): string {
  let key = KEYS.get(expr);
  if (key === undefined) {
    key = JSON.stringify(expr, (name, value: unknown) =>
      name === 'span' || name === 'quoted' ? undefined : value,
    );
    KEYS.set(expr, key);
  }
  return key;
}

/** The span of nodes built by code rather than parsed (refine, v1 filters). */
export const NO_SPAN: Span = Object.freeze({ start: 0, end: 0 });

type Props<N extends Expr> = Omit<N, 'kind' | 'span'>;

function make<N extends Expr>(kind: N['kind'], props: Props<N>, span: Span): N {
  return Object.freeze({ kind, ...props, span }) as N;
}

/** Frozen node factories; `span` defaults to NO_SPAN for nodes built by code. */
export const node = {
  string: (value: string, span = NO_SPAN) => make<StringLiteral>('string', { value }, span),
  number: (value: number, span = NO_SPAN) => make<NumberLiteral>('number', { value }, span),
  boolean: (value: boolean, span = NO_SPAN) => make<BooleanLiteral>('boolean', { value }, span),
  null: (span = NO_SPAN) => make<NullLiteral>('null', {}, span),
  date: (text: string, span = NO_SPAN) => make<DateLiteral>('date', { text }, span),
  geometry: (text: string, span = NO_SPAN) => make<GeometryLiteral>('geometry', { text }, span),
  quantity: (value: number, unit: string, span = NO_SPAN) =>
    make<QuantityLiteral>('quantity', { value, unit }, span),
  field: (name: string, quoted = false, span = NO_SPAN) => make<FieldRef>('field', { name, quoted }, span),
  star: (span = NO_SPAN) => make<Star>('star', {}, span),
  pattern: (prefix: string, span = NO_SPAN) => make<Pattern>('pattern', { prefix }, span),
  negate: (operand: Expr, span = NO_SPAN) => make<Negate>('negate', { operand }, span),
  not: (operand: Expr, span = NO_SPAN) => make<Not>('not', { operand }, span),
  arithmetic: (op: ArithmeticOp, left: Expr, right: Expr, span = NO_SPAN) =>
    make<Arithmetic>('arithmetic', { op, left, right }, span),
  logical: (op: 'and' | 'or', operands: readonly Expr[], span = NO_SPAN) =>
    make<Logical>('logical', { op, operands: Object.freeze([...operands]) }, span),
  comparison: (op: ComparisonOp, left: Expr, right: Expr, span = NO_SPAN) =>
    make<Comparison>('comparison', { op, left, right }, span),
  like: (operand: Expr, pattern: Expr, span = NO_SPAN) => make<Like>('like', { operand, pattern }, span),
  is: (operand: Expr, test: IsTestKind, span = NO_SPAN) => make<IsTest>('is', { operand, test }, span),
  inRange: (
    operand: Expr,
    low: Expr,
    high: Expr,
    lowInclusive: boolean,
    highInclusive: boolean,
    span = NO_SPAN,
  ) => make<InRange>('in_range', { operand, low, high, lowInclusive, highInclusive }, span),
  inList: (operand: Expr, items: readonly Expr[], span = NO_SPAN) =>
    make<InList>('in_list', { operand, items: Object.freeze([...items]) }, span),
  member: (value: Expr, field: FieldRef, span = NO_SPAN) =>
    make<Membership>('member', { value, field }, span),
  call: (name: string, args: readonly Expr[], distinct = false, span = NO_SPAN) =>
    make<Call>('call', { name, args: Object.freeze([...args]), distinct }, span),
  bounds: (items: readonly Expr[], openLow: boolean, openHigh: boolean, span = NO_SPAN) =>
    make<Bounds>('bounds', { items: Object.freeze([...items]), openLow, openHigh }, span),
} as const;

/** A frozen select/group_by item. */
export function item(expr: Expr, label: string | null, span: Span = expr.span): Item {
  return Object.freeze({ expr, label, span });
}

/** A frozen order_by item. */
export function orderItem(expr: Expr, direction: 'asc' | 'desc' | null, span: Span = expr.span): OrderItem {
  return Object.freeze({ expr, direction, span });
}
