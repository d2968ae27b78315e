// Builds search.parquet, the full-text index of a dataset's text fields, from its data.parquet (see layout.ts).
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ORDINAL_SQL, type Field } from '../catalog/schema.js';
import { quoteIdentifier, quoteString } from '../sql/quoting.js';
import { INDEX_COLUMNS as C, SEARCH_INDEX_FILE } from './layout.js';
import { listTokensSql, tokensSql } from './tokens.js';

/** Storage types of the text columns the index reads: a text, or a multivalued text. */
const TOKENIZERS: Readonly<Record<string, (columnSql: string) => string>> = {
  VARCHAR: tokensSql,
  'VARCHAR[]': listTokensSql,
};

/** Rows per Parquet row group: a scan decodes the posting lists of only the groups where a token matched. */
const ROW_GROUP_SIZE = 2_048;

/**
 * Parquet's second format version: its integers are DELTA_BINARY_PACKED, and a posting list (the
 * bulk of the file) is ascending ordinals, so its deltas pack into a few bits each: the 3M
 * flights' index 7.5 MB instead of 19.6 (3.2 instead of 18.0 sorted on origin), written in about
 * the same CPU and searched as fast (bench/README.md, Measurements behind the code). Only DuckDB
 * reads the index.
 */
const PARQUET_VERSION = 'V2';

/**
 * Ordinals per posting row: a frequent token's list is cut into blocks of ordinals this wide, so
 * a row holds at most 16 KiB of them and a row group at most 32 MiB (one token over many rows in a
 * single list needed an allocation of hundreds of MiB to read: bench/README.md, Measurements
 * behind the code).
 */
export const POSTING_BLOCK = 4_096;

/**
 * Writes `search.parquet` in `datasetDir` for the text fields of `fields` (single or multivalued);
 * writes nothing when there is no text field. Returns the path written, or null.
 */
export async function buildSearchIndex(
  connection: DuckDBConnection,
  datasetDir: string,
  fields: readonly Field[],
): Promise<string | null> {
  const data = quoteString(path.join(datasetDir, 'data.parquet'));
  const types = await columnTypes(connection, data);
  const indexed = fields.filter(
    (f) => f.type === 'text' && TOKENIZERS[types.get(f.name) ?? ''] !== undefined,
  );
  if (indexed.length === 0) return null;
  const target = path.join(datasetDir, SEARCH_INDEX_FILE);
  await connection.run(`COPY (${indexSql(data, indexed, types)}) TO ${quoteString(target)}
    (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${ROW_GROUP_SIZE}, PARQUET_VERSION ${PARQUET_VERSION})`);
  return target;
}

async function columnTypes(connection: DuckDBConnection, data: string): Promise<Map<string, string>> {
  const reader = await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${data})`);
  return new Map(
    reader.getRowObjectsJson().map((row) => [row.column_name as string, row.column_type as string]),
  );
}

/** The index rows: one per (token, field, block of ordinals), sorted by token. */
function indexSql(data: string, indexed: readonly Field[], types: ReadonlyMap<string, string>): string {
  const q = quoteIdentifier;
  const columns = indexed.map((f) => q(f.name)).join(', ');
  const perField = indexed.map((f) => {
    const tokens = TOKENIZERS[types.get(f.name)!]!(q(f.name));
    return `SELECT unnest(${tokens}) AS ${C.token}, ${quoteString(f.name)} AS ${C.field}, ord FROM docs`;
  });
  // The ordinal is the row's position in the file, as the dataset view reads it (ORDINAL_COLUMN).
  // Not materialized: each field's branch reads its own column of the file again, where DuckDB
  // would otherwise copy every indexed column into memory first (on the 3M flights, 3.4-4.1 s of
  // the index's 4.3 s, against 1.3 s read twice: docs/ingest.md, Search index).
  return `WITH docs AS NOT MATERIALIZED (
      SELECT CAST(${ORDINAL_SQL} AS UINTEGER) AS ord, ${columns} FROM read_parquet(${data}))
    SELECT ${C.token}, ${C.field}, list_sort(list(ord)) AS ${C.ordinals}
    FROM (${perField.join(' UNION ALL ')}) WHERE ${C.token} <> ''
    GROUP BY ${C.token}, ${C.field}, ord // ${POSTING_BLOCK}
    ORDER BY ${C.token}, ${C.field}, min(ord)`;
}
