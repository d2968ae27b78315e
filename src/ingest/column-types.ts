// DuckDB column types of a source -> field types: one entry per DuckDB type id, so a new id is a compile error.
import { DuckDBTypeId, type DuckDBType } from '@duckdb/node-api';
import type { FieldType } from '../catalog/schema.js';

/**
 * How a source column becomes a field: stored as a field type, or `infer`red from its text
 * (CSV cells, JSON strings, integers too wide for BIGINT), a `list` of scalars (multivalued
 * text), or `json` text for anything that nests.
 */
export type ColumnKind =
  'boolean' | 'int' | 'double' | 'date' | 'datetime' | 'text' | 'infer' | 'list' | 'json';

const KIND_BY_TYPE_ID = {
  [DuckDBTypeId.INVALID]: 'text',
  [DuckDBTypeId.BOOLEAN]: 'boolean',
  [DuckDBTypeId.TINYINT]: 'int',
  [DuckDBTypeId.SMALLINT]: 'int',
  [DuckDBTypeId.INTEGER]: 'int',
  [DuckDBTypeId.BIGINT]: 'int',
  [DuckDBTypeId.UTINYINT]: 'int',
  [DuckDBTypeId.USMALLINT]: 'int',
  [DuckDBTypeId.UINTEGER]: 'int',
  // Wider than BIGINT: an int when every value fits, else whatever its text says.
  [DuckDBTypeId.UBIGINT]: 'infer',
  [DuckDBTypeId.HUGEINT]: 'infer',
  [DuckDBTypeId.UHUGEINT]: 'infer',
  [DuckDBTypeId.BIGNUM]: 'infer',
  [DuckDBTypeId.INTEGER_LITERAL]: 'infer',
  [DuckDBTypeId.FLOAT]: 'double',
  [DuckDBTypeId.DOUBLE]: 'double',
  [DuckDBTypeId.DECIMAL]: 'double',
  [DuckDBTypeId.DATE]: 'date',
  [DuckDBTypeId.TIMESTAMP]: 'datetime',
  [DuckDBTypeId.TIMESTAMP_S]: 'datetime',
  [DuckDBTypeId.TIMESTAMP_MS]: 'datetime',
  [DuckDBTypeId.TIMESTAMP_NS]: 'datetime',
  [DuckDBTypeId.TIMESTAMP_TZ]: 'datetime',
  [DuckDBTypeId.TIME]: 'text',
  [DuckDBTypeId.TIME_NS]: 'text',
  [DuckDBTypeId.TIME_TZ]: 'text',
  [DuckDBTypeId.INTERVAL]: 'text',
  [DuckDBTypeId.VARCHAR]: 'text',
  [DuckDBTypeId.STRING_LITERAL]: 'text',
  [DuckDBTypeId.BLOB]: 'text',
  [DuckDBTypeId.BIT]: 'text',
  [DuckDBTypeId.UUID]: 'text',
  [DuckDBTypeId.ENUM]: 'text',
  [DuckDBTypeId.SQLNULL]: 'text',
  [DuckDBTypeId.ANY]: 'text',
  [DuckDBTypeId.LIST]: 'list',
  [DuckDBTypeId.ARRAY]: 'list',
  [DuckDBTypeId.STRUCT]: 'json',
  [DuckDBTypeId.MAP]: 'json',
  [DuckDBTypeId.UNION]: 'json',
  [DuckDBTypeId.VARIANT]: 'json',
  [DuckDBTypeId.GEOMETRY]: 'json',
} as const satisfies Record<DuckDBTypeId, ColumnKind>;

/** Kinds whose values nest: a list of them is not a list of scalars. */
const NESTED_KINDS: ReadonlySet<ColumnKind> = new Set(['list', 'json']);

/**
 * The kind of a source column. Text from an untyped source (CSV, JSON) is inferred; the JSON
 * type (DuckDB's alias for mixed JSON values) is inferred too, and becomes json_blob if any
 * value is an object or an array.
 */
export function columnKind(type: DuckDBType, untypedText: boolean): ColumnKind {
  if (type.alias === 'JSON') return 'infer';
  const kind: ColumnKind = KIND_BY_TYPE_ID[type.typeId];
  if (kind === 'text' && type.typeId === DuckDBTypeId.VARCHAR && untypedText) return 'infer';
  if (kind === 'list' && 'valueType' in type && isNested(type.valueType)) return 'json';
  return kind;
}

function isNested(type: DuckDBType): boolean {
  return type.alias === 'JSON' || NESTED_KINDS.has(KIND_BY_TYPE_ID[type.typeId]);
}

/** Is this a JSON-typed column (values may be objects or arrays)? */
export function isJsonType(type: DuckDBType): boolean {
  return type.alias === 'JSON';
}

/** The field type and SQL conversion of a column whose kind decides both. */
export const DIRECT_CONVERSIONS: Readonly<
  Record<Exclude<ColumnKind, 'infer'>, { type: FieldType; convert: (column: string) => string }>
> = {
  boolean: { type: 'boolean', convert: (c) => c },
  int: { type: 'int', convert: (c) => `CAST(${c} AS BIGINT)` },
  double: { type: 'double', convert: (c) => `CAST(${c} AS DOUBLE)` },
  date: { type: 'date', convert: (c) => c },
  // The session time zone is UTC, so a naive timestamp is read as UTC.
  datetime: { type: 'datetime', convert: (c) => `CAST(${c} AS TIMESTAMPTZ)` },
  text: { type: 'text', convert: (c) => `nullif(CAST(${c} AS VARCHAR), '')` },
  list: { type: 'text', convert: (c) => multivaluedFromList(`CAST(${c} AS VARCHAR[])`) },
  json: { type: 'json_blob', convert: (c) => `CAST(to_json(${c}) AS VARCHAR)` },
};

/** A VARCHAR[] with null and empty items dropped, and null when nothing is left. */
export function multivaluedFromList(list: string): string {
  return `nullif(list_filter(${list}, x -> x IS NOT NULL AND x <> ''), []::VARCHAR[])`;
}

/** Splits a text on `separatorSql` (a SQL string literal) into trimmed, non-empty items. */
export function multivaluedFromText(text: string, separatorSql: string): string {
  return multivaluedFromList(`list_transform(string_split(${text}, ${separatorSql}), x -> trim(x))`);
}
