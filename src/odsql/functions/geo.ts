// The geo functions of ODSQL as SQL builders: predicates, distance, aggregates and clusters over geo fields.
//
// Pure: each builder returns DuckDB SQL text (no spatial extension) and throws QueryLangError on
// bad input. Geometry is planar in lon/lat degrees (edges are straight lines on the map, as in
// GeoJSON), distances are great-circle. Exact vs approximated, per function:
// - point field vs an area: even-odd ray casting over every ring (holes are holes), behind a box
//   test, edges split in latitude slabs (geo-slabs.ts); a point exactly on an edge may fall either
//   way. Point field vs a line or points: on a segment within about 1e-9 degrees.
// - shape field vs a geometry: intersects is exact up to that tolerance (segments meeting, a vertex
//   inside an area, or an area holding a part of the other); within checks vertices and segment
//   midpoints in the closed polygon, no proper edge crossing and no hole inside the shape, and is
//   fooled only by a shape edge leaving the polygon exactly through two of its vertices.
// - distance to a shape: haversine to vertices, equirectangular planar distance to segment interiors.
// - envelope: the exact convex hull (geo-hull.ts).
// - in_bbox takes its two corners in any order; a longitude past ±180 crosses the antimeridian
//   (170..190). Polygon literals crossing it are read the long way round (planar), so they must be
//   split at 180 by the user; MultiPolygon parts must not overlap (GeoJSON's rule; inside tests
//   are even-odd over all rings).
import type { Geometry, Position } from './geo-geometry.js';
import {
  bboxAggregateSql,
  envelopeAggregateSql,
  geoClusterSql,
  type GeoClusterSql,
} from './geo-aggregate.js';
import { DISTANCE, centerOf, pointWithinDistanceSql } from './geo-distance.js';
import { prepareGeometry, RELATIONS } from './geo-relations.js';
import { QueryLangError } from '../errors.js';
import { num, pointCoordinates } from './geo-sql.js';

export type { Geometry, Position } from './geo-geometry.js';
export { parseGeometryLiteral } from './geo-literal.js';
export { parseDistance, distanceInMeters, METERS_PER_UNIT } from './geo-units.js';
export type { GeoClusterSql } from './geo-aggregate.js';

/** The storage kinds of geo fields: a {lon, lat} struct, or GeoJSON geometry text. */
export type GeoFieldType = 'geo_point_2d' | 'geo_shape';

/** Spatial relations of intersects(), disjoint() and within() (and v2.0 geometry(f, g, REL)). */
export type SpatialRelation = 'intersects' | 'disjoint' | 'within';

/** Filter: the field is within `meters` (great-circle) of a POINT center. */
export function compileWithinDistance(
  fieldSql: string,
  fieldType: GeoFieldType,
  center: Geometry,
  meters: number,
): string {
  const point = centerOf(center, 'within_distance');
  if (!Number.isFinite(meters) || meters < 0) throw new QueryLangError(`Invalid distance: ${meters} meters`);
  if (fieldType === 'geo_point_2d') return pointWithinDistanceSql(fieldSql, point, meters);
  return `(${DISTANCE.geo_shape(fieldSql, point)} <= ${num(meters)})`;
}

/**
 * Filter: the field intersects the box with corners (lat1, lon1) and (lat2, lon2), in either order
 * and on either diagonal; a longitude past ±180 makes the box cross the antimeridian.
 */
export function compileInBbox(
  fieldSql: string,
  fieldType: GeoFieldType,
  lat1: number,
  lon1: number,
  lat2: number,
  lon2: number,
): string {
  checkBox(lat1, lon1, lat2, lon2);
  const [south, north] = [Math.min(lat1, lat2), Math.max(lat1, lat2)];
  const spans = longitudeSpans(Math.min(lon1, lon2), Math.max(lon1, lon2));
  if (fieldType === 'geo_point_2d') {
    const { lon, lat } = pointCoordinates(fieldSql);
    const lons = spans.map(([w, e]) => `${lon} BETWEEN ${num(w)} AND ${num(e)}`).join(' OR ');
    return `(${lat} BETWEEN ${num(south)} AND ${num(north)} AND ${spans.length > 1 ? `(${lons})` : lons})`;
  }
  const box = ([w, e]: Span): Position[][] => [
    [
      [w, south],
      [e, south],
      [e, north],
      [w, north],
      [w, south],
    ],
  ];
  const geometry: Geometry =
    spans.length === 1
      ? { type: 'Polygon', coordinates: box(spans[0]!) }
      : { type: 'MultiPolygon', coordinates: spans.map(box) };
  return RELATIONS.intersects.geo_shape(fieldSql, prepareGeometry(geometry));
}

type Span = readonly [west: number, east: number];

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

/** Filter: the field intersects, is disjoint from, or is within a constant geometry. */
export function compileSpatial(
  op: SpatialRelation,
  fieldSql: string,
  fieldType: GeoFieldType,
  geometry: Geometry,
): string {
  return RELATIONS[op][fieldType](fieldSql, prepareGeometry(geometry));
}

/** Value: meters (great-circle, R = 6371008.8) from a POINT center to the field (0 inside a shape's area). */
export function compileDistance(fieldSql: string, fieldType: GeoFieldType, center: Geometry): string {
  return DISTANCE[fieldType](fieldSql, centerOf(center, 'distance'));
}

/** Aggregate: convex hull of the group's geometries, as GeoJSON geometry text. */
export function compileEnvelope(fieldSql: string, fieldType: GeoFieldType): string {
  return envelopeAggregateSql(fieldSql, fieldType);
}

/** Aggregate: GeoJSON Polygon text of the bounding box of the group's geometries. */
export function compileBbox(fieldSql: string, fieldType: GeoFieldType): string {
  return bboxAggregateSql(fieldSql, fieldType);
}

/** Grouping: web-mercator tile at zoom `precision` (1..24) as key; centroid as the mean position. */
export function compileGeoCluster(fieldSql: string, precision: number): GeoClusterSql {
  return geoClusterSql(fieldSql, precision);
}
