// The offline basemap: the world's countries (Natural Earth 1:110m from world-atlas, bundled into
// the map tab's script; no tile server), made drawable on a flat map.
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson';
import countries from 'world-atlas/countries-110m.json';

/**
 * A ring made continuous in longitude: world-atlas cuts rings at the antimeridian for a spherical
 * renderer, so a flat map would draw a line across the world from 180 to -180. A ring that goes
 * round the pole (Antarctica) ends 360° from where it started: it is closed along the pole.
 */
function flatRing(ring: readonly Position[]): Position[] {
  const out: Position[] = [];
  let shift = 0;
  for (const [i, point] of ring.entries()) {
    const lon = point[0]!;
    const previous = ring[i - 1]?.[0];
    if (previous !== undefined && Math.abs(lon - previous) > 180) shift += lon < previous ? 360 : -360;
    out.push([lon + shift, point[1]!]);
  }
  const first = out[0];
  const last = out[out.length - 1];
  if (first && last && shift !== 0) {
    const pole = first[1]! < 0 ? -90 : 90;
    out.push([last[0]!, pole], [first[0]!, pole], first);
  }
  return out;
}

function flatGeometry(geometry: Polygon | MultiPolygon): Polygon | MultiPolygon {
  return geometry.type === 'Polygon'
    ? { type: 'Polygon', coordinates: geometry.coordinates.map(flatRing) }
    : { type: 'MultiPolygon', coordinates: geometry.coordinates.map((p) => p.map(flatRing)) };
}

/** The countries as GeoJSON a flat map draws without lines across the antimeridian. */
export function countriesLayerData(): FeatureCollection<Polygon | MultiPolygon> {
  const topology = countries as unknown as Topology;
  const world = feature(topology, topology.objects.countries as GeometryCollection) as FeatureCollection<
    Polygon | MultiPolygon
  >;
  return {
    type: 'FeatureCollection',
    features: world.features.map((f) => ({ ...f, geometry: flatGeometry(f.geometry) })),
  };
}
