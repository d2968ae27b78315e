// What data.parquet holds: the planned columns plus `_recordid`, written by DuckDB in one COPY.
import type { DuckDBConnection } from '@duckdb/node-api';
import { RECORD_ID_COLUMN, type DatasetFile, type Field } from '../catalog/schema.js';
import { quoteIdentifier, quoteString } from '../sql-text.js';
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

export interface StoredDataOptions extends Pick<PlanOptions, 'geoPoint'> {
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
    ...(options.geoPoint ? { geoPoint: options.geoPoint } : {}),
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

/** Writes data.parquet; insertion order is DuckDB's default, so rows keep file order without a sort. */
export async function writeStoredData(
  connection: DuckDBConnection,
  data: StoredData,
  target: string,
): Promise<void> {
  const select = [
    `${data.recordIdSql} AS ${RECORD_ID_COLUMN}`,
    ...data.columns.map((c) => `${c.sql} AS ${quoteIdentifier(c.name)}`),
  ];
  await connection.run(
    `COPY (SELECT ${select.join(',\n  ')} FROM ${PLAN_RELATION}) TO ${quoteString(target)} (FORMAT parquet)`,
  );
}
