// ODSQL texts for the fuzz test (fast-check): well-typed expressions over a dataset's fields, free
// expressions of every function of the registry, literals of every kind, and character mutations.
import fc from 'fast-check';
import { FUNCTION_NAMES } from '../../src/odsql/index.js';

/** The fields of a dataset by what they hold, for expressions that mostly type-check. */
export interface FieldKinds {
  readonly num: readonly string[];
  readonly text: readonly string[];
  readonly date: readonly string[];
  readonly geo: readonly string[];
  /** Multivalued text fields. */
  readonly multi: readonly string[];
}

/** The generators of one dataset's clauses. */
export interface Clauses {
  readonly select: fc.Arbitrary<string>;
  readonly where: fc.Arbitrary<string>;
  readonly groupBy: fc.Arbitrary<string>;
  readonly orderBy: fc.Arbitrary<string>;
  readonly aggregates: fc.Arbitrary<string>;
}

const quoted = (text: string, quote = "'"): string =>
  `${quote}${text.replace(/[\\'"]/g, (c) => `\\${c}`)}${quote}`;

/** Plain numbers, and numbers at DuckDB's and JavaScript's edges. */
const NUMBERS_OK = fc.oneof(
  fc.integer({ min: -1000, max: 5000 }).map(String),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((d) => String(Math.abs(d)).replace(/e.*$/, '')),
);
const NUMBERS = fc.oneof(
  NUMBERS_OK,
  fc.constantFrom('1e308', '1e400', '-1e-400', '99999999999999999999999999', '-9223372036854775809'),
  fc.constantFrom('9223372036854775807', '0x10', '1_000', '.5', '5.', '00', '-0', 'NaN', 'Infinity'),
);

/** Date literals: valid first, then malformed. */
const DATE_TEXTS = [
  '2020',
  '2015-06-15',
  '2014/01/31 10:00',
  '2013-03-28T01:30:00Z',
  '2012-06-15T10:00:00+02:00',
];
const DATES_OK = fc.constantFrom(...DATE_TEXTS.map((d) => `date'${d}'`));
const DATES = fc.oneof(
  DATES_OK,
  fc.constantFrom("date'2020-13-45'", "date'99999'", "date''", "date'nope'", "date'-0001-01-01'"),
);

const GEOMETRIES_OK = fc.constantFrom(
  "geom'POINT(-100 40)'",
  "geom'POLYGON((-125 30, -100 30, -100 50, -125 50, -125 30))'",
  "geom'LINESTRING(0 0, 1 1)'",
  'geom\'{"type":"Point","coordinates":[-122.3,47.6]}\'',
);
const GEOMETRIES = fc.oneof(
  GEOMETRIES_OK,
  fc.constantFrom(
    "geom'GEOMETRYCOLLECTION EMPTY'",
    "geom'POINT(1e400 0)'",
    "geom'POLYGON((0 0, 1 1, 0 0))'",
    "geom'nope'",
  ),
);

const DISTANCES = fc.constantFrom('10km', '5mi', '300m', '1e9km');
const TIME_STEPS = fc.constantFrom('1month', '2year', '1d', '3h', '1week');
const QUANTITIES = fc.oneof(DISTANCES, TIME_STEPS, fc.constantFrom('-1km', '10 km', '0d'));

const KEYWORDS = fc.constantFrom(
  '*',
  'null',
  'true',
  'false',
  'now()',
  'now(days=-1)',
  '[1, 2, 3]',
  '[1..5[',
);

/** Any literal: numbers, strings (unicode included), dates, geometries, quantities, keywords. */
export const literal: fc.Arbitrary<string> = fc.oneof(
  NUMBERS,
  fc.string({ maxLength: 10, unit: 'grapheme' }).map((s) => quoted(s)),
  fc.string({ maxLength: 6 }).map((s) => quoted(s, '"')),
  DATES,
  GEOMETRIES,
  QUANTITIES,
  KEYWORDS,
);

const pick = (names: readonly string[], fallback: string): fc.Arbitrary<string> =>
  fc.constantFrom(...(names.length ? names : [fallback]));

/** `make` of the fields when the dataset has some, else `otherwise` (an input that still type-checks). */
const over = (
  names: readonly string[],
  make: (field: fc.Arbitrary<string>) => fc.Arbitrary<string>,
  otherwise: fc.Arbitrary<string>,
) => (names.length ? make(fc.constantFrom(...names)) : otherwise);

/** Free expressions: any field, literal, operator, function (with any arguments) or test. */
function freeExpressions(fields: readonly string[]): fc.Arbitrary<string> {
  const leaf = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...fields, 'unknown_field') }, literal);
  return fc.letrec<{ expr: string; binary: string; call: string; unary: string; test: string }>((tie) => ({
    expr: fc.oneof({ depthSize: 'small' }, leaf, tie('binary'), tie('call'), tie('unary'), tie('test')),
    binary: fc
      .tuple(
        tie('expr'),
        fc.constantFrom('+', '-', '*', '/', '%', '=', '!=', '<>', '<', '>=', 'and', 'or', 'like', ':'),
        tie('expr'),
      )
      .map(([a, op, b]) => `(${a} ${op} ${b})`),
    call: fc
      .tuple(
        fc.constantFrom(...FUNCTION_NAMES, 'read_parquet', 'nope'),
        fc.boolean(),
        fc.array(tie('expr'), { maxLength: 4 }),
      )
      .map(([name, distinct, args]) => `${name}(${distinct ? 'distinct ' : ''}${args.join(', ')})`),
    unary: fc.tuple(fc.constantFrom('not ', '-', 'NOT '), tie('expr')).map(([op, e]) => `${op}${e}`),
    test: fc
      .tuple(
        tie('expr'),
        fc.constantFrom('is null', 'is not null', 'in [1..5[', "in ('a', 'b')", 'in ]0..*]', 'in ]1, 5]'),
      )
      .map(([e, t]) => `${e} ${t}`),
  })).expr;
}

/** `operand` in a range from `low` to `high`, in every spelling (docs/odsql.md). */
const inRange = (operand: fc.Arbitrary<string>, low: fc.Arbitrary<string>, high: string) =>
  fc
    .tuple(
      operand,
      fc.constantFrom(' in [', ' IN ]', ': [', ' in['),
      low,
      fc.constantFrom('..', ' TO ', ', '),
    )
    .chain(([a, open, b, to]) =>
      fc.constantFrom(']', '[').map((close) => `${a}${open}${b}${to}${high}${close}`),
    );

/** Spatial predicates of a geo field. */
const geoTests = (geo: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    fc.tuple(geo, GEOMETRIES_OK, DISTANCES).map(([g, p, q]) => `within_distance(${g}, ${p}, ${q})`),
    fc
      .tuple(geo, GEOMETRIES_OK, fc.constantFrom('intersects', 'within', 'disjoint'))
      .map(([g, p, fn]) => `${fn}(${g}, ${p})`),
    geo.map((g) => `in_bbox(${g}, 30, -125, 50, -100)`),
  );

/** Expressions that mostly type-check, so that most queries run. */
function typedExpressions(f: FieldKinds) {
  const text = pick(f.text, "'x'");
  const date = pick(f.date, "date'2015'");
  return fc.letrec<{ num: string; str: string; bool: string }>((tie) => ({
    num: fc.oneof(
      { depthSize: 'small' },
      pick(f.num, '1'),
      NUMBERS_OK,
      fc
        .tuple(tie('num'), fc.constantFrom('+', '-', '*', '/'), tie('num'))
        .map(([a, o, b]) => `(${a} ${o} ${b})`),
      tie('str').map((t) => `length(${t})`),
      fc
        .tuple(fc.constantFrom('year', 'month', 'day', 'hour', 'minute', 'second'), date)
        .map(([fn, d]) => `${fn}(${d})`),
      over(f.geo, (geo) => fc.tuple(geo, GEOMETRIES_OK).map(([g, p]) => `distance(${g}, ${p})`), NUMBERS_OK),
      tie('num').map((e) => `ifnull(${e}, 0)`),
    ),
    str: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.string({ maxLength: 6 }).map((s) => quoted(s)),
      tie('str').map((t) => `lower(${t})`),
      fc.tuple(date, fc.constantFrom('yyyy-MM', 'EEEE d MMMM')).map(([d, p]) => `date_format(${d}, '${p}')`),
    ),
    bool: fc.oneof(
      { depthSize: 'small' },
      fc
        .tuple(tie('num'), fc.constantFrom('=', '!=', '<', '>', '<=', '>='), tie('num'))
        .map((p) => p.join(' ')),
      fc.tuple(tie('str'), fc.constantFrom('=', '!=', 'like'), tie('str')).map((p) => p.join(' ')),
      fc
        .tuple(tie('bool'), fc.constantFrom('and', 'or', 'AND'), tie('bool'))
        .map(([a, o, b]) => `(${a} ${o} ${b})`),
      tie('bool').map((b) => `not ${b}`),
      fc.tuple(date, DATES_OK, fc.constantFrom('>', '<=', '=')).map(([d, l, o]) => `${d} ${o} ${l}`),
      inRange(date, DATES_OK, 'now(years=-1)'),
      fc.tuple(text, fc.string({ maxLength: 5 })).map(([t, s]) => `search(${t}, ${quoted(s)})`),
      fc.tuple(text, fc.string({ maxLength: 4 })).map(([t, s]) => `startswith(${t}, ${quoted(s)})`),
      fc.string({ maxLength: 8 }).map((s) => quoted(s, '"')),
      over(
        f.multi,
        (m) => fc.tuple(m, fc.string({ maxLength: 5 })).map(([n, s]) => `${quoted(s)} in ${n}`),
        text.map((t) => `${t} = 'x'`),
      ),
      over(
        f.geo,
        (geo) => geoTests(geo),
        NUMBERS_OK.map((n) => `${n} > 0`),
      ),
      inRange(tie('num'), tie('num'), '100'),
      pick([...f.text, ...f.num], 'x').map((n) => `${n} is not null`),
    ),
  }));
}

/** The two generators mixed: most inputs are well-typed, a third are free. */
export function clauses(fields: FieldKinds): Clauses {
  const names = [...fields.num, ...fields.text, ...fields.date, ...fields.geo, ...fields.multi];
  const free = freeExpressions(names);
  const typed = typedExpressions(fields);
  const value = fc.oneof({ weight: 4, arbitrary: fc.oneof(typed.num, typed.str, typed.bool) }, free);
  const aggregate = fc.oneof(
    fc
      .tuple(fc.constantFrom('avg', 'sum', 'min', 'max', 'median'), typed.num)
      .map(([fn, e]) => `${fn}(${e})`),
    fc.tuple(typed.num, fc.integer({ min: -5, max: 105 })).map(([e, p]) => `percentile(${e}, ${p})`),
    fc.tuple(pick(names, 'x'), fc.boolean()).map(([n, d]) => `count(${d ? 'distinct ' : ''}${n})`),
    fc.constantFrom('count(*)', ...fields.geo.flatMap((g) => [`envelope(${g})`, `bbox(${g})`])),
    free,
  );
  const groupKey = fc.oneof(
    pick(names, 'x'),
    fc.tuple(pick(fields.num, 'x'), fc.integer({ min: -1, max: 1000 })).map(([n, w]) => `range(${n}, ${w})`),
    over(fields.date, (d) => fc.tuple(d, TIME_STEPS).map(([n, q]) => `range(${n}, ${q})`), pick(names, 'x')),
    fc
      .tuple(pick(fields.num, 'x'), NUMBERS_OK, NUMBERS_OK)
      .map(([n, a, b]) => `range(${n}, *, ${a}, ${b}, *)`),
    over(
      fields.geo,
      (g) => fc.tuple(g, fc.integer({ min: -1, max: 30 })).map(([n, z]) => `geo_cluster(${n}, ${z})`),
      pick(names, 'x'),
    ),
    typed.str,
    free,
  );
  const labelled = (item: fc.Arbitrary<string>) =>
    fc
      .tuple(item, fc.option(fc.constantFrom('a', 'B', '`x y`', '`__proto__`', 'valueOf'), { freq: 3 }))
      .map(([e, l]) => (l ? `${e} as ${l}` : e));
  const list = (item: fc.Arbitrary<string>) =>
    fc.array(item, { minLength: 1, maxLength: 3 }).map((items) => items.join(', '));
  const star = fc.constantFrom(
    '*',
    `include(${names[0]?.slice(0, 2) ?? 'x'}*)`,
    `exclude(${names[0] ?? 'x'})`,
  );
  return {
    select: list(fc.oneof({ weight: 5, arbitrary: labelled(value) }, star)),
    where: fc.oneof({ weight: 4, arbitrary: typed.bool }, free),
    groupBy: list(labelled(groupKey)),
    orderBy: list(fc.tuple(value, fc.constantFrom('', ' asc', ' DESC')).map(([e, d]) => e + d)),
    aggregates: list(labelled(aggregate)),
  };
}

/** Characters inserted by mutations: quotes, brackets, operators, unicode, NUL-free control characters. */
const INSERTED = fc.oneof(
  fc.constantFrom("'", '"', '`', '\\', '(', ')', '[', ']', ',', ':', '*', '#', ';', '-', '.', ' ', '%'),
  fc.constantFrom('é', '\u00a0', '\u200b', '\u202e', '\u0301', '😀', '\ufeff', '\u2028', '𝔘', '\uffff'),
  fc.integer({ min: 1, max: 31 }).map((code) => String.fromCharCode(code)),
  fc.constantFrom('99999999999999999999', '1e999', '-', ' or ', ' and not ', '\\x00'),
);

export type Mutation = { kind: 'truncate' | 'insert' | 'delete' | 'swap'; at: number; text: string };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('truncate', 'insert', 'insert', 'delete', 'swap'),
  at: fc.nat(),
  text: INSERTED,
});

function mutate(input: string, m: Mutation): string {
  const at = input.length ? m.at % (input.length + 1) : 0;
  switch (m.kind) {
    case 'truncate':
      return input.slice(0, at);
    case 'insert':
      return input.slice(0, at) + m.text + input.slice(at);
    case 'delete':
      return input.slice(0, at) + input.slice(at + 1);
    case 'swap':
      return input.slice(0, at) + input.slice(at + 1, at + 2) + input.slice(at, at + 1) + input.slice(at + 2);
  }
}

/** One to three character mutations. */
export const mutations: fc.Arbitrary<Mutation[]> = fc.array(mutation, { minLength: 1, maxLength: 3 });

/** `text` after `ms`. */
export const applyMutations = (text: string, ms: readonly Mutation[]): string => ms.reduce(mutate, text);
