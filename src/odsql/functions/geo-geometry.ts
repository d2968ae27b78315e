// GeoJSON geometries as ODSQL literals hold them (lon first), and the parts the SQL builders walk.

/** A position: longitude then latitude, in degrees. */
export type Position = readonly [number, number];

/** A GeoJSON geometry object of the six types a geo_shape field may hold. */
export type Geometry =
  | { readonly type: 'Point'; readonly coordinates: Position }
  | { readonly type: 'MultiPoint'; readonly coordinates: readonly Position[] }
  | { readonly type: 'LineString'; readonly coordinates: readonly Position[] }
  | { readonly type: 'MultiLineString'; readonly coordinates: readonly (readonly Position[])[] }
  | { readonly type: 'Polygon'; readonly coordinates: readonly (readonly Position[])[] }
  | { readonly type: 'MultiPolygon'; readonly coordinates: readonly (readonly (readonly Position[])[])[] };

export type GeometryType = Geometry['type'];

/** A segment as [lon1, lat1, lon2, lat2]; an isolated point is the segment from itself to itself. */
export type Segment = readonly [number, number, number, number];

/** A box as [west, south, east, north]. */
export type Box = readonly [number, number, number, number];

type Paths = readonly (readonly Position[])[];

/** How each type flattens to paths (a ring, a line, or a lone point) and polygons (lists of rings). */
const PARTS = {
  Point: (c) => ({ paths: [[c]], polygons: [] }),
  MultiPoint: (c) => ({ paths: c.map((p) => [p]), polygons: [] }),
  LineString: (c) => ({ paths: [c], polygons: [] }),
  MultiLineString: (c) => ({ paths: c, polygons: [] }),
  Polygon: (c) => ({ paths: c, polygons: [c] }),
  MultiPolygon: (c) => ({ paths: c.flat(), polygons: c }),
} as const satisfies {
  [T in GeometryType]: (c: Extract<Geometry, { type: T }>['coordinates']) => GeometryParts;
};

/** A geometry as the builders see it: every path (for segments) and every polygon (for areas). */
export interface GeometryParts {
  readonly paths: Paths;
  readonly polygons: readonly Paths[];
}

/** The paths and polygons of a geometry. */
export function partsOf(geometry: Geometry): GeometryParts {
  const split = PARTS[geometry.type] as (c: Geometry['coordinates']) => GeometryParts;
  return split(geometry.coordinates);
}

/** Every segment of every path; a path of one position gives a zero-length segment. */
export function segmentsOf(paths: Paths): Segment[] {
  return paths.flatMap((path) =>
    path.length === 1
      ? [[path[0]![0], path[0]![1], path[0]![0], path[0]![1]] as const]
      : path.slice(1).map((end, i) => [path[i]![0], path[i]![1], end[0], end[1]] as const),
  );
}

/** The bounding box of some positions. */
export function boxOf(positions: readonly Position[]): Box {
  const lons = positions.map((p) => p[0]);
  const lats = positions.map((p) => p[1]);
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
}

/** Whether a geometry has an area (points inside it count as intersecting it). */
export function isAreal(geometry: Geometry): boolean {
  return geometry.type === 'Polygon' || geometry.type === 'MultiPolygon';
}
