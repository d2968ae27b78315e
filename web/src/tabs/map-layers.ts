// The map itself (leaflet): the offline basemap of the world's countries (map-basemap.ts) and the
// layer of what the API answered: points and shapes that open their record when clicked, or
// clusters drawn as discs as wide as their count's label, which zoom in on their cell.
import * as L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { GeoJsonObject } from 'geojson';
import { countriesLayerData } from './map-basemap.js';
import { counted } from '../shared/text.js';
import { clusterLabel, labelDiameter } from './map-label.js';
import type { Box } from './map-query.js';

export interface LatLon {
  readonly lat: number;
  readonly lon: number;
}

/** A point of a record: its id (what the record lookup takes), or null when the API gave none. */
export interface Point extends LatLon {
  readonly id: string | null;
}

/** A shape of a record and the record's id. */
export interface Shape {
  readonly shape: GeoJsonObject;
  readonly id: string | null;
}

/** A geo_cluster group: its points' mean, their count and the web-mercator tile they share. */
export interface Cluster extends LatLon {
  readonly count: number;
  readonly cell: Box;
}

/** What the map draws from one API answer. */
export type Drawn =
  | { readonly kind: 'points'; readonly points: readonly Point[] }
  | { readonly kind: 'shapes'; readonly shapes: readonly Shape[] }
  | { readonly kind: 'clusters'; readonly clusters: readonly Cluster[] };

/** What a click on the drawn layer does. */
export interface DrawnClicks {
  /** A point or shape: opens the record `id`. */
  readonly record: (id: string) => void;
  readonly cluster: (cluster: Cluster) => void;
}

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

/**
 * A cluster as a disc showing its count: its area grows with its share of the largest cluster,
 * and it is never narrower than its label (so `1,013` is never cut to `,013`).
 */
function clusterMarker(cluster: Cluster, largest: number, onClick: DrawnClicks['cluster']): L.Marker {
  const label = clusterLabel(cluster.count);
  const size = Math.round(Math.max(22 + 30 * Math.sqrt(cluster.count / largest), labelDiameter(label)));
  const icon = L.divIcon({
    className: 'map-cluster',
    html: `<span data-count="${cluster.count}">${label}</span>`,
    iconSize: [size, size],
  });
  // Not a keyboard stop (hundreds of them would trap the tab key): the list below the map is.
  const marker = L.marker([cluster.lat, cluster.lon], {
    icon,
    keyboard: false,
    title: counted(cluster.count, 'record'),
  });
  return marker.on('click', () => onClick(cluster));
}

const pointStyle: L.CircleMarkerOptions = {
  className: 'map-point',
  radius: 4,
  color: '#ffffff',
  weight: 1,
  fillColor: ACCENT,
  fillOpacity: 0.85,
};

/** Calls `open` with the record id when the layer is clicked (a layer without id stays inert). */
function opening<T extends L.Path>(layer: T, id: string | null, open: DrawnClicks['record']): T {
  if (id === null) layer.options.interactive = false;
  else layer.on('click', () => open(id));
  return layer;
}

/** The layer of one answer. */
export function drawnLayer(drawn: Drawn, clicks: DrawnClicks): L.FeatureGroup {
  const group = L.featureGroup();
  if (drawn.kind === 'points') {
    for (const p of drawn.points) {
      opening(L.circleMarker([p.lat, p.lon], { ...pointStyle }), p.id, clicks.record).addTo(group);
    }
  } else if (drawn.kind === 'shapes') {
    for (const { shape, id } of drawn.shapes) {
      L.geoJSON(shape, {
        style: { className: 'map-shape', color: ACCENT, weight: 2, fillOpacity: 0.25 },
        pointToLayer: (_feature, at) => L.circleMarker(at, { ...pointStyle, className: 'map-shape' }),
        onEachFeature: (_feature, layer) => opening(layer as L.Path, id, clicks.record),
      }).addTo(group);
    }
  } else {
    const largest = Math.max(1, ...drawn.clusters.map((c) => c.count));
    for (const c of drawn.clusters) clusterMarker(c, largest, clicks.cluster).addTo(group);
  }
  return group;
}
