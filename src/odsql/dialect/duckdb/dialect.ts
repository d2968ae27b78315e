// The DuckDB dialect: what the compiler writes for DuckDB over Parquet, by family of spelling.
import type { Dialect, GroupingSpelling } from '../dialect.js';
import { AGGREGATES } from './aggregates.js';
import { DATES } from './date.js';
import { GEO, geoCluster } from './geo.js';
import { ARITHMETIC_SQL, COMPARISON_SQL, GRANULE_SQL } from './operators.js';
import { quoteIdentifier, quoteString } from './quoting.js';
import { range } from './range.js';
import { SEARCH } from './search.js';
import { TEXT } from './text.js';

/** DuckDB's quoting, operators and function spellings: every function of the registry. */
export const duckdbDialect: Dialect = Object.freeze({
  name: 'duckdb',
  label: 'DuckDB',
  quoteIdentifier,
  quoteString,
  comparison: COMPARISON_SQL,
  granule: GRANULE_SQL,
  arithmetic: ARITHMETIC_SQL,
  functions: new Map([...TEXT, ...DATES, ...SEARCH, ...GEO, ...AGGREGATES]),
  groupings: new Map<string, GroupingSpelling>([
    ['range', range],
    ['geo_cluster', geoCluster],
  ]),
});
