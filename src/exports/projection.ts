// Reprojection of exported geometries (the `epsg` parameter): proj4 with the EPSG registry's
// definitions, and the WKT a shapefile's .prj needs.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import proj4 from 'proj4';

const require = createRequire(import.meta.url);
const registryFolder = path.join(path.dirname(require.resolve('epsg-index/package.json')), 's');

/** A GeoJSON geometry (as parsed from the stored GeoJSON text). */
export interface Geometry {
  type: string;
  coordinates?: unknown;
  geometries?: Geometry[];
}

/** A target coordinate system: its code, its WKT, and the lon/lat -> x/y conversion. */
export interface Projection {
  readonly epsg: number;
  readonly wkt: string;
  /** null for 4326: coordinates are written as stored. */
  readonly forward: ((xy: [number, number]) => [number, number]) | null;
}

/** The projection of an EPSG code, or null when the registry does not know it as a CRS. */
export async function projectionOf(epsg: number): Promise<Projection | null> {
  const text = await readFile(path.join(registryFolder, `${epsg}.json`), 'utf8').catch(() => null);
  if (text === null) return null;
  const entry = JSON.parse(text) as { kind: string; wkt: string | null; proj4: string | null };
  if (!entry.kind.startsWith('CRS') || !entry.proj4 || !entry.wkt) return null;
  if (epsg === 4326) return { epsg, wkt: entry.wkt, forward: null };
  const converter = proj4('EPSG:4326', entry.proj4);
  return { epsg, wkt: entry.wkt, forward: (xy) => converter.forward(xy) };
}

/** Applies `forward` to every position of a GeoJSON coordinates array (any nesting). */
function mapPositions(coordinates: unknown, forward: (xy: [number, number]) => [number, number]): unknown {
  if (!Array.isArray(coordinates)) return coordinates;
  if (typeof coordinates[0] === 'number') {
    // Heights (a third coordinate) are kept as they are.
    return [...forward([coordinates[0], coordinates[1] as number]), ...(coordinates.slice(2) as number[])];
  }
  return coordinates.map((inner) => mapPositions(inner, forward));
}

/** The geometry in the projection (the same object when no conversion is needed). */
export function reproject(geometry: Geometry, projection: Projection | null): Geometry {
  const forward = projection?.forward;
  if (!forward) return geometry;
  if (geometry.geometries) {
    return { type: geometry.type, geometries: geometry.geometries.map((g) => reproject(g, projection)) };
  }
  return { type: geometry.type, coordinates: mapPositions(geometry.coordinates, forward) };
}
