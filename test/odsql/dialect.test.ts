// The dialect seam: expressions are written in the spelling of the dialect the compiler receives
// in its context, so a second engine overrides only what differs (quoting, operators).
import { expect } from 'chai';
import type { QuerySource } from '../../src/odsql/source.js';
import { analyzeQuery } from '../../src/odsql/analyze.js';
import { compileAnalyzed } from '../../src/odsql/compile.js';
import type { Dialect } from '../../src/odsql/dialect/dialect.js';
import { duckdbDialect } from '../../src/odsql/dialect/duckdb/dialect.js';
import { QueryLangError } from '../../src/odsql/errors.js';
import { parseGroupBy, parseSelect, parseWhereClause } from '../../src/odsql/parse.js';
import { FIELDS } from './fixture.js';

const SOURCE: QuerySource = { table: 't', searchTable: null, fields: FIELDS };

/** The SQL of `where` over the fixture's fields, in `dialect`. */
function whereSql(where: string, dialect: Dialect): string {
  const analyzed = analyzeQuery(
    SOURCE.fields,
    {
      select: null,
      where: [{ expr: parseWhereClause(where), clause: 'where' }],
      groupBy: null,
      orderBy: null,
    },
    'UTC',
    dialect,
  );
  const { sql } = compileAnalyzed(SOURCE, analyzed, {
    page: { limit: null, offset: 0 },
    context: { dialect, source: SOURCE, timezone: 'UTC', lang: 'fr', output: 'json' },
  });
  return sql.slice(sql.indexOf(' WHERE '));
}

/** A dialect that differs from DuckDB's in quoting, one comparison and division only. */
const other: Dialect = {
  ...duckdbDialect,
  name: 'other',
  quoteIdentifier: (name) => `[${name}]`,
  quoteString: (value) => `N'${value}'`,
  comparison: { ...duckdbDialect.comparison, '!=': '!=' },
  arithmetic: { ...duckdbDialect.arithmetic, '/': (l, r) => `DIV(${l}, ${r})` },
};

describe('the dialect seam', () => {
  it("writes names, strings, comparisons and arithmetic in the context's dialect", () => {
    const where = 'name != "Lyon" AND x / 2 > 1 AND d = date\'2020-01-02\'';
    expect(whereSql(where, duckdbDialect)).to.equal(
      ` WHERE (("name" <> 'Lyon') AND (("x" / NULLIF(2, 0)) > 1) AND ("d" >= DATE '2020-01-02' AND "d" < DATE '2020-01-03'))`,
    );
    const sql = whereSql(where, other);
    expect(sql).to.include(`([name] != N'Lyon')`);
    expect(sql).to.include('(DIV([x], 2) > 1)');
    expect(sql).to.include('([d] >= ');
  });
});

describe('a function the dialect does not spell', () => {
  const withoutMedian: Dialect = {
    ...duckdbDialect,
    label: 'Other',
    functions: new Map([...duckdbDialect.functions].filter(([name]) => name !== 'median')),
    groupings: new Map(),
  };

  it('is refused at analysis with a QueryLangError naming it, the engine and the clause', () => {
    const analyze = (select: string | null, groupBy: string | null) =>
      analyzeQuery(
        SOURCE.fields,
        {
          select: select === null ? null : { text: select, items: parseSelect(select) },
          where: [],
          groupBy: groupBy === null ? null : { text: groupBy, items: parseGroupBy(groupBy) },
          orderBy: null,
        },
        'UTC',
        withoutMedian,
      );
    expect(() => analyze('median(x)', null))
      .to.throw(QueryLangError)
      .with.property('message')
      .that.equals(
        "median() is not available on this dataset's engine (Other). Clause(s) containing the error(s): select.",
      );
    expect(() => analyze('count(*)', 'range(x, 10)'))
      .to.throw(QueryLangError)
      .with.property('problem', "range() is not available on this dataset's engine (Other)");
    expect(analyze('avg(x), percentile(x, 50)', null).outputs).to.have.length(2);
  });
});
