// Placeholder until the full-text search index lands: ingest calls this after writing data.parquet.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Field } from '../catalog/schema.js';

/** Builds the search index files beside data.parquet in `datasetDir`. */
export async function buildSearchIndex(_connection: DuckDBConnection, _datasetDir: string, _fields: readonly Field[]): Promise<void> {
  await Promise.resolve();
}
