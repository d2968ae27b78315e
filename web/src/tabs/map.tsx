// The map tab: the records matching the page's filters on an offline world map (map-follow.ts
// draws them). A point or shape opens its record in the table's record view; a cluster zooms in
// on its cell, or at the last zoom lists its records; the records in view are listed under the
// map for the keyboard. The view is the URL's `location` (map-view.ts). "Filter to this view"
// adds the view's in_bbox to the URL's where, so every other tab follows.
import { useEffect, useRef, useState } from 'preact/hooks';
import type * as L from 'leaflet';
import { mount } from '../shared/mount.js';
import { pageData } from '../shared/page.js';
import type { ApiFailure } from '../shared/api.js';
import { useUrlState } from '../shared/use-url-state.js';
import { useDataset } from '../shared/dataset.js';
import { filterParams, type FilterState } from '../shared/url-state.js';
import { FilterSummary } from '../shared/filter-summary.js';
import { counted, formatCount, noun } from '../shared/text.js';
import { ErrorNotice } from '../shared/error-notice.js';
import type { Field } from '../shared/types.js';
import { RecordDialog, useRecordDialog } from './record-dialog.js';
import { createMap, type Cluster, type DrawnClicks } from './map-layers.js';
import { boxOf, follow, type Shown } from './map-follow.js';
import { loadRecord, loadRecordsWithin, type Row } from './map-load.js';
import { MapRecords, type Listed } from './map-records.js';
import {
  bboxCondition,
  cellCondition,
  geoFields,
  MAX_FEATURES,
  whereWithBbox,
  type GeoFields,
} from './map-query.js';
import { readView, writeView, ZOOMS } from './map-view.js';
import './map.css';

function Status({ shown }: { shown: Shown | null }) {
  if (!shown) return <p class="total">Loading…</p>;
  const { total, drawn } = shown;
  const how =
    drawn.kind === 'clusters'
      ? counted(drawn.clusters.length, 'cluster')
      : drawn.kind === 'points'
        ? counted(drawn.points.length, 'point')
        : counted(drawn.shapes.length, 'shape');
  const capped =
    drawn.kind === 'shapes' && total > MAX_FEATURES ? ` (the first ${formatCount(MAX_FEATURES)})` : '';
  return (
    <p class="total">
      <output>{formatCount(total)}</output> {noun(total, 'record')}, drawn as {how}
      {capped}
    </p>
  );
}

interface PanelProps {
  readonly id: string;
  readonly geo: GeoFields;
  readonly fields: readonly Field[];
  readonly state: FilterState;
  readonly onChange: (next: FilterState) => void;
  /** Whether the next drawing fits the map to the records: after a change made on the page only. */
  readonly fitNext: { current: boolean };
}

/** The map's view written to the URL after each move, and the view restored on Back. */
function useViewInUrl(map: L.Map | null) {
  useEffect(() => {
    if (!map) return;
    const onMove = () => {
      const { lat, lng } = map.getCenter().wrap();
      writeView({ zoom: Math.round(map.getZoom()), lat, lon: lng });
    };
    // Back or Forward: the entry's view (its filters, if others, are drawn without fitting).
    const onPop = () => {
      const view = readView(location.search);
      if (!view) return;
      map.setView([view.lat, view.lon], view.zoom, { animate: false });
    };
    onMove(); // the view shown now, restored from the URL (normalized) or the whole world
    map.on('moveend', onMove);
    addEventListener('popstate', onPop);
    return () => {
      map.off('moveend', onMove);
      removeEventListener('popstate', onPop);
    };
  }, [map]);
}

/** What clicks on the map do: a record opens, a cluster zooms in or lists or opens its records. */
function mapClicks(map: L.Map, id: string, geo: GeoFields, state: FilterState, ui: ClickUi): DrawnClicks {
  return {
    record: (recordId) => ui.fetchRecord((signal) => loadRecord(id, recordId, signal)),
    cluster: (cluster: Cluster) => {
      const condition = cellCondition(geo.point!.name, cluster.cell);
      if (cluster.count === 1) {
        ui.fetchRecord((signal) =>
          loadRecordsWithin(id, filterParams(state), condition, 1, signal).then((p) => p.results[0]),
        );
      } else if (map.getZoom() >= ZOOMS.max) {
        ui.list({ condition, of: 'cluster' });
      } else {
        const { south, west, north, east } = cluster.cell;
        map.fitBounds([
          [south, west],
          [north, east],
        ]);
      }
    },
  };
}

interface ClickUi {
  /** Opens the record view at once, busy, and fills it with the record `load` answers. */
  readonly fetchRecord: (load: (signal: AbortSignal) => Promise<Row | undefined>) => void;
  readonly list: (listed: Listed) => void;
}

/** The map in `container`, on the URL's view when it names one; null until it is made. */
function useMap(container: { current: HTMLDivElement | null }): L.Map | null {
  const [map, setMap] = useState<L.Map | null>(null);
  useEffect(() => {
    const created = createMap(container.current!);
    const view = readView(location.search);
    if (view) created.setView([view.lat, view.lon], view.zoom, { animate: false });
    setMap(created);
    return () => created.remove();
  }, []);
  return map;
}

function MapPanel({ id, geo, fields, state, onChange, fitNext }: PanelProps) {
  const container = useRef<HTMLDivElement>(null);
  const map = useMap(container);
  const [shown, setShown] = useState<Shown | null>(null);
  const [error, setError] = useState<ApiFailure | null>(null);
  const [attempt, setAttempt] = useState(0);
  const dialog = useRecordDialog();
  const [listed, setListed] = useState<Listed | null>(null);
  const key = filterParams(state).toString();
  useViewInUrl(map);
  useEffect(() => {
    if (!map) return;
    const listView = () => setListed({ condition: bboxCondition(geo.filtered.name, boxOf(map)), of: 'view' });
    const list = (next: Listed) => {
      setListed(next);
      document.getElementById('map-records-title')?.focus();
    };
    const ui = { fetchRecord: dialog.fetchRecord, list };
    const clicks = mapClicks(map, id, geo, state, ui);
    const fit = fitNext.current;
    fitNext.current = false;
    const stop = follow(map, {
      id,
      geo,
      state,
      fit,
      clicks,
      report: (next, failure) => {
        setShown(next);
        setError(failure);
      },
    });
    listView();
    map.on('moveend', listView);
    return () => {
      stop();
      map.off('moveend', listView);
    };
  }, [map, key, attempt]); // the key stands for the filters
  const filterToView = () => {
    if (!map) return;
    const where = whereWithBbox(state.where, bboxCondition(geo.filtered.name, boxOf(map)));
    onChange({ ...state, where, page: 1 });
  };
  return (
    <>
      <section class="map-panel" aria-busy={!shown && !error}>
        <div class="map-bar">
          {error ? (
            <ErrorNotice error={error} onRetry={() => setAttempt((n) => n + 1)} />
          ) : (
            <Status shown={shown} />
          )}
          <button type="button" onClick={filterToView} disabled={!map}>
            Filter to this view
          </button>
        </div>
        <div class="map" ref={container} aria-label="Map of the records" role="region" />
      </section>
      {/* The list fails as the drawing did: one error shown, not two. */}
      {!error && <MapRecords id={id} fields={fields} state={state} listed={listed} onOpen={dialog.show} />}
      <RecordDialog fields={fields} shown={dialog.shown} onClose={dialog.close} />
    </>
  );
}

function MapTab({ id }: { id: string }) {
  const [state, setState] = useUrlState();
  // The map fits the records it draws when the URL names no view, and after each filter changed
  // on the page; not after Back or Forward, which show their entry's view.
  const fitNext = useRef(readView(location.search) === null);
  const change = (next: FilterState) => {
    fitNext.current = true;
    setState(next);
  };
  const dataset = useDataset(id);
  const fields = dataset.data?.fields ?? [];
  const geo = geoFields(fields);
  if (dataset.error) {
    return <ErrorNotice error={dataset.error} onRetry={dataset.retry} />;
  }
  return (
    <>
      <FilterSummary state={state} fields={fields} onChange={change} />
      {geo ? (
        <MapPanel id={id} geo={geo} fields={fields} state={state} onChange={change} fitNext={fitNext} />
      ) : (
        dataset.data && <p>This dataset has no geographic field.</p>
      )}
    </>
  );
}

mount(<MapTab id={pageData().dataset ?? ''} />);
