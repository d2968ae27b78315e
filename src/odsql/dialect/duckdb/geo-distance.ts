// Great-circle distances from a constant point in DuckDB's SQL, and the circle filters built on them.
import type { Position } from '../../functions/geo-geometry.js';
import { EARTH_RADIUS_METERS } from '../../functions/geo-units.js';
import { haversineSql, lambdaName, num, pointCoordinates, ringsContainPointSql } from './geo-sql.js';
import { withShape, type ShapeLists } from './geo-shape.js';
import { withinCircleSql } from '../geo-math.js';

/** Meters from the center to a point field (haversine). */
export function pointDistanceSql(pointSql: string, center: Position): string {
  const { lon, lat } = pointCoordinates(pointSql);
  return haversineSql(num(center[0]), num(center[1]), lon, lat);
}

/**
 * Meters from the center to the nearest point of a shape: 0 inside an area; else the least of the
 * haversine distances to the vertices and, where the foot of the perpendicular falls inside a
 * segment, the planar distance to it in an equirectangular projection centered on the center.
 */
export function shapeDistanceSql(shapeSql: string, center: Position): string {
  return withShape(shapeSql, (shape) => {
    const inside = ringsContainPointSql(shape.segments, num(center[0]), num(center[1]));
    const nearest = nearestSql(shape, center);
    return `CASE WHEN ${shape.vertices} IS NULL THEN NULL WHEN ${shape.areal} AND ${inside} THEN 0.0::DOUBLE ELSE ${nearest} END`;
  });
}

function nearestSql(shape: ShapeLists, center: Position): string {
  const [c0, c1] = [num(center[0]), num(center[1])];
  const [p, s, q] = [lambdaName('p'), lambdaName('s'), lambdaName('q')];
  const vertices = `list_min(list_transform(${shape.vertices}, lambda ${p}: ${haversineSql(c0, c1, `${p}[1]`, `${p}[2]`)}))`;
  // Planar coordinates of the segment ends relative to the center, in degrees of latitude.
  const kx = num(Math.cos((center[1] * Math.PI) / 180));
  const x = (lon: string) => `((((${lon} - ${c0}) + 540) % 360) - 180) * ${kx}`;
  const y = (lat: string) => `(${lat} - ${c1})`;
  const ends = `[${x(`${s}[1]`)}, ${y(`${s}[2]`)}, ${x(`${s}[3]`)}, ${y(`${s}[4]`)}]`;
  const [dx, dy] = [`(${q}[3] - ${q}[1])`, `(${q}[4] - ${q}[2])`];
  const t = `(-(${q}[1] * ${dx} + ${q}[2] * ${dy}) / nullif(${dx} * ${dx} + ${dy} * ${dy}, 0))`;
  const foot = `sqrt(pow(${q}[1] + ${t} * ${dx}, 2) + pow(${q}[2] + ${t} * ${dy}, 2)) * ${num((EARTH_RADIUS_METERS * Math.PI) / 180)}`;
  const perpendicular = `list_transform([${ends}], lambda ${q}: CASE WHEN ${t} > 0 AND ${t} < 1 THEN ${foot} END)[1]`;
  const segments = `list_min(list_transform(${shape.segments}, lambda ${s}: ${perpendicular}))`;
  return `least(${vertices}, coalesce(${segments}, 'Infinity'::DOUBLE))`;
}

/** Distance SQL of each field type. */
export const DISTANCE = {
  geo_point_2d: pointDistanceSql,
  geo_shape: shapeDistanceSql,
} as const satisfies Record<'geo_point_2d' | 'geo_shape', (fieldSql: string, center: Position) => string>;

/** Points within `meters` of the center (geo-math.ts: the box holding the circle, then the distance). */
export function pointWithinDistanceSql(pointSql: string, center: Position, meters: number): string {
  const { lon, lat } = pointCoordinates(pointSql);
  const near = `${pointDistanceSql(pointSql, center)} <= ${num(meters)}`;
  return withinCircleSql(center, meters, { lon, lat, near, num });
}
