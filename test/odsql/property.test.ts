// Property tests (fast-check): random ODSQL never raises anything but QueryLangError, and what compiles runs.
import { expect } from 'chai';
import fc from 'fast-check';
import { compileQuery, FUNCTION_NAMES, QueryLangError, type QueryParams } from '../../src/odsql/index.js';
import { FIELDS, openFixture, SOURCE, type Fixture } from './fixture.js';

const FIELD_NAMES = FIELDS.map((f) => (f.name === 'year' ? '`year`' : f.name));

/** Tokens of every lexical kind, valid or not, for token-soup inputs. */
const TOKENS = [
  ...FIELD_NAMES,
  ...FUNCTION_NAMES,
  'and',
  'OR',
  'not',
  'as',
  'ASC',
  'desc',
  'distinct',
  'is',
  'in',
  'like',
  'to',
  'null',
  'TRUE',
  'false',
  '=',
  '!=',
  '<>',
  '<',
  '>',
  '<=',
  '>=',
  ':',
  '+',
  '-',
  '*',
  '/',
  '(',
  ')',
  '[',
  ']',
  ',',
  '..',
  ';',
  '#',
  '"',
  "'",
  '`',
  '\\',
  '1',
  '-2.5',
  '10km',
  '1month',
  '3M',
  "'text'",
  '"dq"',
  "'it\\'s'",
  "date'2020'",
  "date'2020-13-45'",
  "geom'POINT(2 48)'",
  'geom\'{"type":"Point","coordinates":[1,2]}\'',
  'geom',
  'date',
  'read_csv',
  'getenv',
  '`a b`',
  'ab*',
  '--',
  '/*',
  '*/',
];

const tokenSoup = fc
  .array(fc.constantFrom(...TOKENS), { maxLength: 12 })
  .chain((tokens) =>
    fc
      .array(fc.constantFrom('', ' ', '  ', '\n'), { minLength: tokens.length, maxLength: tokens.length })
      .map((spaces) => tokens.map((t, i) => `${spaces[i]}${t}`).join('')),
  );

const quoted = (text: string): string => `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;

const leaf = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FIELD_NAMES) },
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((d) => String(Math.abs(d)).replace(/e.*$/, '')),
  fc.string({ maxLength: 8 }).map(quoted),
  fc.constantFrom(
    "date'2020'",
    "date'2020-06-15'",
    "date'2020/01/31 10:00'",
    "date'2021-03-28T01:30:00Z'",
    "date'nope'",
    "geom'POINT(2.35 48.85)'",
    "geom'POLYGON((2 48, 3 48, 3 49, 2 49, 2 48))'",
    '10km',
    '1month',
    '2M',
    '*',
    'true',
    'null',
    '[1, 2, 3]',
    ']10, 20[',
    'days=-1',
  ),
);

const { expr } = fc.letrec<{ expr: string; operator: string; call: string; unary: string; test: string }>(
  (tie) => ({
    expr: fc.oneof({ depthSize: 'small' }, leaf, tie('operator'), tie('call'), tie('unary'), tie('test')),
    operator: fc
      .tuple(
        tie('expr'),
        fc.constantFrom('+', '-', '*', '/', '=', '!=', '<', '>=', 'and', 'or', 'like', ':'),
        tie('expr'),
      )
      .map(([a, op, b]) => `(${a} ${op} ${b})`),
    call: fc
      .tuple(
        fc.constantFrom(...FUNCTION_NAMES, 'nope'),
        fc.boolean(),
        fc.array(tie('expr'), { maxLength: 4 }),
      )
      .map(([name, distinct, args]) => `${name}(${distinct ? 'distinct ' : ''}${args.join(', ')})`),
    unary: fc.tuple(fc.constantFrom('not ', '-'), tie('expr')).map(([op, e]) => `${op}${e}`),
    test: fc
      .tuple(
        tie('expr'),
        fc.constantFrom('is null', 'is not null', 'is true', 'in [1..5[', "in ('a', 'b')", 'in tags'),
      )
      .map(([e, t]) => `${e} ${t}`),
  }),
);

const labelled = fc
  .tuple(expr, fc.option(fc.constantFrom('a', 'b', '`x y`')))
  .map(([e, l]) => (l ? `${e} as ${l}` : e));
const list = (item: fc.Arbitrary<string>) =>
  fc.array(item, { minLength: 1, maxLength: 3 }).map((items) => items.join(', '));

const queries: fc.Arbitrary<QueryParams> = fc.record(
  {
    select: list(labelled),
    where: fc.array(expr, { maxLength: 2 }),
    groupBy: list(labelled),
    orderBy: list(fc.tuple(expr, fc.constantFrom('', ' asc', ' desc')).map(([e, d]) => `${e}${d}`)),
    timezone: fc.constantFrom('UTC', 'Europe/Paris', 'America/New_York'),
  },
  { requiredKeys: [] },
);

const soupQueries: fc.Arbitrary<QueryParams> = fc.record(
  { select: tokenSoup, where: fc.array(tokenSoup, { maxLength: 2 }), groupBy: tokenSoup, orderBy: tokenSoup },
  { requiredKeys: [] },
);

/** Well-typed expressions, so that most queries compile and the execution property has work to do. */
const typed = fc.letrec<{ num: string; text: string; bool: string }>((tie) => ({
  num: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('n', 'x', '`year`', '0', '7', '2.5', '-3'),
    fc
      .tuple(tie('num'), fc.constantFrom('+', '-', '*', '/'), tie('num'))
      .map(([a, op, b]) => `(${a} ${op} ${b})`),
    tie('text').map((t) => `length(${t})`),
    fc.constantFrom('year(d)', 'month(t)', 'day(t)', 'hour(t)', 'minute(d)', 'second(t)', 'ifnull(n, 0)'),
    tie('num').map((e) => `-${e}`),
  ),
  text: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(
      'name',
      "'a'",
      "'O\\'Brien'",
      "date_format(d, 'yyyy-MM')",
      "date_format(t, 'EEEE d MMMM')",
    ),
    fc.string({ maxLength: 6 }).map(quoted),
    tie('text').map((t) => `lower(${t})`),
    tie('text').map((t) => `ifnull(${t}, 'z')`),
  ),
  bool: fc.oneof(
    { depthSize: 'small' },
    fc
      .tuple(tie('num'), fc.constantFrom('=', '!=', '<', '>', '<=', '>='), tie('num'))
      .map(([a, op, b]) => `${a} ${op} ${b}`),
    fc
      .tuple(tie('text'), fc.constantFrom('=', '!=', 'like'), tie('text'))
      .map(([a, op, b]) => `${a} ${op} ${b}`),
    fc.tuple(tie('bool'), fc.constantFrom('and', 'or'), tie('bool')).map(([a, op, b]) => `(${a} ${op} ${b})`),
    tie('bool').map((b) => `not ${b}`),
    fc.constantFrom(
      'ok',
      'ok is false',
      'name is null',
      'tags is not null',
      'n in [1..50[',
      "d in ]date'2020'..date'2021-06-01']",
      'x in (1.5, 0, 7)',
      "'red' in tags",
      "tags = 'blue'",
      "d > date'2020-01-15'",
      "t <= date'2020-06-30T12:00'",
      't < now(days=-1)',
      "search(name, 'alp')",
      "suggest(*, 'ga')",
      "startswith(name, 'A')",
      "within_distance(p, geom'POINT(2.35 48.85)', 10km)",
      'in_bbox(p, 40, -80, 55, 20)',
      "intersects(s, geom'POLYGON((2 48, 3 48, 3 49, 2 49, 2 48))')",
      "'gamma'",
    ),
  ),
}));

const AGGREGATES = [
  'count(*)',
  'count(name)',
  'count(distinct tags)',
  'sum(n)',
  'avg(x)',
  'min(d)',
  'max(t)',
  'median(x)',
  'percentile(n, 75)',
  'bbox(p)',
];
const GROUPS = [
  'name',
  'ok',
  '`year`',
  'tags',
  'range(n, 10)',
  'range(n, *, 10, 50, *)',
  "range(d, *, date'2020', *)",
  'range(d, 1month)',
  'range(t, 1d)',
  'year(d)',
  'lower(name)',
  "date_format(t, 'yyyy')",
  'geo_cluster(p, 5)',
];

const executable: fc.Arbitrary<QueryParams> = fc.oneof(
  fc.record({
    select: list(
      fc.oneof(
        typed.num,
        typed.text,
        typed.bool,
        fc.constantFrom('*', 'include(n*)', 't', 'p', 's', 'j', 'json_format(j)'),
      ),
    ),
    where: fc.array(typed.bool, { maxLength: 2 }),
    orderBy: list(
      fc.tuple(fc.oneof(typed.num, typed.text), fc.constantFrom('', ' desc')).map(([e, d]) => `${e}${d}`),
    ),
    timezone: fc.constantFrom('UTC', 'Europe/Paris', 'Pacific/Chatham'),
  }),
  fc.record({
    groupBy: fc.subarray(GROUPS, { minLength: 1, maxLength: 2 }).map((g) => g.join(', ')),
    select: fc.subarray(AGGREGATES, { minLength: 1 }).map((a) => a.join(', ')),
    where: fc.array(typed.bool, { maxLength: 1 }),
    orderBy: fc.constantFrom(undefined, 'count(*) desc', 'random(3)'),
    timezone: fc.constantFrom('UTC', 'Asia/Kolkata'),
  }),
);

/** Compiles; a QueryLangError is a fine answer, any other exception fails the property. */
function compileOrReject(params: QueryParams): ReturnType<typeof compileQuery> | null {
  try {
    return compileQuery(SOURCE, params);
  } catch (error) {
    if (error instanceof QueryLangError) return null;
    throw error;
  }
}

describe('ODSQL properties (fast-check)', () => {
  let fixture: Fixture;
  before(async () => {
    fixture = await openFixture();
  });
  after(async () => fixture.close());

  it('token soup: compiles or raises QueryLangError, nothing else', () => {
    fc.assert(
      fc.property(soupQueries, (params) => {
        compileOrReject(params);
      }),
      { numRuns: 3000, seed: 1 },
    );
  });

  it('random well-formed expressions: compiles or raises QueryLangError', () => {
    fc.assert(
      fc.property(queries, (params) => {
        compileOrReject(params);
      }),
      { numRuns: 3000, seed: 2 },
    );
  });

  it('whatever compiles runs in DuckDB without error, and counts', async () => {
    let compiled = 0;
    await fc.assert(
      fc.asyncProperty(executable, async (params) => {
        const query = compileOrReject({ ...params, limit: 5 });
        if (!query) return;
        compiled++;
        await fixture.engine.query(query.sql);
        await fixture.engine.query(query.countSql);
      }),
      { numRuns: 600, seed: 3 },
    );
    expect(compiled).to.be.greaterThan(400);
  });
});
