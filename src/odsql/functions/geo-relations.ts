// intersects / within / disjoint of a geo field against a constant geometry, in planar lon/lat geometry.
import { QueryLangError } from '../errors.js';
import {
  boxOf,
  isAreal,
  partsOf,
  segmentsOf,
  type Box,
  type Geometry,
  type Position,
} from './geo-geometry.js';
import {
  inBoxSql,
  lambdaName,
  listSegment,
  pointCoordinates,
  pointOnSegmentSql,
  polygonContainsPointSql,
  ringsContainConstantSql,
  segmentListSql,
  segmentsCrossSql,
  segmentsTouchSql,
} from './geo-sql.js';
import { allSql, anySql, withShape, type ShapeLists } from './geo-shape.js';

/** A constant geometry with what the SQL builders need of it computed once. */
export interface PreparedGeometry {
  readonly areal: boolean;
  readonly polygons: readonly (readonly (readonly Position[])[])[];
  /** DOUBLE[][] literal of every segment. */
  readonly segments: string;
  readonly box: Box;
  /** One vertex of each path: if a shape holds none of them and no edges meet, it holds no part. */
  readonly probes: readonly Position[];
  /** A point strictly inside each hole: a shape holding one is not within the geometry. */
  readonly holeProbes: readonly Position[];
}

/** Computes the segments, box and probe points of a constant geometry. */
export function prepareGeometry(geometry: Geometry): PreparedGeometry {
  const { paths, polygons } = partsOf(geometry);
  const segments = segmentsOf(paths);
  return {
    areal: isAreal(geometry),
    polygons,
    segments: segmentListSql(segments),
    box: boxOf(paths.flat()),
    probes: paths.map((path) => path[0]!),
    holeProbes: polygons.flatMap((rings) => rings.slice(1).flatMap((hole) => interiorPoint(hole) ?? [])),
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

/** Whether (x, y) is in the closed geometry: inside an area (ray casting) or on a segment. */
export function closedContainsSql(g: PreparedGeometry, x: string, y: string): string {
  const seg = lambdaName('g_segment');
  const onEdge = anySql(g.segments, seg, pointOnSegmentSql(x, y, listSegment(seg)));
  const inside = g.polygons.map((rings) => polygonContainsPointSql(rings, x, y));
  return `(${inBoxSql(x, y, expanded(g.box))} AND (${[...inside, onEdge].join(' OR ')}))`;
}

/** Whether a shape segment (a DOUBLE[] lambda variable) meets one of the geometry's segments. */
function segmentMeetsSql(g: PreparedGeometry, s: string, test: typeof segmentsTouchSql): string {
  const [seg, box] = [lambdaName('g_segment'), expanded(g.box)];
  const near = `least(${s}[1], ${s}[3]) <= ${box[2]} AND greatest(${s}[1], ${s}[3]) >= ${box[0]} AND least(${s}[2], ${s}[4]) <= ${box[3]} AND greatest(${s}[2], ${s}[4]) >= ${box[1]}`;
  return `(${near} AND ${anySql(g.segments, seg, test(listSegment(s), listSegment(seg)))})`;
}

function shapeIntersects(g: PreparedGeometry, shape: ShapeLists): string {
  const [s, p] = [lambdaName('s'), lambdaName('p')];
  const tests = [anySql(shape.segments, s, segmentMeetsSql(g, s, segmentsTouchSql))];
  if (g.areal) tests.push(anySql(shape.vertices, p, closedContainsSql(g, `${p}[1]`, `${p}[2]`)));
  const probes = g.probes.map((probe) => ringsContainConstantSql(shape.segments, probe));
  tests.push(`(${shape.areal} AND (${probes.join(' OR ')}))`);
  return `(${tests.join(' OR ')})`;
}

function shapeWithin(g: PreparedGeometry, shape: ShapeLists): string {
  const [s, p] = [lambdaName('s'), lambdaName('p')];
  const midpoint = (axis: 1 | 2) => `(${s}[${axis}] + ${s}[${axis + 2}]) / 2`;
  const tests = [
    allSql(shape.vertices, p, closedContainsSql(g, `${p}[1]`, `${p}[2]`)),
    allSql(shape.segments, s, closedContainsSql(g, midpoint(1), midpoint(2))),
    `NOT ${anySql(shape.segments, s, segmentMeetsSql(g, s, segmentsCrossSql))}`,
  ];
  const holes = g.holeProbes.map((probe) => ringsContainConstantSql(shape.segments, probe));
  if (holes.length > 0) tests.push(`NOT (${shape.areal} AND (${holes.join(' OR ')}))`);
  return `(${tests.join(' AND ')})`;
}

function requireArea(g: PreparedGeometry): void {
  if (!g.areal) throw new QueryLangError('within() needs a POLYGON or MULTIPOLYGON geometry');
}

type FieldKind = 'geo_point_2d' | 'geo_shape';
type Relation = (fieldSql: string, g: PreparedGeometry) => string;

const INTERSECTS = {
  geo_point_2d: (field, g) => {
    const { lon, lat } = pointCoordinates(field);
    return closedContainsSql(g, lon, lat);
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
    geo_point_2d: (field, g) => (requireArea(g), INTERSECTS.geo_point_2d(field, g)),
    geo_shape: (field, g) => (requireArea(g), withShape(field, (shape) => shapeWithin(g, shape))),
  },
} as const satisfies Record<'intersects' | 'disjoint' | 'within', Record<FieldKind, Relation>>;
