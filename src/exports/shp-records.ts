// Shapefile geometry records (ESRI whitepaper): the shape type of a geometry and its record bytes.
import { linesOf } from './geometry.js';
import type { Geometry } from './projection.js';

type Position = [number, number];

/** Shape types written: null, point, polyline, polygon, multipoint. */
export const SHAPE_TYPES: Record<string, number> = {
  Point: 1,
  LineString: 3,
  MultiLineString: 3,
  Polygon: 5,
  MultiPolygon: 5,
  MultiPoint: 8,
};

/** Bounding box [xmin, ymin, xmax, ymax] of points (folded into `box`). */
export function extend(box: number[], points: Position[]): number[] {
  for (const [x, y] of points) {
    box[0] = Math.min(box[0]!, x);
    box[1] = Math.min(box[1]!, y);
    box[2] = Math.max(box[2]!, x);
    box[3] = Math.max(box[3]!, y);
  }
  return box;
}

const emptyBox = (): number[] => [Infinity, Infinity, -Infinity, -Infinity];

/** Twice the signed area: positive when the ring turns counter-clockwise. */
const signedArea = (ring: Position[]): number =>
  ring.reduce((sum, [x, y], i) => {
    const [nx, ny] = ring[(i + 1) % ring.length]!;
    return sum + (x * ny - nx * y);
  }, 0);

/** Polygon rings in shapefile order: outer rings clockwise, holes counter-clockwise. */
function shapefileRings(geometry: Geometry): Position[][] {
  const polygons =
    geometry.type === 'Polygon'
      ? [geometry.coordinates as Position[][]]
      : (geometry.coordinates as Position[][][]);
  return polygons.flatMap((rings) =>
    rings.map((ring, i) => {
      const clockwise = signedArea(ring) < 0;
      return clockwise === (i === 0) ? ring : [...ring].reverse();
    }),
  );
}

/** The record content of a geometry as shape `type` (a null shape when it is another type). */
export function shapeContent(
  geometry: Geometry | null,
  type: number,
): { bytes: Buffer; box: number[] | null } {
  if (!geometry || SHAPE_TYPES[geometry.type] !== type) {
    const bytes = Buffer.alloc(4);
    bytes.writeInt32LE(0, 0);
    return { bytes, box: null };
  }
  if (type === 1) {
    const [x, y] = geometry.coordinates as Position;
    const bytes = Buffer.alloc(20);
    bytes.writeInt32LE(1, 0);
    bytes.writeDoubleLE(x, 4);
    bytes.writeDoubleLE(y, 12);
    return { bytes, box: [x, y, x, y] };
  }
  const parts = type === 5 ? shapefileRings(geometry) : linesOf(geometry);
  const points = parts.flat();
  const box = extend(emptyBox(), points);
  const partsSize = type === 8 ? 0 : 4 + parts.length * 4;
  const bytes = Buffer.alloc(4 + 32 + partsSize + 4 + points.length * 16);
  bytes.writeInt32LE(type, 0);
  box.forEach((v, i) => bytes.writeDoubleLE(v, 4 + i * 8));
  let offset = 36;
  if (type !== 8) {
    bytes.writeInt32LE(parts.length, offset);
    offset += 4;
  }
  bytes.writeInt32LE(points.length, offset);
  offset += 4;
  if (type !== 8) {
    let start = 0;
    for (const part of parts) {
      bytes.writeInt32LE(start, offset);
      offset += 4;
      start += part.length;
    }
  }
  for (const [x, y] of points) {
    bytes.writeDoubleLE(x, offset);
    bytes.writeDoubleLE(y, offset + 8);
    offset += 16;
  }
  return { bytes, box };
}

/** The 100-byte header of a .shp or .shx file. */
export function shapeHeader(type: number, fileBytes: number, box: number[] | null): Buffer {
  const header = Buffer.alloc(100);
  header.writeInt32BE(9994, 0);
  header.writeInt32BE(fileBytes / 2, 24);
  header.writeInt32LE(1000, 28);
  header.writeInt32LE(type, 32);
  (box ?? [0, 0, 0, 0]).forEach((v, i) => header.writeDoubleLE(v, 36 + i * 8));
  return header;
}
