// The geo functions of ODSQL in DuckDB's SQL: predicates, distance, aggregates and clusters over
// geo fields (their meaning and argument checks: functions/geo.ts).
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
import {
  bboxSpans,
  centerOf,
  checkedMeters,
  relationGeometry,
  type GeoFieldType,
  type Geometry,
  type Position,
  type Span,
  type SpatialRelation,
} from '../../functions/geo.js';
import {
  bboxAggregateSql,
  envelopeAggregateSql,
  geoClusterSql,
  type GeoClusterSql,
} from './geo-aggregate.js';
import { DISTANCE, pointWithinDistanceSql } from './geo-distance.js';
import { prepareGeometry, RELATIONS } from './geo-relations.js';
import { num, pointCoordinates } from './geo-sql.js';

/** Filter: the field is within `meters` (great-circle) of a POINT center. */
export function compileWithinDistance(
  fieldSql: string,
  fieldType: GeoFieldType,
  center: Geometry,
  meters: number,
): string {
  const point = centerOf(center, 'within_distance');
  checkedMeters(meters);
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
  const { south, north, spans } = bboxSpans(lat1, lon1, lat2, lon2);
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

/** Filter: the field intersects, is disjoint from, or is within a constant geometry. */
export function compileSpatial(
  op: SpatialRelation,
  fieldSql: string,
  fieldType: GeoFieldType,
  geometry: Geometry,
): string {
  return RELATIONS[op][fieldType](fieldSql, prepareGeometry(relationGeometry(op, geometry)));
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
