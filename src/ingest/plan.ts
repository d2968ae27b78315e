// The fields of a dataset and, for each, the SQL that computes its stored value from the source table.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Field, FieldType } from '../catalog/schema.js';
import type { GeoPointFrom } from '../catalog/geo-point-from.js';
import { quoteString } from '../sql/quoting.js';
import {
  columnKind,
  DIRECT_CONVERSIONS,
  isJsonType,
  multivaluedFromText,
  type ColumnKind,
} from './column-types.js';
import { resolveFieldName, uniqueFieldNames, uniqueName } from './field-names.js';
import * as geo from './geo.js';
import { SOURCE_TABLE, type SourceColumn, type SourceTable } from './load-source.js';
import { withPairPoint } from './pair-point.js';
import { inferTextColumns, type MisfitCheck, type TextCandidate } from './text-inference.js';
import { DEFAULT_NULL_TOKENS } from './text-tests.js';

/** Separator recorded for lists that arrive already split (JSON arrays, Parquet lists). */
export const LIST_SEPARATOR = ';';

/** One stored column: its field and the SQL computing it over the planned source relation. */
export interface PlannedColumn {
  readonly name: string;
  readonly label: string;
  readonly type: FieldType;
  readonly sql: string;
  /** The separator of a multivalued text field, else null. */
  readonly separator: string | null;
  /** Set when a few cells missed the inferred type: how to find them (they are stored as null). */
  readonly misfits?: MisfitCheck;
  /** Set when the dates read both day-first and month-first: the two formats (the field stays text). */
  readonly ambiguousDates?: readonly [string, string];
  /** A point made of two columns, or of one holding both: their cells, to find the rows that held a value but got no point. */
  readonly coordinates?: { readonly lat: string; readonly lon: string } | { readonly cell: string };
  /** A point made of the columns named by `--geo-point` (given, or remembered): their field names. */
  readonly pointFrom?: GeoPointFrom;
}

export interface PlanOptions {
  /** Field name -> separator, for text fields to split into lists. */
  readonly multivalued: Readonly<Record<string, string>>;
  /** Separators of the previous version's multivalued fields: reapplied where the field is still text. */
  readonly rememberedMultivalued?: Readonly<Record<string, string>>;
  /** Field names of the latitude and longitude columns, or of one holding both, instead of detecting them. */
  readonly geoPoint?: GeoPointFrom;
  /** The previous version's `--geo-point` columns: used again when still numeric fields (or text, for one). */
  readonly rememberedGeoPoint?: GeoPointFrom | null;
  /** Cells meaning "no value" beyond DEFAULT_NULL_TOKENS (`--null`). */
  readonly nullTokens?: readonly string[];
}

/** The relation plans read: the source table with each row's ordinal (0-based, file order). */
export const PLAN_RELATION = `(SELECT *, rowid AS __ordinal FROM ${SOURCE_TABLE}) AS rows`;

/** The field name a user means for an option, or an error listing the fields that exist. */
export function resolveField(option: string, given: string, names: readonly string[]): string {
  const name = resolveFieldName(given, names);
  if (name === undefined) throw new Error(`${option}: no field "${given}" (fields: ${names.join(', ')})`);
  return name;
}

function candidateOf(source: SourceColumn): TextCandidate {
  if (!isJsonType(source.type)) return { text: `CAST(${source.column} AS VARCHAR)` };
  return { text: `json_extract_string(${source.column}, '$')`, json: source.column };
}

/**
 * A column whose kind decides its type, or the text candidate to infer it from. A separator
 * splits text into a list; one given explicitly on a column that is not text is an error.
 */
function planOneColumn(
  column: SourceColumn,
  name: string,
  kind: ColumnKind,
  split: { separator: string | undefined; explicit: boolean },
): PlannedColumn | TextCandidate {
  const base = { name, label: column.label };
  const { separator } = split;
  if (kind === 'list') {
    const sql = DIRECT_CONVERSIONS.list.convert(column.column);
    return { ...base, type: 'text', sql, separator: separator ?? LIST_SEPARATOR };
  }
  const splittable = kind === 'infer' || kind === 'text';
  if (split.explicit && !splittable) throw new Error(`--multivalued: field "${name}" is not text`);
  if (separator !== undefined && splittable) {
    const sql = multivaluedFromText(candidateOf(column).text, quoteString(separator));
    return { ...base, type: 'text', sql, separator };
  }
  if (kind === 'infer') return candidateOf(column);
  const direct = DIRECT_CONVERSIONS[kind];
  return { ...base, type: direct.type, sql: direct.convert(column.column), separator: null };
}

/** Types every source column: direct conversions, multivalued splits, then one inference pass for the rest. */
async function planSourceColumns(
  connection: DuckDBConnection,
  source: SourceTable,
  options: PlanOptions,
): Promise<PlannedColumn[]> {
  const names = uniqueFieldNames(source.columns.map((c) => c.label));
  const explicit = new Map(
    Object.entries(options.multivalued).map(([given, sep]) => [
      resolveField('--multivalued', given, names),
      sep,
    ]),
  );
  const remembered = new Map(Object.entries(options.rememberedMultivalued ?? {}));
  const planned = source.columns.map((column, i) => {
    const name = names[i]!;
    const separator = explicit.get(name) ?? remembered.get(name);
    const kind = columnKind(column.type, source.untypedText);
    return planOneColumn(column, name, kind, { separator, explicit: explicit.has(name) });
  });
  const candidates = planned.filter((p): p is TextCandidate => !('name' in p));
  const inferred = await inferTextColumns(connection, SOURCE_TABLE, candidates, {
    decimalComma: source.delimiter !== null && source.delimiter !== ',',
    nullTokens: [...DEFAULT_NULL_TOKENS, ...(options.nullTokens ?? [])],
  });
  return planned.map((p, i): PlannedColumn => {
    if ('name' in p) return p;
    const inference = inferred[candidates.indexOf(p)]!;
    return { ...inference, name: names[i]!, label: source.columns[i]!.label, separator: null };
  });
}

/** GeoJSON geometries: a geo_shape field, and a geo_point_2d at the centre of each shape's bounding box. */
function shapeFields(geometry: string, used: ReadonlySet<string>): PlannedColumn[] {
  const lons = geo.vertexCoordinatesSql(geometry, 1);
  const lats = geo.vertexCoordinatesSql(geometry, 2);
  const point = uniqueName('geo_point_2d', used);
  const shape = uniqueName('geo_shape', new Set([...used, point]));
  const centre = geo.bboxCenterSql(lons, lats);
  return [
    { name: point, label: 'Geo point', type: 'geo_point_2d', sql: centre, separator: null },
    { name: shape, label: 'Geo shape', type: 'geo_shape', sql: geometry, separator: null },
  ];
}

/**
 * A latitude/longitude pair (given, or found by name) made into a geo_point_2d field, the two
 * columns then stored as doubles. A row with a coordinate off the globe gets no point (and is
 * reported); a detected pair whose rows are mostly off the globe is not coordinates: left alone.
 */
async function withCoordinatePoint(
  connection: DuckDBConnection,
  columns: readonly PlannedColumn[],
  options: Pick<PlanOptions, 'geoPoint' | 'rememberedGeoPoint'>,
): Promise<PlannedColumn[]> {
  const { geoPoint, rememberedGeoPoint = null } = options;
  const named = geoPoint
    ? 'lat' in geoPoint
      ? explicitPair(columns, geoPoint)
      : null
    : rememberedPair(columns, rememberedGeoPoint && 'lat' in rememberedGeoPoint ? rememberedGeoPoint : null);
  const pair = named ?? geo.findCoordinatePair(columns.map(asGeoColumn));
  if (!pair) return [...columns];
  if (!named) {
    const range = await geo.countInRange(connection, PLAN_RELATION, pair.lat.sql, pair.lon.sql);
    if (range.inside <= range.outside) return [...columns];
  }
  const point: PlannedColumn = {
    name: uniqueName('geo_point_2d', new Set(columns.map((c) => c.name))),
    label: 'Geo point',
    type: 'geo_point_2d',
    sql: geo.pointSql(pair.lat.sql, pair.lon.sql),
    separator: null,
    coordinates: { lat: cellOf(pair.lat), lon: cellOf(pair.lon) },
    ...(named ? { pointFrom: { lat: pair.lat.name, lon: pair.lon.name } } : {}),
  };
  const coordinates = new Set([pair.lat.name, pair.lon.name]);
  const asDouble = (c: PlannedColumn): PlannedColumn =>
    coordinates.has(c.name) ? { ...c, type: 'double', sql: `CAST(${c.sql} AS DOUBLE)` } : c;
  return [...columns.map(asDouble), point];
}

/** A column's source cell, null when empty: the stored value, or the text a misfit was read from. */
function cellOf(column: PlannedColumn): string {
  return column.misfits?.cell ?? column.sql;
}

function asGeoColumn(column: PlannedColumn): PlannedColumn & { multivalued: boolean } {
  return { ...column, multivalued: column.separator !== null };
}

const isNumber = (column: PlannedColumn): boolean =>
  (column.type === 'int' || column.type === 'double') && column.separator === null;

/** The previous version's pair when both are still numeric fields of this source, else null. */
function rememberedPair(columns: readonly PlannedColumn[], names: { lat: string; lon: string } | null) {
  const lat = columns.find((c) => c.name === names?.lat);
  const lon = columns.find((c) => c.name === names?.lon);
  return lat && lon && isNumber(lat) && isNumber(lon) ? { lat, lon } : null;
}

function explicitPair(columns: readonly PlannedColumn[], names: { lat: string; lon: string }) {
  const find = (given: string): PlannedColumn => {
    const name = resolveField(
      '--geo-point',
      given,
      columns.map((c) => c.name),
    );
    const column = columns.find((c) => c.name === name)!;
    if (!isNumber(column)) {
      throw new Error(`--geo-point: field "${name}" is ${column.type}, not a number`);
    }
    return column;
  };
  return { lat: find(names.lat), lon: find(names.lon) };
}

/** Plans every stored column of the dataset, in order: source columns, then geo fields. */
export async function planColumns(
  connection: DuckDBConnection,
  source: SourceTable,
  options: PlanOptions,
): Promise<PlannedColumn[]> {
  const columns = await planSourceColumns(connection, source, options);
  const geometry = source.geometryColumn;
  if (!geometry) {
    const resolve = (given: string) =>
      resolveField(
        '--geo-point',
        given,
        columns.map((c) => c.name),
      );
    const paired = await withPairPoint(connection, columns, { ...options, resolve, from: PLAN_RELATION });
    return paired ?? withCoordinatePoint(connection, columns, options);
  }
  if (options.geoPoint) throw new Error('--geo-point: a GeoJSON source has its geometry already');
  return [...columns, ...shapeFields(geometry, new Set(columns.map((c) => c.name)))];
}

/** The field descriptor of a planned column, with the annotations its type implies. */
export function fieldOf(column: PlannedColumn): Field {
  const annotations: Record<string, string[]> = {};
  if (column.separator !== null) annotations.multivalued = [column.separator];
  if (column.type === 'date' || column.type === 'datetime') annotations.timerangeFilter = [];
  return { name: column.name, label: column.label, type: column.type, description: null, annotations };
}
