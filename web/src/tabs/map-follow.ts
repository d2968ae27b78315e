// What the map draws for one set of filters, kept up as the view moves: up to MAX_FEATURES records
// one by one (points, or shapes), above that the server's geo_cluster groups, again whenever the
// zoom changes their precision (or, when the world has too many, whenever the view moves).
import type * as L from 'leaflet';
import type { ApiFailure } from '../shared/api.js';
import { failureOf } from '../shared/use-api.js';
import { filterParams, type FilterState } from '../shared/url-state.js';
import { drawnLayer, type Drawn, type DrawnClicks } from './map-layers.js';
import { countRecords, loadClusters, loadGeometries } from './map-load.js';
import { bboxCondition, clusterPrecision, MAX_FEATURES, type Box, type GeoFields } from './map-query.js';

/** What the map shows: the filters' count and how it is drawn. */
export interface Shown {
  readonly total: number;
  readonly drawn: Drawn;
}

/** The map's view as four edges in degrees. */
export function boxOf(map: L.Map): Box {
  const b = map.getBounds();
  return { south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() };
}

/** How one drawing goes: the dataset, its geo fields, the filters, and what it tells the page. */
export interface Following {
  readonly id: string;
  readonly geo: GeoFields;
  readonly state: FilterState;
  /** Whether the first drawing moves the map onto what it drew (not when the URL gave the view). */
  readonly fit: boolean;
  readonly clicks: DrawnClicks;
  readonly report: (shown: Shown | null, error: ApiFailure | null) => void;
}

/** Draws on `map` the records of `how.state`, until the returned function is called. */
export function follow(map: L.Map, how: Following): () => void {
  const { id, geo, report } = how;
  const filters = filterParams(how.state);
  let layer: L.FeatureGroup | null = null;
  let controller = new AbortController();
  let total = 0;
  const draw = (drawn: Drawn, fit: boolean) => {
    layer?.remove();
    layer = drawnLayer(drawn, how.clicks).addTo(map);
    // Not animated: a view restored meanwhile (Back) would be undone by the animation's end.
    if (fit && layer.getBounds().isValid())
      map.fitBounds(layer.getBounds(), { padding: [24, 24], maxZoom: 12, animate: false });
    report({ total, drawn }, null);
  };
  // Clusters: again when the zoom changes the precision; limited to the view when the world's
  // groups would be more than MAX_FEATURES.
  let precision = 0;
  let wholeWorld = true;
  const clusters = async (fit: boolean) => {
    controller.abort();
    controller = new AbortController();
    precision = clusterPrecision(map.getZoom());
    const point = geo.point!.name;
    let answer = await loadClusters(id, point, precision, filters, null, controller.signal);
    wholeWorld = answer.groups <= MAX_FEATURES;
    if (!wholeWorld) {
      const within = bboxCondition(point, boxOf(map));
      answer = await loadClusters(id, point, precision, filters, within, controller.signal);
    }
    draw(answer.drawn, fit);
  };
  const failed = (error: unknown) => {
    if (!controller.signal.aborted) report(null, failureOf(error));
  };
  let clustered = false;
  const onMove = () => {
    if (clustered && (!wholeWorld || clusterPrecision(map.getZoom()) !== precision)) {
      report(null, null);
      clusters(false).catch(failed);
    }
  };
  map.on('moveend', onMove);
  report(null, null);
  countRecords(id, filters, controller.signal)
    .then(async (count) => {
      total = count;
      clustered = count > MAX_FEATURES && geo.point !== null;
      if (clustered) return clusters(how.fit);
      draw(await loadGeometries(id, geo, filters, controller.signal), how.fit);
    })
    .catch(failed);
  return () => {
    controller.abort();
    map.off('moveend', onMove);
    layer?.remove();
  };
}
