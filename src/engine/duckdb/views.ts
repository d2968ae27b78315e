// The names DuckDB serves a Parquet file under: a view over the file, or, for a small file within
// the budget of small tables (small-tables.ts), a table holding its copy in memory. Either is
// replaced in one transaction, so a query running beside never finds the name missing.
import type { DuckDBConnection } from '@duckdb/node-api';
import { ORDINAL_COLUMN, ORDINAL_SQL } from '../../catalog/schema.js';
import { quoteIdentifier, quoteString } from '../../sql/quoting.js';
import type { ViewKind } from '../engine.js';
import type { SmallTables } from './small-tables.js';
import { inTransaction } from './storage-types.js';

/** The view over a Parquet file; a dataset view also exposes `ORDINAL_COLUMN` (1-based row position). */
export function parquetViewSql(name: string, parquetPath: string, kind: ViewKind): string {
  const ordinal = kind === 'dataset' ? `, ${ORDINAL_SQL} AS ${quoteIdentifier(ORDINAL_COLUMN)}` : '';
  return `CREATE OR REPLACE VIEW ${quoteIdentifier(name)} AS SELECT *${ordinal} FROM read_parquet(${quoteString(parquetPath)})`;
}

/**
 * Serves the Parquet file `parquetPath` as `name` on `connection`: a table copied in memory when
 * the file is pinned (never changes under its path) and `small` takes it, else a view.
 */
export async function serveParquet(
  connection: DuckDBConnection,
  small: SmallTables,
  name: string,
  parquetPath: string,
  kind: ViewKind,
): Promise<void> {
  const wasTable = small.has(name);
  const table = kind === 'pinned' && (await small.take(name, parquetPath));
  const quoted = quoteIdentifier(name);
  try {
    if (table) {
      await inTransaction(connection, [
        ...(wasTable ? [] : [`DROP VIEW IF EXISTS ${quoted}`]),
        `CREATE OR REPLACE TABLE ${quoted} AS SELECT * FROM read_parquet(${quoteString(parquetPath)})`,
      ]);
    } else if (wasTable) {
      await inTransaction(connection, [
        `DROP TABLE IF EXISTS ${quoted}`,
        parquetViewSql(name, parquetPath, kind),
      ]);
    } else {
      await connection.run(parquetViewSql(name, parquetPath, kind));
    }
  } catch (error) {
    small.release(name);
    throw error;
  }
}

/** Drops the view or small table `name`, if any. */
export async function dropServed(
  connection: DuckDBConnection,
  small: SmallTables,
  name: string,
): Promise<void> {
  const kind = small.has(name) ? 'TABLE' : 'VIEW';
  await connection.run(`DROP ${kind} IF EXISTS ${quoteIdentifier(name)}`);
  small.release(name);
}
