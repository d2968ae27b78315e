// Every class of ODSQL error: a QueryLangError whose message names the problem and the clause(s).
import { expect } from 'chai';
import { compileQuery, node, QueryLangError, type QueryParams } from '../../src/odsql/index.js';
import { SOURCE } from './fixture.js';

/** The QueryLangError a query raises. */
function errorOf(params: QueryParams): QueryLangError {
  try {
    compileQuery(SOURCE, params);
  } catch (error) {
    expect(error).to.be.instanceOf(QueryLangError);
    return error as QueryLangError;
  }
  throw new Error(`no error for ${JSON.stringify(params).slice(0, 200)}`);
}

describe('ODSQL errors', () => {
  describe('syntax errors carry the token and its position', () => {
    it('in the public wording of supplement 5', () => {
      const error = errorOf({ where: ['garbage=='] });
      expect(error.message).to.equal(
        'unexpected = at position 8 in garbage==. Clause(s) containing the error(s): where.',
      );
      expect(error.problem).to.equal('unexpected = at position 8 in garbage==');
      expect(error.clauses).to.deep.equal(['where']);
    });

    it('with the tokens that could have come instead', () => {
      const { syntax } = errorOf({ where: ['n = 1 and'] });
      expect(syntax?.position).to.equal(9);
      expect(syntax?.token).to.equal('end of input');
      expect(syntax?.expected).to.include.members(['a name', 'a string', 'a number', 'NOT', '(']);
      expect(errorOf({ orderBy: 'n descending' }).syntax?.expected).to.include.members(['ASC', 'DESC', ',']);
    });

    it('at the end of the input, on an unknown character, in each clause', () => {
      expect(errorOf({ where: ['n = 1 and'] }).problem).to.equal(
        'unexpected end of input at position 9 in n = 1 and',
      );
      expect(errorOf({ where: ['n # 1'] }).problem).to.equal('unexpected # at position 2 in n # 1');
      expect(errorOf({ select: 'count(*' }).clauses).to.deep.equal(['select']);
      expect(errorOf({ groupBy: 'name,' }).clauses).to.deep.equal(['group_by']);
      expect(errorOf({ orderBy: 'n descending' }).problem).to.equal(
        'unexpected descending at position 2 in n descending',
      );
    });

    it('names the where parameter that fails among several', () => {
      const error = errorOf({ where: ['n > 1', "name = 'x"] });
      expect(error.problem).to.equal("unexpected ' at position 7 in name = 'x");
    });
  });

  describe('names', () => {
    it('an unknown field', () => {
      const error = errorOf({ select: 'foo' });
      expect(error.message).to.equal('Unknown field: foo. Clause(s) containing the error(s): select.');
    });

    it('an unknown function, with the nearest names as a hint', () => {
      expect(errorOf({ where: ['lenght(name) > 3'] }).problem).to.equal(
        'Unknown function: lenght (did you mean length?)',
      );
      expect(errorOf({ select: 'cont(*)' }).problem).to.match(/^Unknown function: cont \(did you mean count/);
      expect(errorOf({ select: 'frobnicate(n)' }).problem).to.equal('Unknown function: frobnicate');
    });

    it('a reserved word used as a name without back quotes', () => {
      expect(errorOf({ select: 'year' }).problem).to.equal(
        'year is a reserved keyword: write it in back quotes (`year`)',
      );
    });

    it('labels that refer to each other in a circle', () => {
      expect(errorOf({ select: 'a as b, b as a' }).problem).to.match(/^Circular reference to label/);
    });

    it('two different outputs under one name', () => {
      expect(errorOf({ select: 'n as v, x as v' }).problem).to.equal('Duplicate output name: v');
      expect(errorOf({ select: 'n as v, x as V' }).problem).to.equal(
        'Duplicate output name: V (names are case-insensitive: v)',
      );
    });
  });

  describe('clauses', () => {
    const cases: [QueryParams, string][] = [
      [{ where: ['count(*) > 1'] }, 'Aggregation count() is not allowed in where (only in select, order_by)'],
      [{ select: "search(name, 'x')" }, 'Function search() is not allowed in select (only in where)'],
      [{ select: 'range(n, 10)' }, 'Function range() is not allowed in select (only in group_by)'],
      [{ where: ['random(1) > 0'] }, 'Function random() is not allowed in where (only in order_by)'],
      [
        { groupBy: 'length(name)' },
        'Function length() is not allowed in group_by (only in select, where, order_by)',
      ],
      [
        { orderBy: 'envelope(p)', groupBy: 'name' },
        'Aggregation envelope() is not allowed in order_by (only in select)',
      ],
      [{ select: 'name, count(*)' }, 'Field name must be in group_by'],
      [{ select: 'n', groupBy: 'name' }, 'Field n must be in group_by'],
      // A comparison with an aggregation is an aggregate too (found by test/api/fuzz.test.ts: a 500).
      [{ select: '(not n < avg(n))' }, 'Field n must be in group_by'],
      [{ select: 'x > 1 and n < avg(n)' }, 'Field x must be in group_by'],
      [{ groupBy: 'name', orderBy: 'name, count(*)' }, 'Aggregations must come before fields in order_by'],
      [{ orderBy: 'count(*)' }, 'An aggregation in order_by needs group_by or an aggregated select'],
      [
        { select: 'lower(include(n))' },
        'include() can only be used alone in select, not inside an expression',
      ],
      [{ select: 'include(n) as x' }, 'include() cannot take a label'],
      // Arithmetic is a group key (issue 40), but only over group keys and numbers.
      [{ groupBy: 'n + ifnull(n, x + 1)' }, 'n + ifnull(n, x + 1) cannot be used in group_by'],
      [{ groupBy: 'ifnull(n, x + 1)' }, 'ifnull(n, x + 1) cannot be used in group_by'],
    ];
    for (const [params, problem] of cases) {
      it(`${JSON.stringify(params)}: ${problem}`, () => {
        expect(errorOf(params).problem).to.equal(problem);
      });
    }
  });

  describe('types and arguments', () => {
    const cases: [QueryParams, string][] = [
      [{ where: ['name > 3'] }, 'Cannot compare a text (name) with an integer in comparison >'],
      [{ where: ['d = 3'] }, 'Cannot compare a date (d) with an integer in comparison ='],
      [
        { where: ['year(name) = 2020'] },
        'Function year() expects a date or datetime as argument 1, got a text (name)',
      ],
      [{ select: 'sum(name)' }, 'Function sum() expects a number as argument 1, got a text (name)'],
      [{ select: 'n + name' }, 'Operator + expects numbers, got a text (name)'],
      [{ where: ['n'] }, 'where expects a boolean expression, got an integer (n)'],
      [{ where: ['n > 1 and name'] }, 'AND expects a boolean expression, got a text (name)'],
      [{ where: ['n = null'] }, 'null can only be tested with IS NULL or IS NOT NULL, not in comparison ='],
      [{ where: ['ok > true'] }, 'Booleans can only be compared with = or !='],
      [{ where: ['name like 3'] }, 'LIKE expects a text, got an integer'],
      [{ select: 'length(name, 2)' }, 'Function length() expects 1 argument(s), got 2'],
      [{ select: 'sum(distinct n)' }, 'DISTINCT is not allowed in sum()'],
      [{ select: 'percentile(x, 150)' }, 'percentile() expects a percentage between 0 and 100, got 150'],
      [
        { select: "geom'POINT(1 2)'" },
        "A geometry literal (geom'...') can only be an argument of a geo function",
      ],
      [{ select: 'date_format(d, name)' }, 'Function date_format() expects a string literal as argument 2'],
      [
        { where: ["within_distance(p, geom'POINT(1)', 1km)"] },
        'Invalid geometry literal "POINT(1)": a position is two numbers, longitude then latitude',
      ],
      [{ groupBy: 'range(n, 0)' }, 'range() on a number expects a positive width'],
      [{ groupBy: 'range(n, 10, 5)' }, 'range() bounds must be increasing'],
      [{ groupBy: "range(n, date'2020', 5)" }, 'range() expects number bounds, optionally * at either end'],
      [{ groupBy: 'geo_cluster(p, 30)' }, 'geo_cluster() precision must be from 1 to 24, got 30'],
      [{ orderBy: 'p' }, 'Cannot sort on p'],
      [{ timezone: 'Mars/Olympus' }, 'Unknown timezone: Mars/Olympus'],
    ];
    for (const [params, problem] of cases) {
      it(`${JSON.stringify(params)}: ${problem}`, () => {
        expect(errorOf(params).problem).to.equal(problem);
      });
    }

    it('an invalid date literal', () => {
      expect(errorOf({ where: ["d > date'2020-13-45'"] }).problem).to.match(/^Invalid date literal/);
    });
  });

  describe('limits', () => {
    it('nesting deeper than 64 levels, caught while lexing', () => {
      expect(errorOf({ where: [`${'('.repeat(65)}n = 1${')'.repeat(65)}`] }).problem).to.match(
        /too deeply nested/,
      );
      expect(errorOf({ where: [`${'NOT '.repeat(70)}ok`] }).problem).to.match(/too deeply nested/);
      expect(errorOf({ select: `${'-'.repeat(70)}n` }).problem).to.match(/too deeply nested/);
    });

    it('nesting deeper than 64 levels in the tree', () => {
      const deep = Array.from({ length: 70 }, () => 'lower(').join('') + 'name' + ')'.repeat(70);
      expect(errorOf({ select: deep }).problem).to.match(/too deeply nested|Query too deeply nested/);
    });

    it('more than 2000 nodes in a query', () => {
      const many = Array.from({ length: 1100 }, (_, i) => `n = ${i}`).join(' or ');
      expect(errorOf({ where: [many] }).problem).to.match(/^Query too complex: more than 2000 terms/);
    });

    it('more than 1000 values in an IN list', () => {
      const list = Array.from({ length: 1001 }, (_, i) => i).join(',');
      expect(errorOf({ where: [`n in (${list})`] }).problem).to.equal(
        'IN list too long: 1001 values (at most 1000)',
      );
    });

    it('a literal longer than 10000 characters', () => {
      expect(errorOf({ where: [`name = '${'x'.repeat(10_001)}'`] }).problem).to.equal(
        'Literal too long: 10001 characters (at most 10000)',
      );
    });

    it('a clause of more than 10000 tokens or 100000 characters', () => {
      expect(errorOf({ select: Array.from({ length: 6000 }, () => 'n').join(',') }).problem).to.match(
        /more than 10000 tokens/,
      );
      expect(errorOf({ where: [`n = 1${' '.repeat(100_000)}`] }).problem).to.match(
        /^Query too long: 100005 characters/,
      );
    });

    it('heavy functions count for more: fifty full-text searches pass the budget, forty do not', () => {
      const searches = (count: number) => Array.from({ length: count }, (_, i) => `'word${i}'`).join(' or ');
      expect(errorOf({ where: [searches(50)] }).problem).to.match(/^Query too complex/);
      expect(() => compileQuery(SOURCE, { where: [searches(40)] })).not.to.throw();
    });

    it('a label reused so often that its copies pass the node budget', () => {
      const label = Array.from({ length: 60 }, (_, i) => `n * ${i}`).join(' + ');
      const uses = Array.from({ length: 20 }, () => 'v > 1').join(' and ');
      expect(errorOf({ select: `${label} as v`, where: [uses] }).problem).to.match(/^Query too complex/);
    });
  });

  it('attributes an error of a condition built by code to its parameter', () => {
    const error = errorOf({
      extraWhere: [{ expr: node.comparison('=', node.field('nope'), node.string('x')), clause: 'refine' }],
    });
    expect(error.message).to.equal('Unknown field: nope. Clause(s) containing the error(s): refine.');
  });
});
