// The DuckDB dialect: what the compiler writes for DuckDB over Parquet, by family of spelling.
import type { Dialect, GroupingSpelling } from '../dialect.js';
import { AGGREGATES } from './aggregates.js';
import { CELLS, maxBytesSql } from './cells.js';
import { DATES, dateGranule } from './date.js';
import { facetCounts } from './facet-counts.js';
import { GEO, geoCluster } from './geo.js';
import { LISTS, unnest } from './lists.js';
import { ARITHMETIC_SQL, COMPARISON_SQL, GRANULE_SQL } from './operators.js';
import { PRESENTERS } from './present.js';
import { quoteIdentifier, quoteString } from '../../../sql/quoting.js';
import { range } from './range.js';
import { SEARCH } from './search.js';
import { TEXT } from './text.js';
import { VALUES } from './values.js';

/** DuckDB's quoting, operators and spellings: every function of the registry. */
export const duckdbDialect: Dialect = Object.freeze({
  name: 'duckdb',
  label: 'DuckDB',
  quoteIdentifier,
  quoteString,
  comparison: COMPARISON_SQL,
  granule: GRANULE_SQL,
  arithmetic: ARITHMETIC_SQL,
  ...VALUES,
  lists: LISTS,
  dateGranule,
  present: PRESENTERS,
  unnest,
  storageOrder: true,
  aliasesShadowColumns: false,
  // One aggregation gives a page of groups and their number.
  groupCount: () => 'count(*) OVER ()',
  facetCounts,
  limit: (limit: number | null, offset: number) =>
    `${limit !== null ? ` LIMIT ${limit}` : ''}${offset > 0 ? ` OFFSET ${offset}` : ''}`,
  functions: new Map([...TEXT, ...DATES, ...SEARCH, ...GEO, ...AGGREGATES]),
  groupings: new Map<string, GroupingSpelling>([
    ['range', range],
    ['geo_cluster', geoCluster],
  ]),
  cells: CELLS,
  maxBytes: maxBytesSql,
});
