// JSON text built in ClickHouse SQL with DuckDB's bytes (ClickHouse 18.16 writes no JSON of its
// own): strings escaped as DuckDB's JSON writer escapes them (\" \\ \b \t \n \f \r, other control
// characters as \u00XX in capitals, the rest as UTF-8), doubles in its JSON form, lists as arrays.
// A JSON value of a result is wrapped in a one-element tuple, the type the ClickHouse engine reads
// as JSON rather than text (src/engine/clickhouse/types.ts).
import type { OutputColumn } from '../../types.js';
import { jsonDoubleSql } from './number-text.js';
import { quoteString } from '../../../sql/clickhouse-quoting.js';

const NAMED: ReadonlyMap<number, string> = new Map([
  [8, '\\b'],
  [9, '\\t'],
  [10, '\\n'],
  [12, '\\f'],
  [13, '\\r'],
]);

/** Each character JSON escapes, and its escape; the backslash first, so escapes stay as written. */
const ESCAPES: readonly (readonly [string, string])[] = [
  ['\\', '\\\\'],
  ['"', '\\"'],
  // From 1: a SQL literal holds no NUL (quoteString refuses it), and a portal's texts hold none.
  ...Array.from({ length: 31 }, (_, i): [string, string] => [
    String.fromCharCode(i + 1),
    NAMED.get(i + 1) ?? `\\u${(i + 1).toString(16).toUpperCase().padStart(4, '0')}`,
  ]),
];

/** A text as a JSON string (null stays null). */
export function jsonStringSql(text: string): string {
  // The character escapes only where a control character is there to replace (the usual case: none).
  const controls = ESCAPES.slice(2).reduce(
    (inner, [from, to]) => `replaceAll(${inner}, ${quoteString(from)}, ${quoteString(to)})`,
    `replaceAll(replaceAll(${text}, '\\\\', '\\\\\\\\'), '"', '\\\\"')`,
  );
  const escaped = `if(match(${text}, '[\\\\x00-\\\\x1F]'), ${controls}, replaceAll(replaceAll(${text}, '\\\\', '\\\\\\\\'), '"', '\\\\"'))`;
  return `concat('"', ${escaped}, '"')`;
}

/** A JSON text wrapped as the JSON value of a result. */
export const jsonValue = (text: string): string => `tuple(${text})`;

/** The JSON text of a JSON value of a result. */
export const jsonTextOf = (value: string): string => `tupleElement(${value}, 1)`;

/** A geo_point_2d's longitude and latitude (ClickHouse holds it as the tuple (lon, lat)). */
export const lonOf = (point: string): string => `tupleElement(${point}, 1)`;
export const latOf = (point: string): string => `tupleElement(${point}, 2)`;

/** `sql` when the point is there, else null (a missing point is (NULL, NULL)). */
export const ifPoint = (point: string, sql: string): string => `if(isNull(${lonOf(point)}), NULL, ${sql})`;

/** A point as DuckDB's JSON writer writes its struct: {"lon":..,"lat":..}. */
export const pointJsonSql = (point: string): string =>
  ifPoint(
    point,
    `concat('{"lon":', ${jsonDoubleSql(lonOf(point))}, ',"lat":', ${jsonDoubleSql(latOf(point))}, '}')`,
  );

/** The GeoJSON Feature DuckDB presents a geo_shape as, around its stored geometry text. */
export const FEATURE_HEAD = '{"type":"Feature","geometry":';
export const FEATURE_TAIL = ',"properties":{}}';

/** The geometry text inside a presented Feature's text. */
export const featureGeometrySql = (feature: string): string =>
  `substring(${feature}, ${FEATURE_HEAD.length + 1}, length(${feature}) - ${FEATURE_HEAD.length + FEATURE_TAIL.length})`;

/**
 * The JSON text of an output column's value as DuckDB's JSON writer writes it (null stays null):
 * texts and the texts of dates as strings, doubles in DuckDB's form, lists as arrays, a point as
 * its struct, a shape as its Feature (as presented: already JSON).
 */
export function columnJsonSql(column: OutputColumn, sql: string): string {
  if (column.multivalued)
    return `if(empty(${sql}), NULL, concat('[', arrayStringConcat(arrayMap(item -> ${jsonStringSql('item')}, ${sql}), ','), ']'))`;
  switch (column.type) {
    case 'int':
      return `toString(${sql})`;
    case 'double':
    case 'number':
      return `if(isNull(${sql}), NULL, ${jsonDoubleSql(`assumeNotNull(${sql})`)})`;
    case 'boolean':
      return `toString(${sql})`;
    case 'geo_point_2d':
      return pointJsonSql(sql);
    case 'geo_shape':
    case 'json':
      return jsonTextOf(sql);
    default:
      return jsonStringSql(sql);
  }
}
