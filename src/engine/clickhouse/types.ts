// How a portal field is held in a ClickHouse table, and what field a ClickHouse column is: the one
// table both directions read (loading a dataset into a cluster, attaching a table, reading
// ClickHouse's rows back). Written for ClickHouse 18.16 (Debian's), probed by hand:
// - Arrays and tuples cannot be Nullable. A multivalued text is `Array(String)`, and an empty
//   array stands for null (ingest never stores an empty list: src/ingest/column-types.ts).
// - geo_point_2d is `Tuple(Nullable(Float64), Nullable(Float64))`, (lon, lat) in that order as
//   pointInPolygon's (x, y) and greatCircleDistance's arguments want them; a null point is
//   (NULL, NULL). Named tuple elements parse in 18.16 but cannot be read by name: `p.1` is lon.
// - datetime is `DateTime('UTC')`: whole seconds (no DateTime64), 1970-01-01 to 2105; a value's
//   fraction of a second is dropped. date is `Date`: 1970-01-01 to 2105 as well. Day 0 and
//   second 0 are written as text '0000-00-00' and '0000-00-00 00:00:00' (ZERO_DATE_TEXT), though
//   they compare as 1970-01-01: a reader of ClickHouse's text makes them the epoch again.
// - boolean is `UInt8` (0 or 1): ClickHouse 18.16 has no boolean type.
import { RECORD_ID_COLUMN, ORDINAL_COLUMN, type Field, type FieldType } from '../../catalog/schema.js';

/** The ClickHouse type of each field type, single-valued, before Nullable. */
const COLUMN_TYPES = {
  text: 'String',
  int: 'Int64',
  double: 'Float64',
  boolean: 'UInt8',
  date: 'Date',
  datetime: "DateTime('UTC')",
  geo_point_2d: 'Tuple(Nullable(Float64), Nullable(Float64))',
  geo_shape: 'String',
  file: 'String',
  json_blob: 'String',
} as const satisfies Record<FieldType, string>;

/** The column type of a multivalued text (not Nullable: an empty array is null). */
export const MULTIVALUED_TYPE = 'Array(String)';

/** The hidden columns every ClickHouse dataset table has, as DuckDB's dataset view has them. */
export const HIDDEN_COLUMNS = [
  { name: RECORD_ID_COLUMN, type: 'String' },
  { name: ORDINAL_COLUMN, type: 'UInt64' },
] as const;

/** How ClickHouse 18.16 writes 1970-01-01, its day 0, as text (an instant at second 0 starts so). */
export const ZERO_DATE_TEXT = '0000-00-00';

/**
 * The type of a boolean in a result: ClickHouse's comparisons and UInt8 columns answer 0 or 1,
 * which a reader cannot tell from numbers (toMonth answers a UInt8 too), so the compiler casts a
 * boolean it selects to this Enum8, written `true` or `false`, and the engine reads it as one.
 */
export const BOOLEAN_TYPE = "Enum8('false' = 0, 'true' = 1)";

/**
 * A JSON value in a result (a GeoJSON Feature, an export's JSON object): ClickHouse 18.16 builds
 * no JSON, so the compiler writes its text and wraps it in a one-element tuple, the type the engine
 * reads as JSON rather than as a text to quote.
 */
export const isJsonValueType = (type: string): boolean => /^Tuple\((?:Nullable\()?String\)?\)$/.test(type);

/** Whether a result's column holds points: the tuples (lon, lat) of a geo_point_2d. */
export const isPointType = (type: string): boolean =>
  /^Tuple\((?:Nullable\()?Float64\)?, (?:Nullable\()?Float64\)?\)$/.test(type);

/** Whether a field holds a list of texts (the `multivalued` annotation). */
const multivalued = (field: Field): boolean => field.annotations.multivalued !== undefined;

/** The ClickHouse column type that holds `field`. */
export function columnTypeOf(field: Field): string {
  if (multivalued(field)) return MULTIVALUED_TYPE;
  if (field.type === 'geo_point_2d') return COLUMN_TYPES.geo_point_2d;
  return `Nullable(${COLUMN_TYPES[field.type]})`;
}

/** What field a ClickHouse column makes: its type, and whether it is a multivalued text. */
export interface FieldKind {
  readonly type: FieldType;
  readonly multivalued: boolean;
}

/** ClickHouse's scalar types (after Nullable, LowCardinality) -> the field type that holds them. */
const SCALAR_FIELDS: readonly (readonly [RegExp, FieldType])[] = [
  [/^(?:String|FixedString\(\d+\)|UUID|Enum(?:8|16)\(.*\))$/, 'text'],
  [/^UInt8$/, 'boolean'],
  [/^(?:U?Int(?:8|16|32|64))$/, 'int'],
  [/^(?:Float(?:32|64)|Decimal(?:32|64|128)?\(.*\))$/, 'double'],
  [/^Date$/, 'date'],
  [/^DateTime(?:\('[^']*'\))?$/, 'datetime'],
  [/^Tuple\((?:Nullable\()?Float64\)?, (?:Nullable\()?Float64\)?\)$/, 'geo_point_2d'],
];

/**
 * The field a ClickHouse column of type `columnType` is served as (see `duckportal attach`), or
 * null when the portal has no field type for it. A UInt8 is a boolean, as the portal writes one.
 */
export function fieldKindOf(columnType: string): FieldKind | null {
  const array = /^Array\((?:Nullable\()?(String|FixedString\(\d+\))\)?\)$/.exec(columnType);
  if (array) return { type: 'text', multivalued: true };
  const scalar = /^(?:Nullable|LowCardinality)\((.*)\)$/.exec(columnType)?.[1] ?? columnType;
  const inner = /^(?:Nullable|LowCardinality)\((.*)\)$/.exec(scalar)?.[1] ?? scalar;
  const found = SCALAR_FIELDS.find(([pattern]) => pattern.test(inner));
  return found ? { type: found[1], multivalued: false } : null;
}
