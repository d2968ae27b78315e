// v1 for the fuzz test: the q language (words, phrases, field queries, ranges, dates written as v1
// writes them, #now() with its parameters, the # functions) over one dataset's fields, and the
// requests of every v1 route and of the portal's download links, which read the same parameters.
import fc from 'fast-check';
import type { Clauses, FieldKinds } from './fuzz-odsql.js';
import { facetValue, optional, present, smallInt, type Request } from './fuzz-params.js';
import { CATALOG, CATALOG_CLAUSES, CLAUSES, DATASETS, FACETS } from './fuzz-sample.js';

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
    facetValue.map((v) => `#search("${v}")`),
    fc
      .tuple(
        geo,
        fc.constantFrom('"37.6, -122.4"', '37.6,-122.4', '"x,y"', '"91,0"'),
        fc.constantFrom('1000', '1e9', '-5'),
      )
      .map(([f, c, m]) => `#distance(${f ? `${f}, ` : ''}${c}, ${m})`),
    // One string holding the center and the distance.
    fc.constantFrom('"37.6, -122.4, 5000"', '"47.6,-122.3,1e9"', '"1,2"', '""').map((a) => `#distance(${a})`),
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

/** The geofilters, sort and facets of v1 over dataset `id`: what search, download and the download links read. */
function v1Params(id: string) {
  const facets = FACETS[id]!;
  const q = v1Query(DATASETS[id]!, CLAUSES.get(id)!, facetValue);
  return fc.tuple(
    optional('q', q, 4),
    optional('facet', fc.constantFrom(...facets)),
    fc.option(
      fc
        .tuple(fc.constantFrom(...facets), facetValue, fc.boolean())
        .map(([f, v, refine]): readonly [string, string] => [`${refine ? 'refine' : 'exclude'}.${f}`, v]),
    ),
    optional(
      'sort',
      fc.oneof(
        fc.constantFrom(...Object.values(DATASETS[id]!).flat()).map((f) => `-${f}`),
        fc.constantFrom('dist', '-dist', 'dist,-dist'),
      ),
    ),
    optional('q.extra', q, 0),
    optional('lang', fc.constantFrom('FR', 'En', 'xx'), 0),
    optional('geofilter.distance', fc.constantFrom('40,-100,100000', '47.6,-122.3,1e9', '-47.6,122.3,0')),
    optional('geofilter.polygon', fc.constantFrom('(30,-125),(30,-100),(50,-100)', '(0,0),(1,1),(0,0)')),
  );
}

/** An export's rows and format: few rows, a cheap format. */
const downloadParams = fc
  .tuple(fc.constantFrom('csv', 'json', 'geojson', 'CSV', 'jsonl'), fc.integer({ min: 0, max: 5 }))
  .map(([format, rows]) => [['format', format] as const, ['rows', String(rows)] as const]);

/**
 * Requests of v1 over dataset `id` (search, download, the dataset and a record, the dataset
 * search) and of the portal's download link `/explore/dataset/<id>/download/`.
 */
export function v1Requests(id: string): fc.Arbitrary<Request> {
  const dataset = ['dataset', id] as const;
  return fc.oneof(
    fc
      .tuple(
        v1Params(id),
        optional('rows', fc.oneof(smallInt, fc.constant('-1'))),
        optional('start', smallInt, 0),
      )
      .map(([p, ...page]) => ({
        path: '/api/records/1.0/search',
        params: [dataset, ...present([...p, ...page])],
      })),
    fc.tuple(v1Params(id), downloadParams).map(([p, download]) => ({
      path: '/api/records/1.0/download',
      params: [dataset, ...download, ...present([...p])],
    })),
    fc
      .tuple(
        v1Params(id),
        downloadParams,
        optional('use_labels_for_header', fc.constantFrom('true', 'false', 'x'), 0),
        optional('csv_separator', fc.constantFrom(';', ',', '\t', '|', '::'), 0),
        fc.constantFrom('', '/'),
      )
      .map(([p, download, labels, separator, slash]) => ({
        path: `/explore/dataset/${id}/download${slash}`,
        params: [...download, ...present([...p, labels, separator])],
      })),
    fc.constantFrom('SFO', 'r1', 'x').map((record) => ({
      path: `/api/datasets/1.0/${id}/records/${record}`,
      params: [],
    })),
    fc.constant({ path: `/api/datasets/1.0/${id}`, params: [] }),
    fc
      .tuple(
        optional('q', v1Query(CATALOG, CATALOG_CLAUSES, facetValue), 4),
        optional('refine.theme', facetValue),
        optional('rows', smallInt),
      )
      .map((p) => ({ path: '/api/datasets/1.0/search', params: present(p) })),
  );
}
