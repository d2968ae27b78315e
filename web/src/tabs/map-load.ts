// Fetches what the map draws for the page's filters: the count first, then up to MAX_FEATURES
// geometries in one export request, or, above that, the server's geo_cluster groups.
import type { GeoJsonObject } from 'geojson';
import { apiGet } from '../shared/api.js';
import { datasetPath } from '../shared/dataset.js';
import type { Page } from '../shared/types.js';
import type { Cluster, Drawn, LatLon } from './map-layers.js';
import { clusterGroupBy, MAX_FEATURES, type GeoFields } from './map-query.js';

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

/** The drawn field of the first MAX_FEATURES records, as points or shapes. */
export async function loadGeometries(
  id: string,
  geo: GeoFields,
  filters: URLSearchParams,
  signal: AbortSignal,
): Promise<Drawn> {
  const params = withParams(filters, { select: `${geo.drawn.name} as g`, limit: String(MAX_FEATURES) });
  const rows = await apiGet<{ g: unknown }[]>(datasetPath(id, '/exports/json'), params, signal);
  const values = rows.map((row) => row.g).filter((g) => g !== null && typeof g === 'object');
  return geo.drawn.type === 'geo_shape'
    ? { kind: 'shapes', shapes: values as GeoJsonObject[] }
    : { kind: 'points', points: values as LatLon[] };
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
    if (c?.cluster_centroid) clusters.push({ ...c.cluster_centroid, count: c.count });
  }
  return { drawn: { kind: 'clusters', clusters }, groups: answer.total_count };
}
