// The catalog section of the bench's report: each figure at 1,000, 10,000 and 100,000 datasets
// beside issue 42's target, marked where the target is missed.
import { CATALOG_TARGETS as T, CATALOG_TURNS, type CatalogResult } from './catalog.js';
import { markdownTable } from './harness.js';

type Figure = readonly [
  label: string,
  target: string,
  value: (r: CatalogResult) => number,
  limit: number | null,
  digits: number,
];

const FIGURES: readonly Figure[] = [
  [
    'ready, no index file (s)',
    `< ${T.readyMs / 1000}`,
    (r) => r.readyWithoutIndexMs / 1000,
    T.readyMs / 1000,
    1,
  ],
  [
    'ready with the index file (s)',
    `< ${T.readyMs / 1000}`,
    (r) => r.readyWithIndexMs / 1000,
    T.readyMs / 1000,
    1,
  ],
  ['resident after the requests (MB)', `< ${T.residentMB}`, (r) => r.residentMB, T.residentMB, 0],
  ['peak resident since the start (MB)', '', (r) => r.peakMB, null, 0],
  ['catalog list p50 (ms)', `< ${T.listMs}`, (r) => r.listMs, T.listMs, 1],
  ['catalog search p50 (ms)', `< ${T.searchMs}`, (r) => r.searchMs, T.searchMs, 1],
  ['catalog facets p50 (ms)', `< ${T.facetsMs}`, (r) => r.facetsMs, T.facetsMs, 1],
  [
    'SIGHUP after one change, until served (s)',
    `< ${T.reloadMs / 1000}`,
    (r) => r.reloadMs / 1000,
    T.reloadMs / 1000,
    2,
  ],
  ['cold dataset minus warm (ms)', `< ${T.coldOverWarmMs}`, (r) => r.coldMs - r.warmMs, T.coldOverWarmMs, 1],
  ['cold dataset, 10 records (ms)', '', (r) => r.coldMs, null, 1],
  ['warm dataset, 10 records (ms)', '', (r) => r.warmMs, null, 1],
];

/** The section's lines under its title. */
export function catalogText(results: readonly CatalogResult[]): string[] {
  const cell = ([, , value, limit, digits]: Figure, r: CatalogResult): string => {
    const v = value(r);
    return `${v.toFixed(digits)}${limit !== null && v >= limit ? ' ✘' : ''}`;
  };
  return [
    'Portals of copies of seattle-weather (`bench/catalog-portal.ts`: distinct ids, titles, keywords, themes, publishers; data',
    'files hard-linked), built once in data/bench/catalog-<N>, each served alone (`serve`, default flags, response cache off).',
    'Ready: from the spawn to the listening line, first with the index file removed, then with it. List: the first page of 10',
    `(offsets 0-${CATALOG_TURNS.requests + 1}); search: a bare string matching one copy's keyword, another each time; facets: every`,
    `catalog facet; ${CATALOG_TURNS.requests} timed after 2 warm-ups. SIGHUP: one dataset.json retitled, median of ${CATALOG_TURNS.reloads} turns until its`,
    `lookup answers the new title. Cold: a 10-row page of a dataset never opened, then the same page again (median of ${CATALOG_TURNS.cold}). ✘: target missed.`,
    '',
    markdownTable(
      ['figure', 'target', ...results.map((r) => r.datasets.toLocaleString('en'))],
      FIGURES.map((f) => [f[0], f[1], ...results.map((r) => cell(f, r))]),
    ),
  ];
}
