// Geometry in SQL without the spatial extension: coordinate pairs -> points, GeoJSON text -> vertices, centroids, bboxes.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { FieldType } from '../catalog/schema.js';

/** Column name pairs read as latitude and longitude, compared with field names (already lowercase). */
const COORDINATE_PAIRS: readonly { lat: string; lon: string }[] = [
  { lat: 'lat', lon: 'lon' },
  { lat: 'latitude', lon: 'longitude' },
  { lat: 'lat', lon: 'lng' },
];

const NUMERIC: ReadonlySet<FieldType> = new Set(['int', 'double']);

interface NamedColumn {
  readonly name: string;
  readonly type: FieldType;
  readonly sql: string;
  readonly multivalued: boolean;
}

/** The first known latitude/longitude name pair present among numeric single-valued columns. */
export function findCoordinatePair<T extends NamedColumn>(columns: readonly T[]): { lat: T; lon: T } | null {
  const numeric = (name: string): T | undefined =>
    columns.find((c) => c.name === name && NUMERIC.has(c.type) && !c.multivalued);
  for (const pair of COORDINATE_PAIRS) {
    const lat = numeric(pair.lat);
    const lon = numeric(pair.lon);
    if (lat && lon) return { lat, lon };
  }
  return null;
}

/** A latitude and longitude both on the globe (false when either is null). */
function onGlobeSql(latSql: string, lonSql: string): string {
  return `(${latSql} BETWEEN -90 AND 90 AND ${lonSql} BETWEEN -180 AND 180)`;
}

/** Of the rows holding both coordinates, how many are on the globe and how many are not. */
export async function countInRange(
  connection: DuckDBConnection,
  from: string,
  latSql: string,
  lonSql: string,
): Promise<{ inside: number; outside: number }> {
  const onGlobe = onGlobeSql(latSql, lonSql);
  const reader = await connection.runAndReadAll(
    `SELECT count_if(${onGlobe}), count_if(NOT ${onGlobe}) FROM ${from}`,
  );
  const [inside, outside] = (reader.getRows()[0] ?? []).map(Number);
  return { inside: inside ?? 0, outside: outside ?? 0 };
}

/** A geo_point_2d value: null unless both coordinates are present and on the globe. */
export function pointSql(latSql: string, lonSql: string): string {
  return `CASE WHEN ${onGlobeSql(latSql, lonSql)}
    THEN struct_pack(lon := CAST(${lonSql} AS DOUBLE), lat := CAST(${latSql} AS DOUBLE)) END`;
}

/**
 * In minified GeoJSON a position is the only array that opens on a number, so the first two
 * numbers after `[` are each vertex's longitude and latitude (any third, the altitude, is skipped).
 */
const POSITION = `'\\[(-?[0-9][0-9.eE+-]*),(-?[0-9][0-9.eE+-]*)'`;

/** The longitudes (group 1) or latitudes (group 2) of every vertex of a GeoJSON geometry text. */
export function vertexCoordinatesSql(geometrySql: string, group: 1 | 2): string {
  return `list_transform(regexp_extract_all(${geometrySql}, ${POSITION}, ${group}), x -> CAST(x AS DOUBLE))`;
}

/**
 * A geometry's representative point: the centre of its bounding box (for a point, the point).
 * Chosen over the mean of the vertices, which closing vertices of rings would bias.
 */
export function bboxCenterSql(lonsSql: string, latsSql: string): string {
  return `CASE WHEN len(${lonsSql}) > 0 THEN struct_pack(
    lon := (list_min(${lonsSql}) + list_max(${lonsSql})) / 2,
    lat := (list_min(${latsSql}) + list_max(${latsSql})) / 2) END`;
}

/** The GeoJSON `type` member of a geometry text ("Point", "Polygon"...). */
export function geometryTypeSql(geometrySql: string): string {
  return `json_extract_string(${geometrySql}, '$.type')`;
}
