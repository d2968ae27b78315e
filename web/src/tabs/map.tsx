// The map tab: the records matching the page's filters on an offline world map. Up to
// MAX_FEATURES records are drawn one by one (points, or shapes); above that the server's
// geo_cluster groups are drawn, again at each zoom level. "Filter to this view" adds the view's
// in_bbox to the URL's where, so every other tab follows.
import { useEffect, useRef, useState } from 'preact/hooks';
import type * as L from 'leaflet';
import { mount } from '../shared/mount.js';
import { pageData } from '../shared/page.js';
import { ApiFailure } from '../shared/api.js';
import { useUrlState } from '../shared/use-url-state.js';
import { useDataset } from '../shared/dataset.js';
import { filterParams, type FilterState } from '../shared/url-state.js';
import { FilterSummary } from '../shared/filter-summary.js';
import { formatCount } from '../shared/text.js';
import { createMap, drawnLayer, type Drawn } from './map-layers.js';
import { countRecords, loadClusters, loadGeometries } from './map-load.js';
import {
  bboxCondition,
  clusterPrecision,
  geoFields,
  MAX_FEATURES,
  whereWithBbox,
  type GeoFields,
} from './map-query.js';
import './map.css';

/** What the map shows: the filters' count and how it is drawn. */
interface Shown {
  readonly total: number;
  readonly drawn: Drawn;
}

function failureOf(error: unknown): ApiFailure {
  return error instanceof ApiFailure ? error : new ApiFailure(0, '', String(error));
}

const boxOf = (map: L.Map) => {
  const b = map.getBounds();
  return { south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() };
};

/** Draws on `map` the records of `state`, until the returned function is called. */
function follow(
  map: L.Map,
  id: string,
  geo: GeoFields,
  state: FilterState,
  report: (shown: Shown | null, error: ApiFailure | null) => void,
): () => void {
  const filters = filterParams(state);
  let layer: L.FeatureGroup | null = null;
  let controller = new AbortController();
  let total = 0;
  const draw = (drawn: Drawn, fit: boolean) => {
    layer?.remove();
    layer = drawnLayer(drawn).addTo(map);
    if (fit && layer.getBounds().isValid())
      map.fitBounds(layer.getBounds(), { padding: [24, 24], maxZoom: 12 });
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
      if (clustered) return clusters(true);
      draw(await loadGeometries(id, geo, filters, controller.signal), true);
    })
    .catch(failed);
  return () => {
    controller.abort();
    map.off('moveend', onMove);
    layer?.remove();
  };
}

function Status({ shown }: { shown: Shown | null }) {
  if (!shown) return <p class="total">Loading…</p>;
  const { total, drawn } = shown;
  const how =
    drawn.kind === 'clusters'
      ? `drawn as ${formatCount(drawn.clusters.length)} clusters`
      : drawn.kind === 'points'
        ? `drawn as ${formatCount(drawn.points.length)} points`
        : `drawn as ${formatCount(drawn.shapes.length)} shapes`;
  const capped =
    drawn.kind === 'shapes' && total > MAX_FEATURES ? ` (the first ${formatCount(MAX_FEATURES)})` : '';
  return (
    <p class="total">
      <output>{formatCount(total)}</output> records, {how}
      {capped}
    </p>
  );
}

interface PanelProps {
  readonly id: string;
  readonly geo: GeoFields;
  readonly state: FilterState;
  readonly onChange: (next: FilterState) => void;
}

function MapPanel({ id, geo, state, onChange }: PanelProps) {
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [error, setError] = useState<ApiFailure | null>(null);
  useEffect(() => {
    const created = createMap(container.current!);
    setMap(created);
    return () => created.remove();
  }, []);
  const key = filterParams(state).toString();
  useEffect(() => {
    if (!map) return;
    return follow(map, id, geo, state, (next, failure) => {
      setShown(next);
      setError(failure);
    });
  }, [map, key]); // the key stands for the filters
  const filterToView = () => {
    if (!map) return;
    const where = whereWithBbox(state.where, bboxCondition(geo.filtered.name, boxOf(map)));
    onChange({ ...state, where, page: 1 });
  };
  return (
    <section class="map-panel" aria-busy={!shown && !error}>
      <div class="map-bar">
        {error ? (
          <p role="alert" class="error">
            <strong>{error.errorCode || 'Error'}:</strong> {error.message}
          </p>
        ) : (
          <Status shown={shown} />
        )}
        <button type="button" onClick={filterToView} disabled={!map}>
          Filter to this view
        </button>
      </div>
      <div class="map" ref={container} aria-label="Map of the records" role="region" />
    </section>
  );
}

function MapTab({ id }: { id: string }) {
  const [state, setState] = useUrlState();
  const dataset = useDataset(id);
  const fields = dataset.data?.fields ?? [];
  const geo = geoFields(fields);
  if (dataset.error) {
    return (
      <p role="alert" class="error">
        {dataset.error.message}
      </p>
    );
  }
  return (
    <>
      <FilterSummary state={state} fields={fields} onChange={setState} />
      {geo ? (
        <MapPanel id={id} geo={geo} state={state} onChange={setState} />
      ) : (
        dataset.data && <p>This dataset has no geographic field.</p>
      )}
    </>
  );
}

mount(<MapTab id={pageData().dataset ?? ''} />);
