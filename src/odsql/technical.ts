// Technical fields: names a generation of the API reads in every clause besides a source's own
// fields (v2.0's `datasetid`, `recordid`, `record_timestamp`, `record_size`). A source lists what
// each one is; their SQL is written here, in the source's dialect, so that no SQL text is written
// outside src/odsql. A field of the dataset with the same name is found first (scope.ts).
import { QueryLangError } from './errors.js';
import type { Dialect } from './dialect/dialect.js';
import { recordIdSql } from './record-id.js';
import type { QuerySource, TechnicalField } from './source.js';
import type { ValueType } from './types.js';

/** A technical field resolved for one query: its SQL, or why it cannot be queried. */
export type TechnicalColumn =
  | { readonly name: string; readonly type: ValueType; readonly sql: string }
  | { readonly name: string; readonly refused: string };

/**
 * The technical fields of a v2.0 dataset's records: its id, each record's id, the time the
 * dataset was processed (`record.timestamp`, per dataset), and `record_size`, refused.
 */
export function v20RecordFields(datasetId: string, processed: string): readonly TechnicalField[] {
  return [
    { name: 'datasetid', type: 'text', value: { kind: 'text', value: datasetId } },
    { name: 'recordid', type: 'text', value: { kind: 'recordId' } },
    { name: 'record_timestamp', type: 'datetime', value: { kind: 'instant', iso: processed } },
    {
      name: 'record_size',
      type: 'int',
      value: {
        kind: 'refused',
        reason:
          'record_size cannot be queried: record.size counts the bytes of the fields as the answer ' +
          "writes them in JSON (dates in the request's timezone, geometries as GeoJSON), which no " +
          'SQL expression computes exactly',
      },
    },
  ];
}

/** The SQL of an instant: to the millisecond, or to the second where the engine keeps no fraction. */
function instantSql(iso: string, dialect: Dialect): string {
  try {
    return dialect.dateGranule(iso, 'datetime', 'UTC').start;
  } catch (error) {
    if (!(error instanceof QueryLangError)) throw error;
    return dialect.dateGranule(iso.replace(/\.\d+/, ''), 'datetime', 'UTC').start;
  }
}

/** The technical fields of `source` resolved in `dialect`. */
export function technicalColumns(source: QuerySource, dialect: Dialect): readonly TechnicalColumn[] {
  return (source.technical ?? []).map(({ name, type, value }): TechnicalColumn => {
    switch (value.kind) {
      case 'text':
        // Not a bare literal, which DuckDB refuses in GROUP BY and ORDER BY.
        return { name, type, sql: dialect.toText(dialect.quoteString(value.value)) };
      case 'recordId':
        return { name, type, sql: recordIdSql(source, dialect) };
      case 'instant':
        return { name, type, sql: instantSql(value.iso, dialect) };
      case 'refused':
        return { name, refused: value.reason };
    }
  });
}
