// ClickHouse's spelling of the shaped cells of the exports (src/odsql/shape.ts), written so that
// each cell's bytes equal DuckDB's for the same value: doubles' texts in DuckDB's forms
// (number-text.ts), JSON built as text (json-text.ts) and handed as a JSON value, a point (the
// tuple (lon, lat)) and a shape (its presented Feature) turned into each geometry form.
import type { OutputColumn } from '../../types.js';
import { RECORD_ID_OUTPUT } from '../../hidden-columns.js';
import { TURTLE_ESCAPES, type Cell, type CellType } from '../../shape.js';
import type { CellSpelling } from '../dialect.js';
import {
  columnJsonSql,
  featureGeometrySql,
  ifPoint,
  jsonStringSql,
  jsonTextOf,
  jsonValue,
  latOf,
  lonOf,
} from './json-text.js';
import { duckdbDoubleTextSql, jsonDoubleSql } from './number-text.js';
import { quoteIdentifier, quoteString } from '../../../sql/clickhouse-quoting.js';

const XML_ESCAPES: readonly (readonly [string, string])[] = [
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&quot;'],
];

/** A nullable double's text through `text` (a writer of a double known not null). */
const doubleText = (sql: string, text: (x: string) => string): string =>
  `if(isNull(${sql}), NULL, ${text(`assumeNotNull(${sql})`)})`;

/** A list's items that are not null, joined; null for an empty list (ClickHouse's arrays stand for null so). */
const joined = (list: string, separator: string): string =>
  `if(empty(${list}), NULL, arrayStringConcat(${presentItems(list)}, ${quoteString(separator)}))`;

/** The items of a list that are not null, as texts that are never null. */
const presentItems = (list: string): string =>
  `arrayMap(${ITEM} -> assumeNotNull(${ITEM}), arrayFilter(${ITEM} -> isNotNull(${ITEM}), ${list}))`;

/**
 * The name of a list's element inside an 'each' cell: capitalised, so that no field (lowercase
 * letters, digits and _) is shadowed by it.
 */
const ITEM = 'Item';

/** A nullable number as a double that is not null (for writers that test it first). */
const double = (sql: string): string => `toFloat64(assumeNotNull(${sql}))`;

/** Characters encodeURIComponent leaves as they are. */
const URI_KEPT = "^[A-Za-z0-9_.!~*'()-]$";

/** A text percent-encoded byte by byte as encodeURIComponent does (an IRI's path segment). */
function uriComponentSql(text: string): string {
  const byte = `substring(${text}, ${ITEM} + 1, 1)`;
  const encoded = `if(match(${byte}, ${quoteString(URI_KEPT)}), ${byte}, concat('%', hex(${byte})))`;
  const bytes = `arrayStringConcat(arrayMap(${ITEM} -> ${encoded}, range(length(${text}))), '')`;
  // `.` and `..` would be dot segments of the path.
  return `if(${text} IN ('.', '..'), replaceAll(${text}, '.', '%2E'), ${bytes})`;
}

/** Characters XML 1.0 forbids, removed. */
const xmlAllowed = (sql: string): string =>
  `replaceRegexpAll(${sql}, '[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F]', '')`;

/** A position [x,y(,z)] -> "x y", then the remaining brackets -> parentheses (DuckDB's regex). */
const POSITION = '\\[(-?[0-9][^,\\[\\]]*),(-?[0-9][^,\\[\\]]*)(,[^\\[\\]]*)?\\]';

/**
 * A GeoJSON geometry's text as WKT, as DuckDB's RDF writer writes it, from the text itself
 * (ClickHouse 18.16 reads JSON by key only): the members of a collection are its objects without
 * braces inside (a collection in a collection is not written).
 */
function wktSql(geometry: string, nested = false): string {
  const type = `visitParamExtractString(${geometry}, 'type')`;
  const coordinates = `visitParamExtractRaw(${geometry}, 'coordinates')`;
  const body = `replaceAll(replaceAll(replaceRegexpAll(${coordinates}, ${quoteString(POSITION)}, '\\\\1 \\\\2'), '[', '('), ']', ')')`;
  const members = nested
    ? 'NULL'
    : `concat('GEOMETRYCOLLECTION (', arrayStringConcat(arrayMap(${ITEM} -> assumeNotNull(${wktSql(ITEM, true)}), extractAll(visitParamExtractRaw(${geometry}, 'geometries'), '\\\\{[^{}]*\\\\}')), ', '), ')')`;
  return `multiIf(${type} = 'GeometryCollection', ${members}, ${coordinates} = '[]', concat(upperUTF8(${type}), ' EMPTY'), ${type} = 'Point', concat('POINT (', ${body}, ')'), concat(upperUTF8(${type}), ' ', ${body}))`;
}

/**
 * The lexical form of a value of `type` in RDF: XSD's numbers (NaN, INF), points and shapes as
 * WKT, other values as text without the characters XML 1.0 forbids.
 */
function rdfLexicalSql(type: OutputColumn['type'], value: string): string {
  if (type === 'double' || type === 'number') {
    const d = double(value);
    const text = `multiIf(isNaN(${d}), 'NaN', isInfinite(${d}), if(${d} > 0, 'INF', '-INF'), ${duckdbDoubleTextSql(d)})`;
    return `if(isNull(${value}), NULL, ${text})`;
  }
  if (type === 'geo_point_2d') {
    const [lon, lat] = [lonOf(value), latOf(value)].map((x) => doubleText(x, duckdbDoubleTextSql));
    return ifPoint(value, `concat('POINT (', ${lon}, ' ', ${lat}, ')')`);
  }
  if (type === 'geo_shape') {
    const geometry = featureGeometrySql(jsonTextOf(value));
    return `if(isNull(${geometry}), NULL, ${wktSql(`assumeNotNull(${geometry})`)})`;
  }
  return xmlAllowed(`toString(${value})`);
}

/**
 * Excel's serial day number of a date's or datetime's ISO text at its wall clock (the offset
 * dropped): days since 1899-12-30 and the fraction of the day. ClickHouse's dates start in 1970,
 * after Excel's 1900 leap day.
 */
function excelSerialSql(text: string, from: 'date' | 'datetime'): string {
  const seconds =
    from === 'date'
      ? `toInt64(toDateTime(toDate(${text}), 'UTC'))`
      : `toInt64(toDateTime(replaceOne(substring(${text}, 1, 19), 'T', ' '), 'UTC'))`;
  return `if(isNull(${text}), NULL, ${seconds} / 86400 + 25569)`;
}

/** Casts to the storage types of writers of typed values; texts of dates read back as dates. */
const CASTS = {
  int: (sql) => `CAST(${sql} AS Nullable(Int64))`,
  double: (sql) => `toFloat64(${sql})`,
  bool: (sql) => `CAST(${sql} AS Nullable(Enum8('false' = 0, 'true' = 1)))`,
  date: (sql) => `toDate(${sql})`,
  instant: (sql) => `parseDateTimeBestEffort(${sql})`,
  'text-list': (sql) => sql,
} as const satisfies Record<CellType, (sql: string) => string>;

/** The JSON text of a cell that is not itself JSON (a value, a text, a literal). */
function jsonOf(cell: Cell, sql: (cell: Cell) => string): string {
  switch (cell.kind) {
    case 'value':
      return columnJsonSql(cell.column, sql(cell));
    case 'literal':
      return cell.value === null ? 'NULL' : quoteString(JSON.stringify(cell.value));
    case 'json-value':
    case 'object':
    case 'geometry':
      return jsonTextOf(sql(cell));
    default:
      return jsonStringSql(sql(cell));
  }
}

/** A JSON object of entries (`nonNull`: only those whose value is not null). */
function objectSql(
  entries: readonly (readonly [string, Cell])[],
  nonNull: boolean,
  sql: (cell: Cell) => string,
): string {
  const members = entries.map(([key, value]) => {
    const json = jsonOf(value, sql);
    return nonNull
      ? `if(isNull(${json}), '', concat(${quoteString(JSON.stringify(key) + ':')}, assumeNotNull(${json})))`
      : `concat(${quoteString(JSON.stringify(key) + ':')}, ifNull(${json}, 'null'))`;
  });
  if (members.length === 0) return `'{}'`;
  const list = nonNull
    ? `arrayStringConcat(arrayFilter(member -> member != '', [${members.join(', ')}]), ',')`
    : members.length === 1
      ? members[0]!
      : `concat(${members.join(`, ',', `)})`;
  return `concat('{', ${list}, '}')`;
}

export const CELLS: CellSpelling = {
  // A boolean is stored as a UInt8: cast to the Enum8 read as a boolean (presenters do so but in
  // native output), so that Parquet keeps it a boolean.
  value: ({ column }, _sql, output) =>
    output === 'native' && column.type === 'boolean' && !column.multivalued
      ? CASTS.bool(quoteIdentifier(column.key))
      : quoteIdentifier(column.key),
  text: ({ column, separator }, _sql, output) => {
    const name = quoteIdentifier(column.key);
    if (column.multivalued) return joined(name, separator);
    if (column.type === 'geo_point_2d') {
      const lat = doubleText(latOf(name), duckdbDoubleTextSql);
      return ifPoint(name, `concat(${lat}, ', ', ${doubleText(lonOf(name), duckdbDoubleTextSql)})`);
    }
    if (column.type === 'double' || column.type === 'number') return doubleText(name, duckdbDoubleTextSql);
    // Presented as a Feature (a JSON value), but stored text in native output.
    if (column.type === 'geo_shape' && output !== 'native') return jsonTextOf(name);
    return `toString(${name})`;
  },
  'number-text': ({ cell, wholeBelow }, sql) => {
    const n = sql(cell);
    if (cell.kind === 'value' && cell.column.type === 'int') return `toString(${n})`;
    return doubleText(
      n,
      (x) =>
        `if(abs(${x}) < ${wholeBelow} AND ${x} = trunc(${x}), toString(toInt64(${x})), ${duckdbDoubleTextSql(`toFloat64(${x})`)})`,
    );
  },
  finite: ({ cell }, sql) => `if(isFinite(toFloat64(${sql(cell)})), ${sql(cell)}, NULL)`,
  cast: ({ column, type }) => CASTS[type](quoteIdentifier(column.key)),
  'record-id': () => quoteIdentifier(RECORD_ID_OUTPUT),
  literal: ({ value }) => (value === null ? 'NULL' : quoteString(value)),
  concat: ({ parts }, sql) =>
    parts.length === 1 ? sql(parts[0]!) : `concat(${parts.map((p) => `toString(${sql(p)})`).join(', ')})`,
  coalesce: ({ cell, otherwise }, sql) => `coalesce(${sql(cell)}, ${sql(otherwise)})`,
  join: ({ cell, separator }, sql) => joined(sql(cell), separator),
  xml: ({ cell }, sql) => {
    const stripped = `replaceRegexpAll(${sql(cell)}, '[\\\\x00-\\\\x08\\\\x0B\\\\x0C\\\\x0E-\\\\x1F]', '')`;
    return XML_ESCAPES.reduce(
      (inner, [from, to]) => `replaceAll(${inner}, ${quoteString(from)}, ${quoteString(to)})`,
      stripped,
    );
  },
  'json-text': ({ cell }, sql) => jsonOf(cell, sql),
  'when-present': ({ column, cell }, sql) => {
    const name = quoteIdentifier(column.key);
    const absent = column.multivalued
      ? `empty(${name})`
      : column.type === 'geo_point_2d'
        ? `isNull(${lonOf(name)})`
        : `isNull(${name})`;
    return `if(${absent}, NULL, ${sql(cell)})`;
  },
  separated: ({ parts, separator }, sql) =>
    `arrayStringConcat(${presentItems(`[${parts.map((p) => `toNullable(toString(${sql(p)}))`).join(', ')}]`)}, ${quoteString(separator)})`,
  each: ({ column, item }, sql) => `arrayMap(${ITEM} -> ${sql(item)}, ${quoteIdentifier(column.key)})`,
  item: () => ITEM,
  'rdf-lexical': ({ type, of }, sql) => rdfLexicalSql(type, sql(of)),
  'turtle-string': ({ cell }, sql) =>
    TURTLE_ESCAPES.reduce(
      (inner, [from, to]) => `replaceAll(${inner}, ${quoteString(from)}, ${quoteString(to)})`,
      sql(cell),
    ),
  'uri-component': ({ cell }, sql) => uriComponentSql(sql(cell)),
  'excel-serial': ({ cell, from }, sql) => excelSerialSql(sql(cell), from),
  // DuckDB's JSON writer writes a struct as it writes a JSON object.
  object: ({ form, entries }, sql) => jsonValue(objectSql(entries, form === 'json-non-null', sql)),
  'json-value': ({ column }) => {
    const name = quoteIdentifier(column.key);
    if (column.type === 'geo_point_2d') {
      const [lat, lon] = [latOf(name), lonOf(name)].map((x) => doubleText(x, jsonDoubleSql));
      return jsonValue(ifPoint(name, `concat('[', ${lat}, ',', ${lon}, ']')`));
    }
    if (column.type === 'geo_shape') return jsonValue(featureGeometrySql(jsonTextOf(name)));
    return jsonValue(columnJsonSql(column, name));
  },
  geometry: ({ column, form }) => {
    if (column === null) return form === 'text' ? 'NULL' : jsonValue('CAST(NULL AS Nullable(String))');
    const name = quoteIdentifier(column.key);
    const text = form === 'text' ? duckdbDoubleTextSql : jsonDoubleSql;
    const geometry =
      column.type === 'geo_shape'
        ? featureGeometrySql(jsonTextOf(name))
        : ifPoint(
            name,
            `concat('{"type":"Point","coordinates":[', ${doubleText(lonOf(name), text)}, ',', ${doubleText(latOf(name), text)}, ']}')`,
          );
    return form === 'text' ? geometry : jsonValue(geometry);
  },
};

/** The longest text of a cell's values, in bytes. */
export const maxBytesSql = (sql: string): string => `max(length(toString(${sql})))`;
