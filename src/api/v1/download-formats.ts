// The v1 download formats: the shaping SELECT around the compiled query (its output, record ids
// included), the format the engine copies it in, and what frames the copy.
import { RECORD_ID_COLUMN } from '../../catalog/schema.js';
import type { CopyFormat } from '../../engine/engine.js';
import type { Output, OutputColumn } from '../../odsql/index.js';
import { NATIVE_FORMATS, type ExportOptions } from '../../exports/native-formats.js';
import { quoteIdentifier, quoteString } from '../../odsql/dialect/duckdb/quoting.js';

/** What a v1 download format needs to know of the dataset. */
export interface DownloadContext {
  readonly datasetId: string;
  readonly recordTimestamp: string | null;
}

export interface DownloadFormat {
  readonly contentType: string;
  /** Value shapes from the compiler: CSV cells keep JSON text as stored. */
  readonly output: Output;
  select(columns: readonly OutputColumn[], context: DownloadContext): string;
  readonly copyFormat: CopyFormat;
  readonly prefix: string;
  readonly suffix: string;
}

const CSV_OPTIONS: ExportOptions = {
  headers: new Map(),
  delimiter: ';',
  listSeparator: ',',
  quoteAll: false,
  parquetCompression: 'snappy',
};

const dataColumns = (columns: readonly OutputColumn[]) => columns.filter((c) => c.key !== RECORD_ID_COLUMN);

/** The GeoJSON geometry of the first geographic column (points first, as in v1 records). */
function geometrySql(columns: readonly OutputColumn[]): string {
  const point = columns.find((c) => c.type === 'geo_point_2d');
  if (point) {
    const p = quoteIdentifier(point.key);
    return `CASE WHEN ${p} IS NULL THEN NULL ELSE json_object('type', 'Point', 'coordinates', json_array(${p}.lon, ${p}.lat)) END`;
  }
  const shape = columns.find((c) => c.type === 'geo_shape');
  return shape ? `json_extract(${quoteIdentifier(shape.key)}, '$.geometry')` : 'NULL::JSON';
}

/** A v1 field value as JSON: points [lat, lon], shapes their bare geometry. */
function v1ValueSql(column: OutputColumn): string {
  const name = quoteIdentifier(column.key);
  if (column.type === 'geo_point_2d')
    return `CASE WHEN ${name} IS NULL THEN NULL ELSE json_array(${name}.lat, ${name}.lon) END`;
  if (column.type === 'geo_shape') return `json_extract(${name}, '$.geometry')`;
  return `to_json(${name})`;
}

/** The v1 `fields` object: null values left out (a map of the non-null entries). */
function v1FieldsSql(columns: readonly OutputColumn[]): string {
  const entries = dataColumns(columns).map(
    (c) => `struct_pack(k := ${quoteString(c.key)}, v := ${v1ValueSql(c)})`,
  );
  return `to_json(map_from_entries(list_filter([${entries.join(', ')}], e -> e.v IS NOT NULL)))`;
}

export const DOWNLOAD_FORMATS = {
  csv: {
    contentType: 'text/csv; charset=utf-8',
    output: 'text',
    select: (columns) => NATIVE_FORMATS.csv.select(dataColumns(columns), CSV_OPTIONS),
    copyFormat: NATIVE_FORMATS.csv.copyFormat(CSV_OPTIONS, []),
    prefix: '',
    suffix: '',
  },
  json: {
    contentType: 'application/json; charset=utf-8',
    output: 'json',
    select: (columns, context) =>
      [
        `${quoteString(context.datasetId)} AS datasetid`,
        `${quoteIdentifier(RECORD_ID_COLUMN)} AS recordid`,
        `${v1FieldsSql(columns)} AS fields`,
        `${geometrySql(columns)} AS geometry`,
        `${context.recordTimestamp === null ? 'NULL' : quoteString(context.recordTimestamp)} AS record_timestamp`,
      ].join(', '),
    copyFormat: { format: 'json', array: true },
    prefix: '',
    suffix: '',
  },
  geojson: {
    contentType: 'application/geo+json; charset=utf-8',
    output: 'json',
    select: (columns) =>
      `'Feature' AS "type", ${geometrySql(columns)} AS geometry, ${v1FieldsSql(columns)} AS properties`,
    copyFormat: { format: 'json', array: true },
    prefix: '{"type":"FeatureCollection","features":',
    suffix: '}',
  },
} satisfies Record<string, DownloadFormat>;

export type DownloadFormatName = keyof typeof DOWNLOAD_FORMATS;
