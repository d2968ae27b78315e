// What data.parquet holds: the planned columns plus `_recordid`, written by DuckDB in one COPY.
import type { DuckDBConnection } from '@duckdb/node-api';
import { RECORD_ID_COLUMN, type DatasetFile, type Field } from '../catalog/schema.js';
import { isGeo } from '../odsql/types.js';
import { quoteIdentifier, quoteString } from '../sql/quoting.js';
import { rememberedSettings } from './dataset-file.js';
import type { SourceTable } from './load-source.js';
import {
  fieldOf,
  planColumns,
  PLAN_RELATION,
  resolveField,
  type PlanOptions,
  type PlannedColumn,
} from './plan.js';
import { digestRecordIdSql, fieldRecordIdSql } from './record-id.js';

export interface StoredData {
  readonly columns: readonly PlannedColumn[];
  readonly recordIdSql: string;
  /** The field that gives record ids, or null for digests. */
  readonly idField: string | null;
}

export interface StoredDataOptions extends Pick<PlanOptions, 'geoPoint' | 'nullTokens'> {
  readonly multivalued?: Readonly<Record<string, string>>;
  readonly recordId?: string;
}

/** Plans the columns and the record id; the previous version's splits and id field apply again unless overridden. */
export async function planStoredData(
  connection: DuckDBConnection,
  source: SourceTable,
  options: StoredDataOptions,
  previous: DatasetFile | null,
): Promise<StoredData> {
  const remembered = rememberedSettings(previous);
  const columns = await planColumns(connection, source, {
    multivalued: options.multivalued ?? {},
    rememberedMultivalued: remembered.multivalued,
    rememberedGeoPoint: remembered.geoPoint,
    ...(options.geoPoint ? { geoPoint: options.geoPoint } : {}),
    ...(options.nullTokens ? { nullTokens: options.nullTokens } : {}),
  });
  const names = columns.map((c) => c.name);
  const rememberedId = remembered.recordId !== undefined && names.includes(remembered.recordId);
  const given = options.recordId ?? (rememberedId ? remembered.recordId : undefined);
  if (given === undefined) {
    const sourceColumns = [
      ...source.columns.map((c) => c.column),
      ...(source.geometryColumn ? [source.geometryColumn] : []),
    ];
    return { columns, recordIdSql: digestRecordIdSql(sourceColumns), idField: null };
  }
  const idField = resolveField('--record-id', given, names);
  const recordIdSql = await fieldRecordIdSql(
    connection,
    columns.find((c) => c.name === idField)!,
  );
  return { columns, recordIdSql, idField };
}

/** The field descriptors of stored data, the id field annotated `id`. */
export function storedFields(data: StoredData): Field[] {
  return data.columns.map((column) => {
    const field = fieldOf(column);
    return column.name === data.idField ? { ...field, annotations: { ...field.annotations, id: [] } } : field;
  });
}

/**
 * JSON text one row group of a dataset with a geometry may hold. Every export is DuckDB's
 * order-keeping COPY: it holds the groups read and formatted ahead of the writer up to a quarter of
 * the memory limit (96 MB at the default 384MB), and its first bytes wait for one group per
 * thread. A feature is wider than its row, so DuckDB's default groups of points overflow that cap
 * and its threads take turns: smaller groups write GeoJSON faster and send the first byte sooner,
 * with aggregations timed the same. Other datasets keep DuckDB's default, with which exports
 * peaked lower (docs/exports.md, Row groups and the memory limit; bench/README.md, Measurements
 * behind the code).
 */
const GEO_ROW_GROUP_JSON_BYTES = 12 * 2 ** 20;
const DEFAULT_ROW_GROUP_ROWS = 122_880;
/** DuckDB's vector: row groups are whole vectors. */
const VECTOR_ROWS = 2_048;
/** Rows whose JSON width is averaged: spread evenly over the file. */
const WIDTH_SAMPLE_ROWS = 8_192;

/**
 * The codec of data.parquet's pages: LZ4 decodes faster than DuckDB's default snappy, for a
 * slightly larger file; uncompressed pages read no faster and take more room (docs/ingest.md,
 * Stored order; bench/README.md, Measurements behind the code).
 */
const STORED_COMPRESSION = 'lz4';

/**
 * Parquet's V2 data pages: integers and timestamps DELTA_BINARY_PACKED, so a page of sorted dates
 * is a third of its plain size. The bench's 3M flights: 74.9 MB instead of 91.3, written in
 * 613-702 ms of CPU instead of 721-834; the 10-row page of SFO by date, which decompresses its row
 * group's whole pages, 2.8-3.0 ms in DuckDB instead of 4.1-4.2, the page of LAX by date 25 instead
 * of 37-39 ms; groupings, percentiles, counts and the CSV COPY within 6% either way (DuckDB alone,
 * 2 threads, medians of 15 in turns). Only the server reads data.parquet: exports write their own.
 */
const STORED_PARQUET_VERSION = 'V2';

/** Rows per row group of geo rows `width` bytes wide in JSON: DuckDB's default, fewer when wide. */
export function geoRowGroupRows(width: number | null): number {
  if (width === null || !(width > 0)) return DEFAULT_ROW_GROUP_ROWS;
  const vectors = Math.max(1, Math.floor(GEO_ROW_GROUP_JSON_BYTES / width / VECTOR_ROWS));
  return Math.min(DEFAULT_ROW_GROUP_ROWS, vectors * VECTOR_ROWS);
}

/** Mean JSON width of the stored rows, from every n-th row (deterministic: same file, same size). */
async function jsonWidth(
  connection: DuckDBConnection,
  select: string,
  rowCount: number,
): Promise<number | null> {
  const step = Math.max(1, Math.floor(rowCount / WIDTH_SAMPLE_ROWS));
  const reader = await connection.runAndReadAll(
    `SELECT avg(strlen(CAST(to_json(sampled) AS VARCHAR))) FROM
      (SELECT ${select} FROM ${PLAN_RELATION} WHERE __ordinal % ${step} = 0) AS sampled`,
  );
  const width = reader.getRows()[0]?.[0];
  return typeof width === 'number' ? width : null;
}

/**
 * Writes data.parquet, sorted on `sortBy` (src/ingest/sort-key.ts), rows of equal keys in file
 * order; with no key, rows keep file order (insertion order is DuckDB's default).
 */
export async function writeStoredData(
  connection: DuckDBConnection,
  data: StoredData,
  target: string,
  rowCount: number,
  sortBy: readonly string[],
): Promise<void> {
  const select = [
    `${data.recordIdSql} AS ${RECORD_ID_COLUMN}`,
    ...data.columns.map((c) => `${c.sql} AS ${quoteIdentifier(c.name)}`),
  ].join(',\n  ');
  const geo = data.columns.some((c) => isGeo(c.type));
  const rows = geo ? geoRowGroupRows(await jsonWidth(connection, select, rowCount)) : DEFAULT_ROW_GROUP_ROWS;
  await connection.run(
    `COPY (SELECT ${select} FROM ${PLAN_RELATION}${orderBy(sortBy)}) TO ${quoteString(target)} (FORMAT parquet, COMPRESSION ${STORED_COMPRESSION}, ROW_GROUP_SIZE ${rows}, PARQUET_VERSION ${STORED_PARQUET_VERSION})`,
  );
}

/**
 * The ORDER BY of the stored rows: the key's output columns, nulls last as ODSQL's order_by puts
 * them (so that a page may be read in file order: src/odsql/file-order.ts), then the rows' order
 * in the file.
 */
function orderBy(sortBy: readonly string[]): string {
  if (sortBy.length === 0) return '';
  const key = sortBy.map((name) => `${quoteIdentifier(name)} ASC NULLS LAST`);
  return ` ORDER BY ${[...key, '__ordinal'].join(', ')}`;
}
