// DuckDB's SQL of planar and spherical geometry on lon/lat degrees: the pieces geo predicates are built from.
import type { Box, Segment } from '../../functions/geo-geometry.js';
import { EARTH_RADIUS_METERS } from '../../functions/geo-units.js';

/** Orientations closer to zero than this (in square degrees) count as collinear. */
const COLLINEAR_DIGITS = 12;
/** Bounding boxes closer than this (in degrees, about 0.1 mm) count as touching. */
const TOUCH_DEGREES = '1e-9';

/**
 * A lambda parameter name no dataset field can have (fields are [a-z0-9_]): inside a lambda, DuckDB
 * resolves a name to the parameter first, even when quoted, so a field named `e` would be shadowed.
 */
export function lambdaName(name: string): string {
  return `"geo$${name}"`;
}

/** A DOUBLE literal (never DECIMAL, whose arithmetic would round differently). */
export function num(value: number): string {
  return `${String(value)}::DOUBLE`;
}

/** A constant list of segments, each [lon1, lat1, lon2, lat2]. */
export function segmentListSql(segments: readonly Segment[]): string {
  return listConstant(segments, 2);
}

/**
 * A constant DOUBLE list of depth 2 or 3, written as one text cast once: DuckDB parses that far faster
 * than a list of number expressions (JSON of finite numbers has no quote to escape).
 */
export function listConstant(rows: readonly unknown[], depth: 2 | 3): string {
  return `CAST('${JSON.stringify(rows)}' AS DOUBLE${'[]'.repeat(depth)})`;
}

/** Longitude and latitude of a geo_point_2d value. */
export function pointCoordinates(pointSql: string): { lon: string; lat: string } {
  return { lon: `struct_extract(${pointSql}, 'lon')`, lat: `struct_extract(${pointSql}, 'lat')` };
}

/** Great-circle distance in meters between two lon/lat positions given as SQL. */
export function haversineSql(lon1: string, lat1: string, lon2: string, lat2: string): string {
  const half = (a: string, b: string) => `pow(sin(radians(${a} - ${b}) / 2), 2)`;
  const h = `${half(lat2, lat1)} + cos(radians(${lat1})) * cos(radians(${lat2})) * ${half(lon2, lon1)}`;
  // atan2 rather than asin: rounding may push h past 1 for antipodes, and NULL must stay NULL.
  return `(2 * ${EARTH_RADIUS_METERS} * atan2(sqrt(${h}), sqrt(greatest(0.0, 1.0 - (${h})))))`;
}

/** Sign (-1, 0, 1) of the turn a -> b -> c, zero when nearly collinear. */
function turnSql(ax: string, ay: string, bx: string, by: string, cx: string, cy: string): string {
  return `sign(round((${bx} - ${ax}) * (${cy} - ${ay}) - (${by} - ${ay}) * (${cx} - ${ax}), ${COLLINEAR_DIGITS}))`;
}

/** Four SQL expressions: a segment's lon1, lat1, lon2, lat2. */
export type SegmentSql = readonly [string, string, string, string];

/** The SQL of a segment held in a DOUBLE[] variable (a lambda parameter). */
export const listSegment = (name: string): SegmentSql => [
  `${name}[1]`,
  `${name}[2]`,
  `${name}[3]`,
  `${name}[4]`,
];

/** Whether two segments share a point (touching or collinear overlap counts). */
export function segmentsTouchSql(p: SegmentSql, q: SegmentSql): string {
  return `(${straddles(p, q, '<=')} AND ${boxesTouch(p, q)})`;
}

/** Whether two segments cross at a point interior to both (touching does not count). */
export function segmentsCrossSql(p: SegmentSql, q: SegmentSql): string {
  return straddles(p, q, '<');
}

function straddles(p: SegmentSql, q: SegmentSql, op: '<' | '<='): string {
  const [px1, py1, px2, py2] = p;
  const [qx1, qy1, qx2, qy2] = q;
  return (
    `(${turnSql(px1, py1, px2, py2, qx1, qy1)} * ${turnSql(px1, py1, px2, py2, qx2, qy2)} ${op} 0` +
    ` AND ${turnSql(qx1, qy1, qx2, qy2, px1, py1)} * ${turnSql(qx1, qy1, qx2, qy2, px2, py2)} ${op} 0)`
  );
}

function boxesTouch(p: SegmentSql, q: SegmentSql): string {
  const axis = (a1: string, a2: string, b1: string, b2: string) =>
    `least(${a1}, ${a2}) <= greatest(${b1}, ${b2}) + ${TOUCH_DEGREES} AND least(${b1}, ${b2}) <= greatest(${a1}, ${a2}) + ${TOUCH_DEGREES}`;
  return `${axis(p[0], p[2], q[0], q[2])} AND ${axis(p[1], p[3], q[1], q[3])}`;
}

/** Whether a point is inside a constant box (inclusive). */
export function inBoxSql(x: string, y: string, box: Box): string {
  return `(${x} BETWEEN ${num(box[0])} AND ${num(box[2])} AND ${y} BETWEEN ${num(box[1])} AND ${num(box[3])})`;
}

/** Whether point (px, py) is inside the rings listed in `edgesSql` (DOUBLE[][] of segments), even-odd. */
export function ringsContainPointSql(edgesSql: string, px: string, py: string): string {
  const e = lambdaName('ring_edge');
  return (
    `len(list_filter(${edgesSql}, lambda ${e}: (${e}[2] > ${py}) <> (${e}[4] > ${py})` +
    ` AND ${px} < ${e}[1] + (${py} - ${e}[2]) * (${e}[3] - ${e}[1]) / (${e}[4] - ${e}[2]))) % 2 = 1`
  );
}
