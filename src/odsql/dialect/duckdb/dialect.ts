// The DuckDB dialect: what the compiler writes for DuckDB over Parquet, today the only engine.
import type { Dialect } from '../dialect.js';
import { ARITHMETIC_SQL, COMPARISON_SQL, GRANULE_SQL } from './operators.js';
import { quoteIdentifier, quoteString } from './quoting.js';

/** DuckDB's quoting and operator spelling. */
export const duckdbDialect: Dialect = Object.freeze({
  name: 'duckdb',
  quoteIdentifier,
  quoteString,
  comparison: COMPARISON_SQL,
  granule: GRANULE_SQL,
  arithmetic: ARITHMETIC_SQL,
});
