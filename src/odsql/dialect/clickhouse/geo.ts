// ClickHouse's spelling of the geo functions on points (a geo_point_2d is the tuple (lon, lat)):
// in_bbox by arithmetic, distance and within_distance by the haversine formula DuckDB's dialect
// writes, on the same sphere, in ClickHouse 18.16's math (no atan2 and no radians there: atan of the
// ratio, and degrees times pi()/180, equal to DuckDB's within a few units in the last place);
// intersects, disjoint, within and geometry() against a constant geometry by DuckDB's planar tests,
// comparison for comparison (a ray's crossings of every edge; on a segment within 1e-12 square
// degrees), so that points on a boundary fall the same way. greatCircleDistance and pointInPolygon
// are not used: another sphere and formula, other boundary rules. On a geo_shape field these are
// refused (a 400 naming them), as are the geo aggregations and geo_cluster.
import {
  isAreal,
  type Box,
  type Geometry,
  type Position,
  type Segment,
} from '../../functions/geo-geometry.js';
import { EARTH_RADIUS_METERS } from '../../functions/geo-units.js';
import { bboxSpans } from '../../functions/geo.js';
import { geometryOf, geoType, metersOf, numberOf, relationOf } from '../../functions/predicate.js';
import { QueryLangError } from '../../errors.js';
import { distanceOrWithin, unavailable, type CompiledArg, type FunctionSpelling } from '../dialect.js';
import { planarGeometry, withinCircleSql } from '../geo-math.js';
import { latOf, lonOf } from './json-text.js';

/** A number as a ClickHouse Float64 literal. */
const num = (value: number): string => `toFloat64(${String(value)})`;

/** Degrees as radians. */
const radians = (degrees: string): string => `((${degrees}) * pi() / 180)`;

/** Great-circle distance in meters between two lon/lat positions given as SQL. */
function haversineSql(lon1: string, lat1: string, lon2: string, lat2: string): string {
  const half = (a: string, b: string) => `pow(sin(${radians(`${a} - ${b}`)} / 2), 2)`;
  const h = `(${half(lat2, lat1)} + cos(${radians(lat1)}) * cos(${radians(lat2)}) * ${half(lon2, lon1)})`;
  // atan2(sqrt(h), sqrt(1 - h)) with both non-negative: atan of their ratio (pi / 2 at 1 / 0).
  return `(2 * ${EARTH_RADIUS_METERS} * atan(sqrt(${h}) / sqrt(greatest(0., 1. - ${h}))))`;
}

/** The point field of a geo function's first argument; a shape field is refused. */
function pointOf(arg: CompiledArg | undefined, name: string, ctx: Parameters<FunctionSpelling>[1]): string {
  if (geoType(arg) !== 'geo_point_2d') throw unavailable(`${name}() on a geo_shape field`, ctx.dialect);
  return arg!.sql;
}

/** The center of a distance: a POINT literal. */
function centerOf(arg: CompiledArg | undefined, name: string): Position {
  const geometry = geometryOf(arg?.node);
  if (geometry.type !== 'Point')
    throw new QueryLangError(`${name}() measures from a POINT, got a ${geometry.type}`);
  return geometry.coordinates;
}

/** Meters from the center to a point field. */
const distanceSql = (point: string, center: Position): string =>
  haversineSql(num(center[0]), num(center[1]), lonOf(point), latOf(point));

/**
 * Points within `meters` of the center: the latitude/longitude box that holds the circle, then the
 * haversine distance (geo-math.ts, DuckDB's test bound for bound).
 */
const withinDistance: FunctionSpelling = ([geo, center, distance], ctx) => {
  const point = pointOf(geo, 'within_distance', ctx);
  const at = centerOf(center, 'within_distance');
  const meters = metersOf(distance!.node);
  if (!Number.isFinite(meters) || meters < 0) throw new QueryLangError(`Invalid distance: ${meters} meters`);
  const near = `${distanceSql(point, at)} <= ${num(meters)}`;
  return withinCircleSql(at, meters, { lon: lonOf(point), lat: latOf(point), near, num });
};

/** in_bbox(point, lat1, lon1, lat2, lon2): two opposite corners, in any order. */
const inBbox: FunctionSpelling = ([geo, lat1, lon1, lat2, lon2], ctx) => {
  const point = pointOf(geo, 'in_bbox', ctx);
  const [a, b, c, d] = [lat1, lon1, lat2, lon2].map(numberOf) as [number, number, number, number];
  const { south, north, spans } = bboxSpans(a, b, c, d);
  const lons = spans.map(([w, e]) => `${lonOf(point)} BETWEEN ${num(w)} AND ${num(e)}`).join(' OR ');
  return `(${latOf(point)} BETWEEN ${num(south)} AND ${num(north)} AND ${spans.length > 1 ? `(${lons})` : lons})`;
};

/** Whether (x, y) is in the box (inclusive). */
const inBoxSql = (x: string, y: string, box: Box): string =>
  `(${x} BETWEEN ${num(box[0])} AND ${num(box[2])} AND ${y} BETWEEN ${num(box[1])} AND ${num(box[3])})`;

/** Latitude and longitude margin of the on-segment test, in degrees (DuckDB's, about 0.1 mm). */
const TOUCH = 1e-9;

/** Whether (x, y) is inside the rings: a rightward ray crosses an odd number of their edges. */
function insideRingsSql(rings: readonly (readonly Position[])[], x: string, y: string): string {
  const crossings = rings.flatMap((ring) =>
    ring.slice(1).flatMap((b, i) => {
      const a = ring[i]!;
      // A horizontal edge never crosses a horizontal ray.
      if (a[1] === b[1]) return [];
      const slope = (b[0] - a[0]) / (b[1] - a[1]);
      const [low, high] = [Math.min(a[1], b[1]), Math.max(a[1], b[1])];
      return [
        `(${y} >= ${num(low)} AND ${y} < ${num(high)} AND ${x} < ${num(a[0])} + (${y} - ${num(a[1])}) * ${num(slope)})`,
      ];
    }),
  );
  return crossings.length === 0 ? '0' : `((${crossings.join(' + ')}) % 2 = 1)`;
}

/** Whether (x, y) lies on one of the segments (collinear to 1e-12 square degrees, within its box). */
function onAnySegmentSql(segments: readonly Segment[], x: string, y: string): string {
  const tests = segments.map(([x1, y1, x2, y2]) => {
    const box = [
      Math.min(x1, x2) - TOUCH,
      Math.min(y1, y2) - TOUCH,
      Math.max(x1, x2) + TOUCH,
      Math.max(y1, y2) + TOUCH,
    ] as const;
    const turn = `(${num(x2)} - ${num(x1)}) * (${y} - ${num(y1)}) - (${num(y2)} - ${num(y1)}) * (${x} - ${num(x1)})`;
    return `(${inBoxSql(x, y, box)} AND round(${turn}, 12) = 0)`;
  });
  return tests.length === 0 ? '0' : `((${tests.join(' + ')}) > 0)`;
}

/** Whether the point field meets the constant geometry: inside its area, else on one of its segments. */
function intersectsSql(point: string, geometry: Geometry): string {
  const { areal, rings, segments, box } = planarGeometry(geometry);
  const [x, y] = [lonOf(point), latOf(point)];
  if (areal) return `(${inBoxSql(x, y, box)} AND ${insideRingsSql(rings, x, y)})`;
  const near: Box = [box[0] - TOUCH, box[1] - TOUCH, box[2] + TOUCH, box[3] + TOUCH];
  return `(${inBoxSql(x, y, near)} AND ${onAnySegmentSql(segments, x, y)})`;
}

/** A relation of a point field and a constant geometry (a null point never matches). */
function relationSql(
  relation: 'intersects' | 'disjoint' | 'within',
  point: string,
  geometry: Geometry,
): string {
  if (relation === 'within' && !isAreal(geometry))
    throw new QueryLangError('within() needs a POLYGON or MULTIPOLYGON geometry');
  const meets = intersectsSql(point, geometry);
  // `= 0`, not NOT, which 18.16 forwards to the shards unparenthesized (values.ts, not).
  return relation === 'disjoint' ? `((${meets}) = 0)` : meets;
}

const spatial =
  (relation: 'intersects' | 'disjoint' | 'within'): FunctionSpelling =>
  ([geo, shape], ctx) =>
    relationSql(relation, pointOf(geo, relation, ctx), geometryOf(shape!.node));

export const GEO: ReadonlyMap<string, FunctionSpelling> = new Map<string, FunctionSpelling>([
  ['within_distance', withinDistance],
  [
    'distance',
    distanceOrWithin(
      (args, ctx) => distanceSql(pointOf(args[0], 'distance', ctx), centerOf(args[1], 'distance')),
      withinDistance,
    ),
  ],
  ['in_bbox', inBbox],
  ['intersects', spatial('intersects')],
  ['disjoint', spatial('disjoint')],
  ['within', spatial('within')],
  ['polygon', spatial('within')],
  [
    'geometry',
    ([geo, shape, relation], ctx) =>
      relationSql(relationOf(relation), pointOf(geo, 'geometry', ctx), geometryOf(shape!.node)),
  ],
]);
