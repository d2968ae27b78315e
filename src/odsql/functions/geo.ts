// The meaning of ODSQL's geo functions: geometry literals, distances and their units, the box of
// in_bbox(), and the checks of their arguments, shared by every dialect (DuckDB's spelling:
// dialect/duckdb/geo*.ts).
import { QueryLangError } from '../errors.js';
import { isAreal, type Geometry, type Position } from './geo-geometry.js';

export type { Geometry, Position } from './geo-geometry.js';
export { parseGeometryLiteral } from './geo-literal.js';
export { parseDistance, distanceInMeters, EARTH_RADIUS_METERS, METERS_PER_UNIT } from './geo-units.js';

/** The storage kinds of geo fields: a {lon, lat} struct, or GeoJSON geometry text. */
export type GeoFieldType = 'geo_point_2d' | 'geo_shape';

/** Spatial relations of intersects(), disjoint() and within() (and v2.0 geometry(f, g, REL)). */
export type SpatialRelation = 'intersects' | 'disjoint' | 'within';

/** The center of a distance: a POINT literal. */
export function centerOf(geometry: Geometry, functionName: string): Position {
  if (geometry.type !== 'Point') {
    throw new QueryLangError(`${functionName}() measures from a POINT, got a ${geometry.type}`);
  }
  return geometry.coordinates;
}

/** A distance of within_distance(): meters that are a finite, non-negative number. */
export function checkedMeters(meters: number): number {
  if (!Number.isFinite(meters) || meters < 0) throw new QueryLangError(`Invalid distance: ${meters} meters`);
  return meters;
}

/** The geometry a relation tests against: within() needs an area. */
export function relationGeometry(op: SpatialRelation, geometry: Geometry): Geometry {
  if (op === 'within' && !isAreal(geometry))
    throw new QueryLangError('within() needs a POLYGON or MULTIPOLYGON geometry');
  return geometry;
}

/** The box of in_bbox(): its latitudes, and its longitudes as one or two spans within -180..180. */
export interface BboxSpans {
  readonly south: number;
  readonly north: number;
  readonly spans: readonly Span[];
}

/**
 * The box with corners (lat1, lon1) and (lat2, lon2), in either order and on either diagonal; a
 * longitude past ±180 makes the box cross the antimeridian. Out of range corners throw.
 */
export function bboxSpans(lat1: number, lon1: number, lat2: number, lon2: number): BboxSpans {
  checkBox(lat1, lon1, lat2, lon2);
  return {
    south: Math.min(lat1, lat2),
    north: Math.max(lat1, lat2),
    spans: longitudeSpans(Math.min(lon1, lon2), Math.max(lon1, lon2)),
  };
}

export type Span = readonly [west: number, east: number];

/**
 * The longitude intervals within -180..180 of west..east (west <= east, both within -360..360):
 * one, or two when it runs past ±180 (170..190 is 170..180 and -180..-170), as web maps report a
 * view across the antimeridian; 360 degrees or more is every longitude.
 */
function longitudeSpans(west: number, east: number): Span[] {
  if (east - west >= 360) return [[-180, 180]];
  const shift = west < -180 ? 360 : west > 180 ? -360 : 0;
  const [w, e] = [west + shift, east + shift];
  return e <= 180
    ? [[w, e]]
    : [
        [w, 180],
        [-180, e - 360],
      ];
}

function checkBox(...[lat1, lon1, lat2, lon2]: number[]): void {
  const valid = (v: number | undefined, limit: number) =>
    v !== undefined && Number.isFinite(v) && Math.abs(v) <= limit;
  if (!valid(lat1, 90) || !valid(lat2, 90) || !valid(lon1, 360) || !valid(lon2, 360)) {
    throw new QueryLangError(
      'in_bbox() expects latitudes within -90..90 and longitudes within -360..360 (past ±180 to cross the antimeridian)',
    );
  }
}
