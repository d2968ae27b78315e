// The v1 download formats (records/1.0/download): the shaped columns of the compiled query (its
// output, record ids included), the format the engine copies them in, and what frames the copy.
import { RECORD_ID_COLUMN } from '../catalog/schema.js';
import type { CopyFormat } from '../engine/engine.js';
import { cell, type Cell, type Output, type OutputColumn, type ShapedColumn } from '../odsql/index.js';
import { NATIVE_FORMATS, type ExportOptions } from './native-formats.js';

/** What a v1 download format needs to know of the dataset and of the CSV asked for. */
export interface DownloadContext {
  readonly datasetId: string;
  readonly recordTimestamp: string | null;
  /** CSV's header of each field (its label with use_labels_for_header); absent: the field names. */
  readonly headers?: ReadonlyMap<string, string>;
  /** CSV's separator (csv_separator); absent: `;`. */
  readonly delimiter?: string;
}

/** A v1 download format: its media type, the shapes it wants, its columns and the copy's frame. */
export interface DownloadFormat {
  readonly contentType: string;
  /** Value shapes from the compiler: CSV cells keep JSON text as stored. */
  readonly output: Output;
  shape(columns: readonly OutputColumn[], context: DownloadContext): ShapedColumn[];
  copyFormat(context: DownloadContext): CopyFormat;
  readonly prefix: string;
  readonly suffix: string;
}

/** The CSV options of a download: field names (or the headers asked for), `;` unless asked otherwise. */
const csvOptions = (context: DownloadContext): ExportOptions => ({
  headers: context.headers ?? new Map(),
  delimiter: context.delimiter ?? ';',
  listSeparator: ',',
  quoteAll: false,
  parquetCompression: 'snappy',
});

const dataColumns = (columns: readonly OutputColumn[]) => columns.filter((c) => c.key !== RECORD_ID_COLUMN);

/** The GeoJSON geometry of the first geographic column (points first, as in v1 records). */
const geometry = (columns: readonly OutputColumn[]): Cell =>
  cell.geometry(
    columns.find((c) => c.type === 'geo_point_2d') ?? columns.find((c) => c.type === 'geo_shape') ?? null,
    'json',
  );

/** The v1 `fields` object: null values left out, points [lat, lon], shapes their bare geometry. */
const fields = (columns: readonly OutputColumn[]): Cell =>
  cell.object(
    'json-non-null',
    dataColumns(columns).map((c) => [c.key, cell.jsonValue(c)]),
  );

/** v1's CSV: the data columns (no record id) as the v2.1 CSV export writes them, `;`-separated. */
export const V1_CSV: DownloadFormat = {
  contentType: 'text/csv; charset=utf-8',
  output: 'text',
  shape: (columns, context) => NATIVE_FORMATS.csv.shape(dataColumns(columns), csvOptions(context)),
  copyFormat: (context) => NATIVE_FORMATS.csv.copyFormat(csvOptions(context), []),
  prefix: '',
  suffix: '',
};

/** v1's JSON: an array of v1 records (datasetid, recordid, fields, geometry, record_timestamp). */
export const V1_JSON: DownloadFormat = {
  contentType: 'application/json; charset=utf-8',
  output: 'json',
  shape: (columns, context) => [
    { name: 'datasetid', cell: cell.literal(context.datasetId) },
    { name: 'recordid', cell: cell.recordId() },
    { name: 'fields', cell: fields(columns) },
    { name: 'geometry', cell: geometry(columns) },
    { name: 'record_timestamp', cell: cell.literal(context.recordTimestamp) },
  ],
  copyFormat: () => ({ format: 'json', array: true }),
  prefix: '',
  suffix: '',
};

/** v1's GeoJSON: a FeatureCollection of the records' first geometries and their fields. */
export const V1_GEOJSON: DownloadFormat = {
  contentType: 'application/geo+json; charset=utf-8',
  output: 'json',
  shape: (columns) => [
    { name: 'type', cell: cell.literal('Feature') },
    { name: 'geometry', cell: geometry(columns) },
    { name: 'properties', cell: fields(columns) },
  ],
  copyFormat: () => ({ format: 'json', array: true }),
  prefix: '{"type":"FeatureCollection","features":',
  suffix: '}',
};
