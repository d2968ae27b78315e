// Geometries of exported rows: which column holds them, and the KML and GPX forms written from a
// parsed geometry (its GeoJSON comes from the engine: src/odsql/shape.ts's geometry cells).
import type { OutputColumn } from '../odsql/index.js';
import type { Geometry } from './projection.js';

type Position = [number, number];

/** The column exported as geometry: a shape first, else a point; null when there is none. */
export function geometryColumn(columns: readonly OutputColumn[]): OutputColumn | null {
  const single = columns.filter((c) => !c.multivalued);
  return single.find((c) => c.type === 'geo_shape') ?? single.find((c) => c.type === 'geo_point_2d') ?? null;
}

/** Every line (ring or path) of a geometry, and its points, flattened. */
export function linesOf(geometry: Geometry): Position[][] {
  const c = geometry.coordinates;
  const lines: Record<string, () => Position[][]> = {
    Point: () => [[c as Position]],
    MultiPoint: () => [c as Position[]],
    LineString: () => [c as Position[]],
    MultiLineString: () => c as Position[][],
    Polygon: () => c as Position[][],
    MultiPolygon: () => (c as Position[][][]).flat(),
    GeometryCollection: () => (geometry.geometries ?? []).flatMap(linesOf),
  };
  return lines[geometry.type]?.() ?? [];
}

const kmlCoordinates = (points: Position[]): string =>
  `<coordinates>${points.map(([x, y]) => `${x},${y}`).join(' ')}</coordinates>`;

const kmlPolygon = (rings: Position[][]): string =>
  `<Polygon>${rings
    .map((ring, i) => {
      const side = i === 0 ? 'outerBoundaryIs' : 'innerBoundaryIs';
      return `<${side}><LinearRing>${kmlCoordinates(ring)}</LinearRing></${side}>`;
    })
    .join('')}</Polygon>`;

/** The KML geometry element of a GeoJSON geometry. */
export function kmlGeometry(geometry: Geometry): string {
  const c = geometry.coordinates;
  const multi = (parts: string[]): string => `<MultiGeometry>${parts.join('')}</MultiGeometry>`;
  const forms: Record<string, () => string> = {
    Point: () => `<Point>${kmlCoordinates([c as Position])}</Point>`,
    MultiPoint: () => multi((c as Position[]).map((p) => `<Point>${kmlCoordinates([p])}</Point>`)),
    LineString: () => `<LineString>${kmlCoordinates(c as Position[])}</LineString>`,
    MultiLineString: () =>
      multi((c as Position[][]).map((l) => `<LineString>${kmlCoordinates(l)}</LineString>`)),
    Polygon: () => kmlPolygon(c as Position[][]),
    MultiPolygon: () => multi((c as Position[][][]).map(kmlPolygon)),
    GeometryCollection: () => multi((geometry.geometries ?? []).map(kmlGeometry)),
  };
  return forms[geometry.type]?.() ?? '';
}

/** The GPX element of a row: a waypoint for a point, else a track of the geometry's lines. */
export function gpxElement(geometry: Geometry, body: string): string {
  if (geometry.type === 'Point') {
    const [lon, lat] = geometry.coordinates as Position;
    return `<wpt lat="${lat}" lon="${lon}">${body}</wpt>`;
  }
  const segments = linesOf(geometry)
    .map(
      (line) => `<trkseg>${line.map(([lon, lat]) => `<trkpt lat="${lat}" lon="${lon}"/>`).join('')}</trkseg>`,
    )
    .join('');
  return `<trk>${body}${segments}</trk>`;
}
