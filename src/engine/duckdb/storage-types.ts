// DuckDB's types of the portal's field types, as ingest stores them and the engine defines tables.
import type { FieldType, TableColumn } from '../../catalog/schema.js';
import { quoteString } from '../../sql/quoting.js';

/**
 * How each field type is stored in data.parquet. Every module that reads or writes dataset
 * columns relies on this table: a datetime is an instant (TIMESTAMPTZ), a point a
 * {lon, lat} struct, a shape its GeoJSON geometry as text, a multivalued text a list.
 */
export const STORAGE_TYPES = {
  text: 'VARCHAR',
  int: 'BIGINT',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  date: 'DATE',
  datetime: 'TIMESTAMP WITH TIME ZONE',
  geo_point_2d: 'STRUCT(lon DOUBLE, lat DOUBLE)',
  geo_shape: 'VARCHAR',
  file: 'VARCHAR',
  json_blob: 'VARCHAR',
} as const satisfies Record<FieldType, string>;

/** The SELECT of JSON rows (the text of parameter $1) typed by the storage types of `columns`. */
export function jsonRowsSql(columns: readonly TableColumn[]): string {
  const structure = Object.fromEntries(
    columns.map((c) => [c.name, c.multivalued ? `${STORAGE_TYPES[c.type]}[]` : STORAGE_TYPES[c.type]]),
  );
  return `SELECT unnest(from_json($1, ${quoteString(JSON.stringify([structure]))}), recursive := true)`;
}
