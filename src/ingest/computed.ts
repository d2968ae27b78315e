// The `computed` facts of dataset.json, measured on the data.parquet just written.
import type { DuckDBConnection } from '@duckdb/node-api';
import { SCALAR_TYPES, type DatasetFile, type Field } from '../catalog/schema.js';
import { quoteIdentifier, quoteString } from '../sql/quoting.js';
import { geometryTypeSql, vertexCoordinatesSql } from './geo.js';

export type ComputedFacts = DatasetFile['computed'];

/** Now, as ISO 8601 with an explicit offset (`+00:00`). */
export function isoNow(): string {
  return new Date().toISOString().replace('Z', '+00:00');
}

/** Per-row west/south/east/north and geometry type, from the shape field if any, else the point field. */
function geoColumnsSql(fields: readonly Field[]): string[] {
  const shape = fields.find((f) => f.type === 'geo_shape');
  if (shape) {
    const g = quoteIdentifier(shape.name);
    const lons = vertexCoordinatesSql(g, 1);
    const lats = vertexCoordinatesSql(g, 2);
    return [
      `list_min(${lons}) AS w`,
      `list_min(${lats}) AS s`,
      `list_max(${lons}) AS e`,
      `list_max(${lats}) AS n`,
      `${geometryTypeSql(g)} AS t`,
    ];
  }
  const point = fields.find((f) => f.type === 'geo_point_2d');
  if (!point)
    return ['NULL::DOUBLE AS w', 'NULL::DOUBLE AS s', 'NULL::DOUBLE AS e', 'NULL::DOUBLE AS n', 'NULL AS t'];
  const p = quoteIdentifier(point.name);
  return [
    `${p}.lon AS w`,
    `${p}.lat AS s`,
    `${p}.lon AS e`,
    `${p}.lat AS n`,
    `CASE WHEN ${p} IS NOT NULL THEN 'Point' END AS t`,
  ];
}

/** The first date or datetime field, and its ISO format: a day for dates, UTC with offset for datetimes. */
function temporalColumn(fields: readonly Field[]): { select: string; format: string } {
  const time = fields.find((f) => f.type === 'date' || f.type === 'datetime');
  if (!time) return { select: 'NULL::DATE AS time', format: '%Y-%m-%d' };
  const format = time.type === 'date' ? '%Y-%m-%d' : '%Y-%m-%dT%H:%M:%S+00:00';
  return { select: `${quoteIdentifier(time.name)} AS time`, format };
}

/** Counts records and measures extent, geometry types and time coverage of `parquetPath`. */
export async function computeFacts(
  connection: DuckDBConnection,
  parquetPath: string,
  fields: readonly Field[],
  now: string,
): Promise<Omit<ComputedFacts, 'sort_by' | 'geo_point_from' | 'value_counts' | 'auto_facets'>> {
  const time = temporalColumn(fields);
  const format = quoteString(time.format);
  const reader = await connection.runAndReadAll(`
    SELECT count(*), min(w), min(s), max(e), max(n), list(DISTINCT t ORDER BY t) FILTER (t IS NOT NULL),
      strftime(min(time), ${format}), strftime(max(time), ${format})
    FROM (SELECT ${[...geoColumnsSql(fields), time.select].join(', ')}
          FROM read_parquet(${quoteString(parquetPath)}))`);
  const [count, west, south, east, north, types, from, to] = reader.getRowsJson()[0] ?? [];
  const distinct = await distinctCounts(connection, parquetPath, fields);
  const corners = [west, south, east, north].map((v) => (v === null || v === undefined ? null : Number(v)));
  const [w, s, e, n] = corners;
  return {
    records_count: Number(count ?? 0),
    data_processed: now,
    metadata_processed: now,
    bbox: w != null && s != null && e != null && n != null ? { west: w, south: s, east: e, north: n } : null,
    geometry_types: Array.isArray(types) ? types.map(String) : [],
    temporal_coverage_from: typeof from === 'string' ? from : null,
    temporal_coverage_to: typeof to === 'string' ? to : null,
    distinct_counts: distinct,
  };
}

/** Field types whose values group_by can take as they are (a group per distinct value). */
export const COUNTED_TYPES: ReadonlySet<Field['type']> = new Set(SCALAR_TYPES);

/**
 * Distinct values of each single-valued scalar field, which bound the groups of a group_by on
 * them (the memory of holistic aggregations grows with groups): exact (HyperLogLog was 11% over
 * on flights' dates, and a bound must not be under), one scan of the file.
 */
async function distinctCounts(
  connection: DuckDBConnection,
  parquetPath: string,
  fields: readonly Field[],
): Promise<Record<string, number>> {
  const counted = fields.filter((f) => COUNTED_TYPES.has(f.type) && f.annotations.multivalued === undefined);
  if (counted.length === 0) return {};
  const columns = counted.map((f) => `count(DISTINCT ${quoteIdentifier(f.name)})`);
  const reader = await connection.runAndReadAll(
    `SELECT ${columns.join(', ')} FROM read_parquet(${quoteString(parquetPath)})`,
  );
  const counts = reader.getRowsJson()[0] ?? [];
  return Object.fromEntries(counted.map((f, i) => [f.name, Number(counts[i] ?? 0)]));
}
