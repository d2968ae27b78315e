// SQL text of planar and spherical geometry on lon/lat degrees: the pieces geo predicates are built from.
import { boxOf, type Box, type Position, type Segment } from './geo-geometry.js';

/** Mean Earth radius (IUGG), the sphere every distance is measured on. */
export const EARTH_RADIUS_METERS = 6371008.8;

/** Below this many edges a constant polygon is unrolled into comparisons; above, it is a list literal. */
export const UNROLLED_EDGES_LIMIT = 256;

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
  return `[${segments.map((s) => `[${s.map(String).join(', ')}]`).join(', ')}]::DOUBLE[][]`;
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

/**
 * Whether point (x, y) is inside a constant polygon, by even-odd ray casting over all its rings (so
 * holes are holes), behind a bounding-box test. Points exactly on an edge may fall either way.
 */
export function polygonContainsPointSql(
  rings: readonly (readonly Position[])[],
  x: string,
  y: string,
): string {
  const edges = rings.flatMap((ring) => ring.slice(1).map((end, i) => [ring[i]!, end] as const));
  const crossing = edges.filter(([a, b]) => a[1] !== b[1]);
  const parity =
    crossing.length <= UNROLLED_EDGES_LIMIT ? unrolledParity(crossing, x, y) : listedParity(crossing, x, y);
  return `(${inBoxSql(x, y, boxOf(rings.flat()))} AND ${parity})`;
}

/** Crossings of a rightward ray from (x, y), one comparison chain per edge: fast for small polygons. */
function unrolledParity(edges: readonly (readonly [Position, Position])[], x: string, y: string): string {
  if (edges.length === 0) return 'false';
  const terms = edges.map(([a, b]) => {
    const [low, high] = a[1] < b[1] ? [a, b] : [b, a];
    const slope = (b[0] - a[0]) / (b[1] - a[1]);
    return `(${y} >= ${num(low[1])} AND ${y} < ${num(high[1])} AND ${x} < ${num(a[0])} + (${y} - ${num(a[1])}) * ${num(slope)})::INTEGER`;
  });
  return `(${terms.join(' + ')}) % 2 = 1`;
}

/** The same test over a list literal of [lowLat, highLat, lon1, lat1, slope], for large polygons. */
function listedParity(edges: readonly (readonly [Position, Position])[], x: string, y: string): string {
  const rows = edges.map(([a, b]) => [
    Math.min(a[1], b[1]),
    Math.max(a[1], b[1]),
    a[0],
    a[1],
    (b[0] - a[0]) / (b[1] - a[1]),
  ]);
  const list = `[${rows.map((r) => `[${r.map(String).join(', ')}]`).join(', ')}]::DOUBLE[][]`;
  const e = lambdaName('edge');
  return `len(list_filter(${list}, lambda ${e}: ${y} >= ${e}[1] AND ${y} < ${e}[2] AND ${x} < ${e}[3] + (${y} - ${e}[4]) * ${e}[5])) % 2 = 1`;
}

/** Whether a constant point is inside the rings listed in `edgesSql` (DOUBLE[][] of segments), even-odd. */
export function ringsContainConstantSql(edgesSql: string, point: Position): string {
  const [px, py] = [num(point[0]), num(point[1])];
  const e = lambdaName('ring_edge');
  return (
    `len(list_filter(${edgesSql}, lambda ${e}: (${e}[2] > ${py}) <> (${e}[4] > ${py})` +
    ` AND ${px} < ${e}[1] + (${py} - ${e}[2]) * (${e}[3] - ${e}[1]) / (${e}[4] - ${e}[2]))) % 2 = 1`
  );
}

/** Whether point (x, y) lies on a segment, within the collinearity and touch tolerances. */
export function pointOnSegmentSql(x: string, y: string, s: SegmentSql): string {
  const [x1, y1, x2, y2] = s;
  const within = (v: string, a: string, b: string) =>
    `${v} BETWEEN least(${a}, ${b}) - ${TOUCH_DEGREES} AND greatest(${a}, ${b}) + ${TOUCH_DEGREES}`;
  return `(${turnSql(x1, y1, x2, y2, x, y)} = 0 AND ${within(x, x1, x2)} AND ${within(y, y1, y2)})`;
}
