// One column holding both coordinates (`48.85,2.35`, `48.85, 2.35` or `[48.85, 2.35]`, latitude
// first, as Opendatasoft exports write geo_point_2d) made a geo_point_2d field in its place.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { FieldType } from '../catalog/schema.js';
import type { GeoPointFrom } from '../catalog/geo-point-from.js';
import { quoteString } from '../sql/quoting.js';
import * as geo from './geo.js';

/** What this module reads and writes of a planned column (plan.ts's PlannedColumn, which imports this module). */
interface PointColumn {
  readonly name: string;
  readonly label: string;
  readonly type: FieldType;
  readonly sql: string;
  readonly separator: string | null;
  readonly coordinates?: { readonly lat: string; readonly lon: string } | { readonly cell: string };
  readonly pointFrom?: GeoPointFrom;
}

/** Names under which a text column of pairs is made a point without `--geo-point` (compared with field names). */
const PAIR_NAMES: ReadonlySet<string> = new Set([
  'geo_point_2d',
  'geo_point',
  'geopoint',
  'latlng',
  'lat_lng',
  'latlon',
  'lat_lon',
  'lat_long',
  'coordinates',
  'coordonnees',
  'coords',
]);

const NUMBER = '([+-]?[0-9]+(?:\\.[0-9]+)?)';
/** Latitude (group 1) and longitude (group 2), a comma between, optional spaces and brackets around. */
const PAIR = quoteString(`^\\s*\\[?\\s*${NUMBER}\\s*,\\s*${NUMBER}\\s*\\]?\\s*$`);

/** One coordinate of a pair cell, null when the cell is no pair. */
function coordinateSql(cell: string, group: 1 | 2): string {
  return `TRY_CAST(nullif(regexp_extract(${cell}, ${PAIR}, ${group}), '') AS DOUBLE)`;
}

/** The column's cells as one text: a list (a JSON array `[lat, lon]`) joined by a comma. */
function cellTextSql(column: PointColumn): string {
  return column.separator === null ? column.sql : `array_to_string(${column.sql}, ',')`;
}

const isPairable = (column: PointColumn): boolean =>
  column.type === 'text' && (column.separator === null || column.separator === ';');

/** The column made a geo_point_2d field of the same name; cells that are no pair on the globe are reported. */
function asPoint(column: PointColumn, explicit: boolean): PointColumn {
  const cell = cellTextSql(column);
  return {
    name: column.name,
    label: column.label,
    type: 'geo_point_2d',
    sql: geo.pointSql(coordinateSql(cell, 1), coordinateSql(cell, 2)),
    separator: null,
    coordinates: { cell },
    ...(explicit ? { pointFrom: { field: column.name } } : {}),
  };
}

/** Of a column's filled cells, more than half are pairs on the globe. */
async function mostlyPairs(
  connection: DuckDBConnection,
  from: string,
  column: PointColumn,
): Promise<boolean> {
  const cell = cellTextSql(column);
  const onGlobe = `${coordinateSql(cell, 1)} BETWEEN -90 AND 90 AND ${coordinateSql(cell, 2)} BETWEEN -180 AND 180`;
  const reader = await connection.runAndReadAll(`SELECT count(${cell}), count_if(${onGlobe}) FROM ${from}`);
  const [filled, pairs] = (reader.getRows()[0] ?? []).map(Number);
  return (pairs ?? 0) * 2 > (filled ?? 0);
}

/** The column `--geo-point FIELD` names (resolved by `resolve`), which must be text. */
function givenColumn<T extends PointColumn>(columns: readonly T[], name: string): T {
  const column = columns.find((c) => c.name === name)!;
  if (!isPairable(column)) {
    throw new Error(`--geo-point: field "${name}" is ${column.type}, not text holding "lat,lon"`);
  }
  return column;
}

export interface PairPointOptions {
  readonly geoPoint?: GeoPointFrom;
  readonly rememberedGeoPoint?: GeoPointFrom | null;
  /** The field a user's spelling means, or an error listing the fields. */
  readonly resolve: (given: string) => string;
  /** The relation the columns' SQL reads. */
  readonly from: string;
}

/**
 * The columns with one made a point: the field `--geo-point FIELD` names, else the remembered one
 * while it is still text, else (no two fields given or remembered) a text column named like a
 * point whose cells are mostly pairs. Null when none is: the two-column pair is looked for then.
 */
export async function withPairPoint<T extends PointColumn>(
  connection: DuckDBConnection,
  columns: readonly T[],
  options: PairPointOptions,
): Promise<(T | PointColumn)[] | null> {
  const given = options.geoPoint;
  const remembered = options.rememberedGeoPoint ?? null;
  let chosen: { column: T; explicit: boolean } | null = null;
  if (given && 'field' in given) {
    chosen = { column: givenColumn(columns, options.resolve(given.field)), explicit: true };
  } else if (!given && remembered && 'field' in remembered) {
    const column = columns.find((c) => c.name === remembered.field);
    if (column && isPairable(column)) chosen = { column, explicit: true };
  } else if (!given && !remembered) {
    const named = columns.find((c) => PAIR_NAMES.has(c.name) && isPairable(c));
    if (named && (await mostlyPairs(connection, options.from, named)))
      chosen = { column: named, explicit: false };
  }
  if (!chosen) return null;
  const { column, explicit } = chosen;
  return columns.map((c) => (c === column ? asPoint(c, explicit) : c));
}
