// The names DuckDB serves a Parquet file under: a view over the file, or, for a small file within
// the budget of small tables (small-tables.ts), a table holding its copy in memory. Either is
// replaced in one transaction, so a query running beside never finds the name missing.
import { DuckDBTypeId, type DuckDBConnection } from '@duckdb/node-api';
import { ORDINAL_COLUMN, ORDINAL_SQL, VALUE_COUNT_COLUMN } from '../../catalog/schema.js';
import { quoteIdentifier, quoteString } from '../../sql/quoting.js';
import type { ViewKind } from '../engine.js';
import type { SmallTables } from './small-tables.js';
import type { CountLookups } from './count-lookup.js';
import { inTransaction } from './storage-types.js';

/** The view over a Parquet file; a dataset view also exposes `ORDINAL_COLUMN` (1-based row position). */
export function parquetViewSql(name: string, parquetPath: string, kind: ViewKind): string {
  const ordinal = kind === 'dataset' ? `, ${ORDINAL_SQL} AS ${quoteIdentifier(ORDINAL_COLUMN)}` : '';
  return `CREATE OR REPLACE VIEW ${quoteIdentifier(name)} AS SELECT *${ordinal} FROM read_parquet(${quoteString(parquetPath)})`;
}

/** Where small files are held: DuckDB's tables, and the JS lookups of tables of value counts. */
export interface Held {
  readonly small: SmallTables;
  readonly lookups: CountLookups;
}

/**
 * Serves the Parquet file `parquetPath` as `name` on `connection`: a table copied in memory when
 * the file is pinned (never changes under its path) and `small` takes it, else a view. A table of
 * value counts ('counts') is also held as a lookup when it fits (count-lookup.ts).
 */
export async function serveParquet(
  connection: DuckDBConnection,
  { small, lookups }: Held,
  name: string,
  parquetPath: string,
  kind: ViewKind,
): Promise<void> {
  // Forgotten before the table changes: a count meanwhile runs as SQL.
  lookups.release(name);
  const wasTable = small.has(name);
  const table = (kind === 'pinned' || kind === 'counts') && (await small.take(name, parquetPath));
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
    if (table && kind === 'counts') await holdLookup(connection, lookups, name);
  } catch (error) {
    small.release(name);
    throw error;
  }
}

/** Holds table `name` as a lookup when it is a text column and its counts. */
async function holdLookup(connection: DuckDBConnection, lookups: CountLookups, name: string): Promise<void> {
  const result = await connection.run(`SELECT * FROM ${quoteIdentifier(name)}`);
  const names = result.columnNames();
  const text = names.length === 2 && names[1] === VALUE_COUNT_COLUMN;
  if (!text || result.columnType(0).typeId !== DuckDBTypeId.VARCHAR) return;
  const rows = (await result.getRows()).map(
    ([value, count]) => [value as string | null, Number(count)] as const,
  );
  lookups.hold(name, names[0]!, rows);
}

/** Drops the view or small table `name`, if any. */
export async function dropServed(
  connection: DuckDBConnection,
  { small, lookups }: Held,
  name: string,
): Promise<void> {
  lookups.release(name);
  const kind = small.has(name) ? 'TABLE' : 'VIEW';
  await connection.run(`DROP ${kind} IF EXISTS ${quoteIdentifier(name)}`);
  small.release(name);
}
