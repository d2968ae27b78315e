// Geo math every dialect writes its SQL from, so that both engines test a point the same way:
// the latitude/longitude box that holds a distance's circle (most rows are rejected by its few
// comparisons before the haversine distance is computed), and the planar facts of a constant
// geometry that intersects / within / disjoint read. A dialect gives only its spelling of numbers,
// coordinates and the distance.
import {
  boxOf,
  isAreal,
  partsOf,
  segmentsOf,
  type Box,
  type Geometry,
  type GeometryParts,
  type Position,
  type Segment,
} from '../functions/geo-geometry.js';
import { EARTH_RADIUS_METERS } from '../functions/geo-units.js';

/** How a dialect writes a point's coordinates, a number, and the test `distance <= meters`. */
export interface CircleSpelling {
  readonly lon: string;
  readonly lat: string;
  /** The exact test: the haversine distance from the center within the radius. */
  readonly near: string;
  readonly num: (value: number) => string;
}

/**
 * Points within `meters` of the center: the latitude/longitude box that holds the circle, then the
 * exact test. A circle reaching the antipode holds every point; one reaching a pole, every longitude.
 */
export function withinCircleSql(center: Position, meters: number, spelling: CircleSpelling): string {
  const { lon, lat, near, num } = spelling;
  const radians = meters / EARTH_RADIUS_METERS;
  if (radians >= Math.PI) return `(${lat} IS NOT NULL)`;
  const degrees = (radians * 180) / Math.PI;
  const [south, north] = [center[1] - degrees, center[1] + degrees];
  if (south <= -90 || north >= 90) return `(${lat} BETWEEN ${num(south)} AND ${num(north)} AND ${near})`;
  const spread = (Math.asin(Math.sin(radians) / Math.cos((center[1] * Math.PI) / 180)) * 180) / Math.PI;
  const lons = lonRangeSql(lon, center[0] - spread, center[0] + spread, num);
  return `(${lat} BETWEEN ${num(south)} AND ${num(north)} AND ${lons} AND ${near})`;
}

/** lon in [west, east], where a bound past ±180 wraps around the antimeridian. */
function lonRangeSql(lon: string, west: number, east: number, num: (value: number) => string): string {
  if (west < -180) return `(${lon} >= ${num(west + 360)} OR ${lon} <= ${num(east)})`;
  if (east > 180) return `(${lon} >= ${num(west)} OR ${lon} <= ${num(east - 360)})`;
  return `${lon} BETWEEN ${num(west)} AND ${num(east)}`;
}

/** What the planar tests read of a constant geometry: its parts, whether it has an area, its rings, segments and box. */
export interface PlanarGeometry extends GeometryParts {
  readonly areal: boolean;
  /** Every ring of every polygon (a valid MultiPolygon's parts do not overlap: even-odd holds). */
  readonly rings: readonly (readonly Position[])[];
  readonly segments: readonly Segment[];
  readonly box: Box;
}

/** The planar facts of a constant geometry, computed once. */
export function planarGeometry(geometry: Geometry): PlanarGeometry {
  const { paths, polygons } = partsOf(geometry);
  return {
    paths,
    polygons,
    areal: isAreal(geometry),
    rings: polygons.flat(),
    segments: segmentsOf(paths),
    box: boxOf(paths.flat()),
  };
}
