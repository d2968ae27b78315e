// v1's q for the fuzz test: words, phrases, field queries, ranges, dates written as v1 writes them,
// #now() with its parameters, and the # functions, over one dataset's fields.
import fc from 'fast-check';
import type { Clauses, FieldKinds } from './fuzz-odsql.js';

/** v1 date values: periods written with / or -, ISO instants, #now() with shifts and setters. */
const v1Date = fc.oneof(
  fc.constantFrom('2013', '2013/02', '2013/02/11', '2014-06', '2015-12-01T10:00:00Z', '2012/13', '*'),
  fc
    .array(
      fc.tuple(
        fc.constantFrom('years', 'months', 'weeks', 'days', 'hours', 'year', 'month', 'day', 'weekday', 'x'),
        fc.oneof(fc.integer({ min: -100, max: 100 }).map(String), fc.constantFrom('MO(2)', 'su', '1e3', '')),
      ),
      { maxLength: 3 },
    )
    .map((ps) => `#now(${ps.map(([n, v]) => `${n}=${v}`).join(', ')})`),
);

/** v1's # functions over a dataset's fields (`#distance` and `#polygon` latitude first). */
function v1Function(kinds: FieldKinds, facetValue: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const any = fc.constantFrom(...(Object.values(kinds).flat() as string[]), 'nofield');
  const geo = fc.constantFrom(...kinds.geo, '');
  return fc.oneof(
    fc
      .tuple(
        fc.constantFrom('null', 'NULL', 'exact', 'startswith', 'search', 'attr', 'nope'),
        any,
        facetValue,
      )
      .map(([fn, f, v]) => (fn.toLowerCase() === 'null' ? `#${fn}(${f})` : `#${fn}(${f}, "${v}")`)),
    fc
      .tuple(
        geo,
        fc.constantFrom('"37.6, -122.4"', '37.6,-122.4', '"x,y"', '"91,0"'),
        fc.constantFrom('1000', '1e9', '-5'),
      )
      .map(([f, c, m]) => `#distance(${f ? `${f}, ` : ''}${c}, ${m})`),
    fc
      .tuple(geo, fc.constantFrom('(30,-125),(30,-100),(50,-100)', '(0,0),(1,1)', '(1,2),(3,x),(5,6)'))
      .map(([f, p]) => `#polygon(${f ? `${f}, ` : ''}"${p}")`),
  );
}

/** v1's `q`: words, phrases, field queries, ranges, dates, # functions, operators, and ODSQL too. */
export function v1Query(
  kinds: FieldKinds,
  c: Clauses,
  facetValue: fc.Arbitrary<string>,
): fc.Arbitrary<string> {
  const fields = Object.values(kinds).flat() as string[];
  const dates = kinds.date.length ? kinds.date : fields;
  const term = fc.oneof(
    fc.string({ maxLength: 8, unit: 'grapheme' }),
    fc
      .tuple(fc.constantFrom(...fields), fc.constantFrom(':', '=', '==', '>=', '<', '>'), facetValue)
      .map((p) => p.join('')),
    fc
      .tuple(fc.constantFrom(...dates), fc.constantFrom(':', '>=', '<=', '>', '<'), v1Date)
      .map(([f, op, d]) => `${f}${op}${d}`),
    fc
      .tuple(
        fc.constantFrom(...fields),
        fc.constantFrom('[', ']'),
        v1Date,
        fc.constantFrom(' TO ', '..', ' '),
        v1Date,
        fc.constantFrom(']', '['),
      )
      .map(([f, open, low, to, high, close]) => `${f}:${open}${low}${to}${high}${close}`),
    fc.tuple(fc.constantFrom(...fields), facetValue, facetValue).map(([f, a, b]) => `${f}:(${a} OR ${b})`),
    v1Function(kinds, facetValue),
    fc.string({ maxLength: 8 }).map((s) => `"${s}"`),
    c.where,
  );
  return fc
    .tuple(term, fc.array(fc.tuple(fc.constantFrom(' AND ', ' OR ', ' NOT ', ' '), term), { maxLength: 3 }))
    .map(([first, rest]) => first + rest.map(([op, t]) => op + t).join(''));
}
