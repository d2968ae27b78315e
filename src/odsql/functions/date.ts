// The meaning of ODSQL's dates and times: literals, now()'s parameters, date_format()'s patterns,
// range() units and the output languages (their DuckDB spelling: dialect/duckdb/date*.ts).
export { parseDateLiteral } from './date-literal.js';
export { nowSpec } from './date-now.js';
export { parseDateFormat } from './date-format.js';
export { LANGS, type Lang } from './date-names.js';
export type { DateGranularity, DateLiteral, DateReading } from './date-literal.js';
export type { DateLikeType } from '../types.js';
