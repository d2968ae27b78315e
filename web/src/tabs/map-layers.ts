// The map itself (leaflet): the offline basemap of the world's countries (map-basemap.ts) and the layer of what the API answered: points, shapes,
// or clusters drawn as circles sized by their count.
import * as L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { GeoJsonObject } from 'geojson';
import { countriesLayerData } from './map-basemap.js';
import { formatCount } from '../shared/text.js';

export interface LatLon {
  readonly lat: number;
  readonly lon: number;
}

export interface Cluster extends LatLon {
  readonly count: number;
}

/** What the map draws from one API answer. */
export type Drawn =
  | { readonly kind: 'points'; readonly points: readonly LatLon[] }
  | { readonly kind: 'shapes'; readonly shapes: readonly GeoJsonObject[] }
  | { readonly kind: 'clusters'; readonly clusters: readonly Cluster[] };

const ACCENT = '#0b5cad';

/** A map of the world with the countries drawn, keyboard-operable (arrows pan, +/- zoom). */
export function createMap(container: HTMLElement): L.Map {
  const map = L.map(container, { worldCopyJump: true, minZoom: 1, maxZoom: 18, renderer: L.svg() });
  map.attributionControl.addAttribution('Countries: Natural Earth');
  L.geoJSON(countriesLayerData(), {
    interactive: false,
    style: { color: '#9aa5b4', weight: 0.6, fillColor: '#eef1ec', fillOpacity: 1 },
  }).addTo(map);
  map.fitWorld();
  return map;
}

/** A cluster as a disc showing its count, sized by its share of the largest one. */
function clusterMarker(cluster: Cluster, largest: number): L.Marker {
  const size = Math.round(22 + 30 * Math.sqrt(cluster.count / largest));
  const icon = L.divIcon({
    className: 'map-cluster',
    html: `<span data-count="${cluster.count}">${formatCount(cluster.count)}</span>`,
    iconSize: [size, size],
  });
  return L.marker([cluster.lat, cluster.lon], { icon, keyboard: false, interactive: false });
}

const pointStyle: L.CircleMarkerOptions = {
  className: 'map-point',
  radius: 4,
  color: '#ffffff',
  weight: 1,
  fillColor: ACCENT,
  fillOpacity: 0.85,
  interactive: false,
};

/** The layer of one answer. */
export function drawnLayer(drawn: Drawn): L.FeatureGroup {
  const group = L.featureGroup();
  if (drawn.kind === 'points') {
    for (const p of drawn.points) L.circleMarker([p.lat, p.lon], pointStyle).addTo(group);
  } else if (drawn.kind === 'shapes') {
    L.geoJSON([...drawn.shapes], {
      interactive: false,
      style: { className: 'map-shape', color: ACCENT, weight: 2, fillOpacity: 0.25 },
      pointToLayer: (_feature, at) => L.circleMarker(at, { ...pointStyle, className: 'map-shape' }),
    }).addTo(group);
  } else {
    const largest = Math.max(1, ...drawn.clusters.map((c) => c.count));
    for (const c of drawn.clusters) clusterMarker(c, largest).addTo(group);
  }
  return group;
}
