// DuckDB's spelling of the shaped cells of the exports (src/odsql/shape.ts): values as the
// compiled query presents them, their texts in the forms of the API, and the documents' parts
// (linked-data.ts, text-forms.ts).
import { RECORD_ID_OUTPUT } from '../../hidden-columns.js';
import type { CellType } from '../../shape.js';
import type { CellSpelling } from '../dialect.js';
import { rdfLexicalSql, turtleStringSql, uriComponentSql } from './linked-data.js';
import { quoteIdentifier, quoteString } from '../../../sql/quoting.js';
import { excelSerialSql, numberTextSql, xmlEscapedSql } from './text-forms.js';

/** The name of the element of a list inside an 'each' cell. */
const ITEM = 'v';

const CASTS = {
  int: 'BIGINT',
  double: 'DOUBLE',
  bool: 'BOOLEAN',
  date: 'DATE',
  instant: 'TIMESTAMPTZ',
  'text-list': 'VARCHAR[]',
} as const satisfies Record<CellType, string>;

/** DuckDB's SQL of each kind of cell; `sql` writes a cell nested inside it. */
export const CELLS: CellSpelling = {
  value: ({ column }) => quoteIdentifier(column.key),
  text: ({ column, separator }) => {
    const name = quoteIdentifier(column.key);
    if (column.multivalued) return `array_to_string(${name}, ${quoteString(separator)})`;
    if (column.type === 'geo_point_2d') {
      // As doubles: a point's storage type may be DECIMAL, whose text keeps trailing zeros.
      return `CASE WHEN ${name} IS NULL THEN NULL ELSE CAST(${name}.lat AS DOUBLE) || ', ' || CAST(${name}.lon AS DOUBLE) END`;
    }
    return `CAST(${name} AS VARCHAR)`;
  },
  'number-text': ({ cell, wholeBelow }, sql) => numberTextSql(sql(cell), wholeBelow),
  finite: ({ cell }, sql) => {
    const n = sql(cell);
    return `CASE WHEN isfinite(${n}) THEN ${n} END`;
  },
  cast: ({ column, type }) => `CAST(${quoteIdentifier(column.key)} AS ${CASTS[type]})`,
  'record-id': () => quoteIdentifier(RECORD_ID_OUTPUT),
  literal: ({ value }) => (value === null ? 'NULL' : quoteString(value)),
  concat: ({ parts }, sql) => parts.map(sql).join(' || '),
  coalesce: ({ cell, otherwise }, sql) => `coalesce(${sql(cell)}, ${sql(otherwise)})`,
  join: ({ cell, separator }, sql) => `array_to_string(${sql(cell)}, ${quoteString(separator)})`,
  xml: ({ cell }, sql) => xmlEscapedSql(sql(cell)),
  'json-text': ({ cell }, sql) => `CAST(${sql(cell)} AS VARCHAR)`,
  'when-present': ({ column, cell }, sql) => {
    const name = quoteIdentifier(column.key);
    const empty = column.multivalued ? ` OR len(${name}) = 0` : '';
    return `CASE WHEN ${name} IS NULL${empty} THEN NULL ELSE ${sql(cell)} END`;
  },
  separated: ({ parts, separator }, sql) =>
    `concat_ws(${[quoteString(separator), ...parts.map(sql)].join(', ')})`,
  each: ({ column, item }, sql) =>
    `list_transform(${quoteIdentifier(column.key)}, lambda ${ITEM}: ${sql(item)})`,
  item: () => ITEM,
  'rdf-lexical': ({ type, of }, sql) => rdfLexicalSql(type, sql(of)),
  'turtle-string': ({ cell }, sql) => turtleStringSql(sql(cell)),
  'uri-component': ({ cell }, sql) => uriComponentSql(sql(cell)),
  'excel-serial': ({ cell, from }, sql) => excelSerialSql(sql(cell), from),
  object: ({ form, entries }, sql) => {
    if (form === 'struct') return `{${entries.map(([k, v]) => `${quoteString(k)}: ${sql(v)}`).join(', ')}}`;
    if (form === 'json')
      return `json_object(${entries.map(([k, v]) => `${quoteString(k)}, ${sql(v)}`).join(', ')})`;
    const packed = entries.map(([k, v]) => `struct_pack(k := ${quoteString(k)}, v := ${sql(v)})`);
    return `to_json(map_from_entries(list_filter([${packed.join(', ')}], e -> e.v IS NOT NULL)))`;
  },
  'json-value': ({ column }) => {
    const name = quoteIdentifier(column.key);
    if (column.type === 'geo_point_2d')
      return `CASE WHEN ${name} IS NULL THEN NULL ELSE json_array(${name}.lat, ${name}.lon) END`;
    if (column.type === 'geo_shape') return `json_extract(${name}, '$.geometry')`;
    return `to_json(${name})`;
  },
  geometry: ({ column, form }) => {
    if (column === null) return form === 'json' ? 'NULL::JSON' : 'NULL';
    const name = quoteIdentifier(column.key);
    if (column.type === 'geo_shape') {
      const geometry = `json_extract(${name}, '$.geometry')`;
      return form === 'text' ? `CAST(${geometry} AS VARCHAR)` : geometry;
    }
    const point = {
      text: `'{"type":"Point","coordinates":[' || ${name}.lon || ',' || ${name}.lat || ']}'`,
      json: `json_object('type', 'Point', 'coordinates', json_array(${name}.lon, ${name}.lat))`,
      nested: `{'type': 'Point', 'coordinates': [${name}.lon, ${name}.lat]}`,
    }[form];
    return `CASE WHEN ${name} IS NULL THEN NULL ELSE ${point} END`;
  },
};

/** SQL of the longest text of a cell's values, in bytes. */
export const maxBytesSql = (sql: string): string => `max(strlen(CAST(${sql} AS VARCHAR)))`;
