// Tables of value counts beside data.parquet: for each scalar field with few distinct values, one
// row per value (null included) and the records holding it. A count or a grouping that reads one
// field answers from them (src/odsql/value-counts.ts), reading a table many times smaller than
// the rows (docs/ingest.md, Value counts; bench/README.md, Measurements behind the code).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { valueCountsPath } from '../catalog/portal.js';
import { VALUE_COUNT_COLUMN, type Field } from '../catalog/schema.js';
import { quoteIdentifier, quoteString } from '../sql/quoting.js';
import { COUNTED_TYPES, type ComputedFacts } from './computed.js';
import { AUTO_SORT_MIN_ROWS } from './sort-key.js';

/**
 * Distinct values per record above which a field gets no table: at most an eighth of the rows, so
 * a table is read at least 8 times faster than the rows it replaces.
 */
const RECORDS_PER_VALUE = 8;

/** The fields that get a table: single-valued scalars with few distinct values, in datasets from AUTO_SORT_MIN_ROWS rows. */
export function countedFields(
  fields: readonly Field[],
  facts: Pick<ComputedFacts, 'records_count' | 'distinct_counts'>,
): Field[] {
  const rows = facts.records_count;
  if (rows < AUTO_SORT_MIN_ROWS) return [];
  return fields.filter((f) => {
    const distinct = facts.distinct_counts[f.name];
    return (
      COUNTED_TYPES.has(f.type) &&
      f.annotations.multivalued === undefined &&
      f.name !== VALUE_COUNT_COLUMN &&
      distinct !== undefined &&
      distinct <= rows / RECORDS_PER_VALUE
    );
  });
}

/**
 * Writes `counts/<field>.parquet` into `datasetDir` for each field of `countedFields`, from the
 * data.parquet at `dataPath`. Returns the fields written, for dataset.json.
 */
export async function writeValueCounts(
  connection: DuckDBConnection,
  dataPath: string,
  datasetDir: string,
  fields: readonly Field[],
  facts: Pick<ComputedFacts, 'records_count' | 'distinct_counts'>,
): Promise<string[]> {
  const counted = countedFields(fields, facts).map((f) => f.name);
  await writeCountTables(connection, dataPath, datasetDir, counted);
  return counted;
}

/**
 * Writes the table of value counts of each of `fields` into `datasetDir`: the value column as
 * stored, sorted (its row groups' statistics let a filter skip them), then `_count`.
 */
export async function writeCountTables(
  connection: DuckDBConnection,
  dataPath: string,
  datasetDir: string,
  fields: readonly string[],
): Promise<void> {
  if (fields.length > 0)
    await mkdir(path.dirname(valueCountsPath(datasetDir, fields[0]!)), { recursive: true });
  for (const field of fields) {
    const value = quoteIdentifier(field);
    await connection.run(
      `COPY (SELECT ${value}, count(*) AS ${quoteIdentifier(VALUE_COUNT_COLUMN)}
        FROM read_parquet(${quoteString(dataPath)}) GROUP BY ${value} ORDER BY ${value} NULLS LAST)
      TO ${quoteString(valueCountsPath(datasetDir, field))} (FORMAT parquet, COMPRESSION lz4)`,
    );
  }
}
