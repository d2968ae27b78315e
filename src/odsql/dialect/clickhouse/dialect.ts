// The ClickHouse dialect (ClickHouse 18.16): what the compiler writes for a dataset held in a
// ClickHouse table (one column per field, plus `_recordid` and `_ordinal`), spelling only what
// ClickHouse answers exactly as DuckDB does, and search() and suggest() as a substring match
// (search.ts: DuckDB's fuzzy token match has no equal in 18.16), and the geo functions on points
// (geo.ts: distances, boxes, relations with a constant geometry). Not spelled, so refused with a
// 400 at analysis: the geo aggregations and geo_cluster, now(), date_format(), json_format() (no
// JSON validation), random() (another hash); geo functions on a geo_shape field are refused when
// compiled.
import type { Dialect, GroupingSpelling } from '../dialect.js';
import { COMPARISON_SQL, GRANULE_SQL } from '../duckdb/operators.js';
import { AGGREGATES } from './aggregates.js';
import { CELLS, maxBytesSql } from './cells.js';
import { DATES, dateGranule } from './date.js';
import { facetCounts } from './facet-counts.js';
import { GEO } from './geo.js';
import { LISTS, unnest } from './lists.js';
import { PRESENTERS } from './present.js';
import { quoteIdentifier, quoteString } from '../../../sql/clickhouse-quoting.js';
import { range } from './range.js';
import { SEARCH } from './search.js';
import { TEXT } from './text.js';
import { VALUES } from './values.js';

/**
 * The LIMIT of every row: an OFFSET needs a LIMIT in ClickHouse 18.16, and one near 2^64 or 2^63
 * overflows with the offset added (an error, or garbage read past the rows); 2^53 - 1 is safe.
 */
const ALL_ROWS = String(Number.MAX_SAFE_INTEGER);

export const clickhouseDialect: Dialect = Object.freeze({
  name: 'clickhouse',
  label: 'ClickHouse',
  quoteIdentifier,
  quoteString,
  // Comparisons and granule tests are standard SQL, written as DuckDB's.
  comparison: COMPARISON_SQL,
  granule: GRANULE_SQL,
  ...VALUES,
  lists: LISTS,
  dateGranule,
  present: PRESENTERS,
  unnest,
  // Shards answer in any order.
  storageOrder: false,
  // `SELECT toString(t) AS t ... WHERE t >= ...` compares the text.
  aliasesShadowColumns: true,
  // No window functions in 18.16, and a scalar subquery scans the table a second time: the
  // number of groups is FORMAT JSON's rows_before_limit_at_least, told beside the page's rows
  // (Engine.queryPage). Exact for a grouped query, whose LIMIT comes after the whole aggregation:
  // checked on a Distributed table over two shards, with and without ORDER BY, with OFFSET (past
  // the last group too), WHERE, HAVING, arrayJoin keys and 250,000 groups. Not for a page of
  // records (a Distributed top-N told 100,000 rows of 250,000, one shard's): those keep their
  // count query.
  groupCount: null,
  facetCounts,
  limit: (limit: number | null, offset: number) =>
    limit === null && offset === 0
      ? ''
      : ` LIMIT ${limit ?? ALL_ROWS}${offset > 0 ? ` OFFSET ${offset}` : ''}`,
  functions: new Map([...TEXT, ...DATES, ...SEARCH, ...AGGREGATES, ...GEO]),
  groupings: new Map<string, GroupingSpelling>([['range', range]]),
  cells: CELLS,
  maxBytes: maxBytesSql,
});
