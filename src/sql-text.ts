// DuckDB quoting for the SQL written outside the compiler (engine, exports, ingest, search): said
// once, in odsql's DuckDB dialect (src/odsql/dialect/duckdb/quoting.ts).
export { quoteIdentifier, quoteString } from './odsql/dialect/duckdb/quoting.js';
