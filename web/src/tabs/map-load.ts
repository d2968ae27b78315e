// Fetches what the map draws for the page's filters: the count first, then up to MAX_FEATURES
// geometries with their record ids in one export request, or, above that, the server's
// geo_cluster groups; and the records a click or the list below the map opens.
import type { GeoJsonObject } from 'geojson';
import { apiGet } from '../shared/api.js';
import { datasetPath } from '../shared/dataset.js';
import { pageData } from '../shared/page.js';
import type { Page } from '../shared/types.js';
import type { Cluster, Drawn, LatLon } from './map-layers.js';
import { clusterGroupBy, MAX_FEATURES, tileBox, type GeoFields } from './map-query.js';

/** A record as the API answers it. */
export type Row = Readonly<Record<string, unknown>>;

/**
 * The v2.0 API beside the pages' v2.1 one: its technical field `recordid` (the id the v2.1 record
 * lookup takes) is the only way to have the ids of thousands of records in one request.
 */
const v20Base = () => pageData().api.replace(/v2\.1$/, 'v2.0');

/** `params` with `extra` set on a copy. */
function withParams(params: URLSearchParams, extra: Readonly<Record<string, string>>): URLSearchParams {
  const copy = new URLSearchParams(params);
  for (const [name, value] of Object.entries(extra)) copy.set(name, value);
  return copy;
}

/** The number of records matching the filters. */
export async function countRecords(
  id: string,
  filters: URLSearchParams,
  signal: AbortSignal,
): Promise<number> {
  const answer = await apiGet<Page<unknown>>(
    datasetPath(id, '/records'),
    withParams(filters, { limit: '0' }),
    signal,
  );
  return answer.total_count;
}

interface GeometryRow {
  readonly id: unknown;
  readonly g: unknown;
}

/** The drawn field of the first MAX_FEATURES records and their ids, as points or shapes. */
export async function loadGeometries(
  id: string,
  geo: GeoFields,
  filters: URLSearchParams,
  signal: AbortSignal,
): Promise<Drawn> {
  const select = `recordid as id, ${geo.drawn.name} as g`;
  const params = withParams(filters, { select, limit: String(MAX_FEATURES) });
  const rows = await apiGet<GeometryRow[]>(datasetPath(id, '/exports/json'), params, signal, v20Base());
  const drawn = rows.filter((row) => row.g !== null && typeof row.g === 'object');
  const idOf = (row: GeometryRow) => (typeof row.id === 'string' ? row.id : null);
  return geo.drawn.type === 'geo_shape'
    ? { kind: 'shapes', shapes: drawn.map((row) => ({ shape: row.g as GeoJsonObject, id: idOf(row) })) }
    : { kind: 'points', points: drawn.map((row) => ({ ...(row.g as LatLon), id: idOf(row) })) };
}

interface ClusterRow {
  readonly c: { readonly cluster_centroid: LatLon | null; readonly count: number } | null;
}

/** The clusters of the point field at `precision`; `within` is an in_bbox condition to add, or null. */
export async function loadClusters(
  id: string,
  point: string,
  precision: number,
  filters: URLSearchParams,
  within: string | null,
  signal: AbortSignal,
): Promise<{ drawn: Drawn; groups: number }> {
  const params = withParams(filters, {
    group_by: `${clusterGroupBy(point, precision)} as c`,
    limit: String(MAX_FEATURES),
  });
  if (within) params.append('where', within);
  const answer = await apiGet<Page<ClusterRow>>(datasetPath(id, '/records'), params, signal);
  const clusters: Cluster[] = [];
  for (const { c } of answer.results) {
    if (!c?.cluster_centroid) continue;
    const { lat, lon } = c.cluster_centroid;
    clusters.push({ lat, lon, count: c.count, cell: tileBox(lat, lon, precision) });
  }
  return { drawn: { kind: 'clusters', clusters }, groups: answer.total_count };
}

/** The record whose id is `recordId`, as the table's record view shows it. */
export function loadRecord(id: string, recordId: string, signal?: AbortSignal): Promise<Row> {
  return apiGet<Row>(datasetPath(id, `/records/${encodeURIComponent(recordId)}`), undefined, signal);
}

/** The first `limit` records of the filters within `within` (an in_bbox condition), and their count. */
export function loadRecordsWithin(
  id: string,
  filters: URLSearchParams,
  within: string,
  limit: number,
  signal?: AbortSignal,
): Promise<Page<Row>> {
  const params = withParams(filters, { limit: String(limit) });
  params.append('where', within);
  return apiGet<Page<Row>>(datasetPath(id, '/records'), params, signal);
}
