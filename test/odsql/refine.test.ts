// refine and exclude as syntax trees: each facet value builds the tree its ODSQL text parses to,
// and a value the facet cannot read is a QueryLangError naming refine or exclude.
import { expect } from 'chai';
import type { Field, FieldType } from '../../src/catalog/schema.js';
import { facetConditions, QueryLangError, type RefinedFacet } from '../../src/odsql/index.js';
import { parseWhereClause } from '../../src/odsql/parse.js';

/** The tree without spans, for comparisons. */
const shape = (expr: unknown): unknown =>
  JSON.parse(JSON.stringify(expr, (k, v: unknown) => (k === 'span' ? undefined : v)));

const facet = (type: FieldType, kind: RefinedFacet['kind'] = 'plain', disjunctive = false): RefinedFacet => ({
  field: { name: 'f', label: 'f', type, description: null, annotations: {} } satisfies Field,
  kind,
  separator: '>',
  disjunctive,
});

/** Each case: the facet, its refined and excluded values, the where texts of the conditions expected. */
const CASES: [RefinedFacet, string[], string[], string[]][] = [
  [facet('text'), ['a "quoted" \\ value'], [], ['`f` = "a \\"quoted\\" \\\\ value"']],
  [facet('int'), ['-12'], [], ['`f` = -12']],
  [facet('double'), ['1.5e3'], ['2'], ['`f` = 1500', 'NOT `f` = 2']],
  [facet('boolean'), ['TRUE'], [], ['`f` = true']],
  [facet('date', 'date'), ['2013/2'], [], ["`f` >= date'2013-02-01' AND `f` < date'2013-03-01'"]],
  [
    facet('datetime', 'date'),
    [],
    ['2012/12/31'],
    ["NOT (`f` >= date'2012-12-31' AND `f` < date'2013-01-01')"],
  ],
  [facet('text', 'hierarchical'), ['USA>CA'], [], ['`f` = "USA>CA" OR startswith(`f`, "USA>CA>")']],
  [facet('text'), ['a', 'b'], ['c', 'd'], ['`f` = "a" AND `f` = "b"', 'NOT `f` = "c"', 'NOT `f` = "d"']],
  [facet('text', 'plain', true), ['a', 'b', 'c'], [], ['`f` = "a" OR `f` = "b" OR `f` = "c"']],
];

describe('refine and exclude conditions', () => {
  it('build the tree of their ODSQL text, refine then one NOT per excluded value', () => {
    for (const [refined, refine, exclude, texts] of CASES) {
      const conditions = facetConditions(refined, refine, exclude);
      expect(conditions.map((c) => c.clause)).to.deep.equal([
        ...(refine.length ? ['refine'] : []),
        ...exclude.map(() => 'exclude'),
      ]);
      expect(shape(conditions.map((c) => c.expr))).to.deep.equal(
        shape(texts.map(parseWhereClause)),
        `${refine.join()} / ${exclude.join()}`,
      );
    }
  });

  it('refuse values the facet cannot read, naming the parameter', () => {
    const refused: [RefinedFacet, string[], string[], RegExp][] = [
      [facet('int'), ['1,5'], [], /Invalid value 1,5 for numeric facet f.*refine\.$/],
      [facet('double'), [], ['0x10'], /Invalid value 0x10 for numeric facet f.*exclude\.$/],
      [facet('boolean'), ['yes'], [], /Invalid value yes for boolean facet f.*refine\.$/],
      [facet('date', 'date'), ['2013/02/30'], [], /Invalid date facet value 2013\/02\/30.*refine\.$/],
      [facet('datetime', 'date'), [], ['2013/13'], /Invalid date facet value 2013\/13.*exclude\.$/],
    ];
    for (const [refined, refine, exclude, message] of refused) {
      expect(() => facetConditions(refined, refine, exclude))
        .to.throw(QueryLangError)
        .with.property('message')
        .match(message);
    }
  });
});
