// Value types of ODSQL expressions and the groups of them that operators and functions accept.
import type { FieldType } from '../catalog/schema.js';

/** The type of an expression's value: a field type, a parsed JSON value, or the null literal. */
export type ValueType = FieldType | 'json' | 'null';

/** The four clauses the grammar parses; function entries say in which ones they may appear. */
export type ClauseName = 'select' | 'where' | 'group_by' | 'order_by';

export const ALL_CLAUSES: readonly ClauseName[] = ['select', 'where', 'group_by', 'order_by'];

/** An output column of a compiled query: its key, its type and whether it holds a list. */
export interface OutputColumn {
  readonly key: string;
  readonly type: FieldType | 'number' | 'text' | 'json';
  readonly multivalued: boolean;
}

/** The two date-like field types: `date` is stored as DATE, `datetime` as TIMESTAMPTZ (an instant). */
export type DateLikeType = 'date' | 'datetime';

/** Types grouped by what can be done with them. */
export type TypeGroup = 'number' | 'text' | 'datelike' | 'boolean' | 'point' | 'geo' | 'other';

const GROUP_OF = {
  int: 'number',
  double: 'number',
  text: 'text',
  file: 'text',
  json_blob: 'text',
  date: 'datelike',
  datetime: 'datelike',
  boolean: 'boolean',
  geo_point_2d: 'point',
  geo_shape: 'geo',
  json: 'other',
  null: 'other',
} as const satisfies Record<ValueType, TypeGroup>;

/** The group a type belongs to (a point is also a geo value: see `isGeo`). */
export function groupOf(type: ValueType): TypeGroup {
  return GROUP_OF[type];
}

export const isNumeric = (type: ValueType): boolean => GROUP_OF[type] === 'number';
export const isTextual = (type: ValueType): boolean => GROUP_OF[type] === 'text';
export const isDateLike = (type: ValueType): type is DateLikeType => GROUP_OF[type] === 'datelike';
export const isGeo = (type: ValueType): type is 'geo_point_2d' | 'geo_shape' =>
  type === 'geo_point_2d' || type === 'geo_shape';

/** Words for types in error messages. */
export const TYPE_NAMES = {
  int: 'an integer',
  double: 'a number',
  text: 'a text',
  file: 'a file',
  json_blob: 'a JSON text',
  date: 'a date',
  datetime: 'a datetime',
  boolean: 'a boolean',
  geo_point_2d: 'a geo point',
  geo_shape: 'a geo shape',
  json: 'a JSON value',
  null: 'null',
} as const satisfies Record<ValueType, string>;

/** Whether two types can be compared with =, <, ... (numbers with numbers, dates with dates, ...). */
export function comparable(a: ValueType, b: ValueType): boolean {
  const ga = GROUP_OF[a];
  return ga !== 'other' && ga !== 'point' && ga !== 'geo' && ga === GROUP_OF[b];
}
