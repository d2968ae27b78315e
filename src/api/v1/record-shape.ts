// The v1 record object (supplement 6) and v1 facet groups, from the rows and facets of v2.1.
import { RECORD_ID_COLUMN } from '../../catalog/schema.js';
import type { JsonValue } from '../../engine/engine.js';
import type { FacetGroup, FacetValue } from '../../facets/enumerate.js';
import type { OutputColumn } from '../../odsql/index.js';

type Json = JsonValue;
type Point = { lon: number; lat: number };
const isPoint = (v: Json): v is Point & Json =>
  typeof v === 'object' && v !== null && 'lat' in v && 'lon' in v;
const geometryOf = (feature: Json): Json =>
  typeof feature === 'object' && feature !== null && !Array.isArray(feature)
    ? (feature.geometry ?? null)
    : null;

/** v1 field values: points as [lat, lon], shapes as bare GeoJSON geometries. */
const V1_VALUE: Partial<Record<string, (value: Json) => Json>> = {
  geo_point_2d: (v) => (isPoint(v) ? [v.lat, v.lon] : v),
  geo_shape: geometryOf,
};

/** One row of a compiled query (with `_recordid`) as a v1 record. */
export function v1Record(
  datasetId: string,
  recordTimestamp: string | null,
  columns: readonly OutputColumn[],
  row: Record<string, Json>,
): Record<string, Json> {
  const fields: Record<string, Json> = {};
  let geometry: Json = null;
  for (const column of columns) {
    const value = row[column.key];
    if (value === null || value === undefined || column.key === RECORD_ID_COLUMN) continue;
    fields[column.key] = V1_VALUE[column.type]?.(value) ?? value;
    if (geometry === null && column.type === 'geo_point_2d' && isPoint(value)) {
      geometry = { type: 'Point', coordinates: [value.lon, value.lat] };
    }
  }
  if (geometry === null) {
    const shape = columns.find((c) => c.type === 'geo_shape' && row[c.key] != null);
    if (shape) geometry = geometryOf(row[shape.key]!);
  }
  return {
    datasetid: datasetId,
    recordid: row[RECORD_ID_COLUMN] ?? null,
    fields,
    ...(geometry !== null && { geometry }),
    record_timestamp: recordTimestamp,
  };
}

interface V1Facet {
  name: string;
  path: string;
  count: number;
  state: string;
  facets?: V1Facet[];
}

const v1Facet = (f: FacetValue): V1Facet => ({
  name: f.name,
  path: f.value,
  count: f.count ?? 0,
  state: f.state,
  ...(f.facets && { facets: f.facets.map(v1Facet) }),
});

/** v2.1 facet groups in the v1 form (`path` holds the value). */
export function v1FacetGroups(groups: readonly FacetGroup[]): { name: string; facets: V1Facet[] }[] {
  return groups.map((g) => ({ name: g.name, facets: g.facets.map(v1Facet) }));
}
