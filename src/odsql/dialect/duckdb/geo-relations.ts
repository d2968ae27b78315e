// intersects / within / disjoint of a geo field against a constant geometry in DuckDB's SQL, in
// planar lon/lat geometry (within() takes an area: functions/geo.ts checks it).
import type { Box, Geometry, Position } from '../../functions/geo-geometry.js';
import { planarGeometry, type PlanarGeometry } from '../geo-math.js';
import { insideRingsSql, onAnySegmentSql } from './geo-slabs.js';
import {
  inBoxSql,
  lambdaName,
  listSegment,
  pointCoordinates,
  ringsContainPointSql,
  segmentListSql,
  listConstant,
  segmentsCrossSql,
  segmentsTouchSql,
} from './geo-sql.js';
import { allSql, anySql, withShape, type ShapeLists } from './geo-shape.js';

/** A constant geometry with what the SQL builders need of it computed once. */
export interface PreparedGeometry extends Pick<PlanarGeometry, 'areal' | 'rings' | 'segments' | 'box'> {
  /** DOUBLE[][] literal of every segment. */
  readonly segmentList: string;
  /** One vertex of each path: if a shape holds none of them and no edges meet, it holds no part. */
  readonly probes: string;
  /** A point strictly inside each hole: a shape holding one is not within the geometry. */
  readonly holeProbes: string;
}

/** A DOUBLE[][] constant of positions (an empty list when there are none). */
const positionList = (positions: readonly Position[]) => listConstant(positions, 2);

/** Computes the segments, box and probe points of a constant geometry. */
export function prepareGeometry(geometry: Geometry): PreparedGeometry {
  const { paths, polygons, areal, rings, segments, box } = planarGeometry(geometry);
  return {
    areal,
    rings,
    segments,
    segmentList: segmentListSql(segments),
    box,
    probes: positionList(paths.map((path) => path[0]!)),
    holeProbes: positionList(
      polygons.flatMap((rings) => rings.slice(1).flatMap((hole) => interiorPoint(hole) ?? [])),
    ),
  };
}

/** A point strictly inside a simple ring: the middle of the first span of a scanline between vertices. */
function interiorPoint(ring: readonly Position[]): Position[] | null {
  const lats = [...new Set(ring.map((p) => p[1]))].sort((a, b) => a - b);
  if (lats.length < 2) return null;
  const y = (lats[0]! + lats[1]!) / 2;
  const xs = ring
    .slice(1)
    .map((b, i) => [ring[i]!, b] as const)
    .filter(([a, b]) => a[1] > y !== b[1] > y)
    .map(([a, b]) => a[0] + ((y - a[1]) * (b[0] - a[0])) / (b[1] - a[1]))
    .sort((a, b) => a - b);
  return xs.length >= 2 ? [[(xs[0]! + xs[1]!) / 2, y]] : null;
}

const expanded = (box: Box): Box => [box[0] - 1e-9, box[1] - 1e-9, box[2] + 1e-9, box[3] + 1e-9];

/** Whether (x, y) is inside the geometry's area by ray casting (a point exactly on an edge may fall either way). */
function insideSql(g: PreparedGeometry, x: string, y: string): string {
  return `(${inBoxSql(x, y, g.box)} AND ${insideRingsSql(g.rings, x, y)})`;
}

/** Whether (x, y) is in the closed geometry: inside its area or on one of its segments. */
function closedContainsSql(g: PreparedGeometry, x: string, y: string): string {
  const tests = g.areal ? [insideRingsSql(g.rings, x, y)] : [];
  tests.push(onAnySegmentSql(g.segments, x, y));
  return `(${inBoxSql(x, y, expanded(g.box))} AND (${tests.join(' OR ')}))`;
}

/** Whether a shape segment (a DOUBLE[] lambda variable) meets one of the geometry's segments. */
function segmentMeetsSql(g: PreparedGeometry, s: string, test: typeof segmentsTouchSql): string {
  const [seg, box] = [lambdaName('g_segment'), expanded(g.box)];
  const near = `least(${s}[1], ${s}[3]) <= ${box[2]} AND greatest(${s}[1], ${s}[3]) >= ${box[0]} AND least(${s}[2], ${s}[4]) <= ${box[3]} AND greatest(${s}[2], ${s}[4]) >= ${box[1]}`;
  return `(${near} AND ${anySql(g.segmentList, seg, test(listSegment(s), listSegment(seg)))})`;
}

/** Whether the shape's area holds one of the points of a DOUBLE[][] literal. */
function holdsAnySql(shape: ShapeLists, points: string): string {
  const p = lambdaName('probe');
  return `(${shape.areal} AND ${anySql(points, p, ringsContainPointSql(shape.segments, `${p}[1]`, `${p}[2]`))})`;
}

function shapeIntersects(g: PreparedGeometry, shape: ShapeLists): string {
  const [s, p] = [lambdaName('s'), lambdaName('p')];
  const tests = [anySql(shape.segments, s, segmentMeetsSql(g, s, segmentsTouchSql))];
  if (g.areal) tests.push(anySql(shape.vertices, p, insideSql(g, `${p}[1]`, `${p}[2]`)));
  tests.push(holdsAnySql(shape, g.probes));
  return `(${tests.join(' OR ')})`;
}

function shapeWithin(g: PreparedGeometry, shape: ShapeLists): string {
  const [s, p] = [lambdaName('s'), lambdaName('p')];
  const midpoint = (axis: 1 | 2) => `(${s}[${axis}] + ${s}[${axis + 2}]) / 2`;
  return [
    allSql(shape.vertices, p, closedContainsSql(g, `${p}[1]`, `${p}[2]`)),
    allSql(shape.segments, s, closedContainsSql(g, midpoint(1), midpoint(2))),
    `NOT ${anySql(shape.segments, s, segmentMeetsSql(g, s, segmentsCrossSql))}`,
    `NOT ${holdsAnySql(shape, g.holeProbes)}`,
  ].join(' AND ');
}

type FieldKind = 'geo_point_2d' | 'geo_shape';
type Relation = (fieldSql: string, g: PreparedGeometry) => string;

const INTERSECTS = {
  // Points: ray casting against an area (the brief's fast unrolled test); on a segment otherwise.
  geo_point_2d: (field, g) => {
    const { lon, lat } = pointCoordinates(field);
    return g.areal ? insideSql(g, lon, lat) : closedContainsSql(g, lon, lat);
  },
  geo_shape: (field, g) => withShape(field, (shape) => shapeIntersects(g, shape)),
} as const satisfies Record<FieldKind, Relation>;

/** SQL of each spatial relation by field type; a NULL field gives NULL (the row never matches). */
export const RELATIONS = {
  intersects: INTERSECTS,
  disjoint: {
    geo_point_2d: (field, g) => `NOT ${INTERSECTS.geo_point_2d(field, g)}`,
    geo_shape: (field, g) => `NOT ${INTERSECTS.geo_shape(field, g)}`,
  },
  within: {
    geo_point_2d: (field, g) => INTERSECTS.geo_point_2d(field, g),
    geo_shape: (field, g) => `(${withShape(field, (shape) => shapeWithin(g, shape))})`,
  },
} as const satisfies Record<'intersects' | 'disjoint' | 'within', Record<FieldKind, Relation>>;
