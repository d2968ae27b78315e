// A plain in-memory DuckDB (icu loaded, session time zone UTC like the engine's) that runs the date builders' SQL.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/** Runs SQL expressions and reads them back as text (instants as 'YYYY-MM-DD HH:MM:SS+00', in UTC). */
export interface DateDb {
  /** One expression as text (null stays null). */
  text(sqlExpr: string): Promise<string | null>;
  /** One expression per row of `rowsSql` (see rowsOf), whose columns it may use, as text in row order. */
  texts(sqlExpr: string, rowsSql: string): Promise<(string | null)[]>;
  /** The first column of every row of a query, as text. */
  column(sql: string): Promise<(string | null)[]>;
  close(): void;
}

/** Opens the database; the caller closes it. */
export async function openDateDb(): Promise<DateDb> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection: DuckDBConnection = await instance.connect();
  await connection.run(`SET GLOBAL TimeZone = 'UTC'`);
  const column = async (sql: string): Promise<(string | null)[]> => {
    const reader = await connection.runAndReadAll(sql);
    return reader
      .getRowsJson()
      .map(([value]) =>
        value === null || value === undefined
          ? null
          : typeof value === 'string'
            ? value
            : JSON.stringify(value),
      );
  };
  return {
    text: async (sqlExpr) => (await column(`SELECT CAST((${sqlExpr}) AS VARCHAR)`))[0] ?? null,
    texts: (sqlExpr, rowsSql) => column(`SELECT CAST((${sqlExpr}) AS VARCHAR) FROM (${rowsSql}) ORDER BY i`),
    column,
    close: () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** SQL rows of one column (`x` by default) holding the given SQL values, numbered in column `i`. */
export function rowsOf(values: readonly string[], column = 'x'): string {
  const rows = values.map((v, i) => `(${i}, ${v})`).join(', ');
  return `SELECT * FROM (VALUES ${rows}) AS v(i, ${column})`;
}
