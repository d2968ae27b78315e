// Statements kept prepared on each pooled connection, by their SQL text: a page asked again (the
// same table view, the same refine, a client polling) skips DuckDB's parsing, binding and
// planning, and runs in one trip through libuv's pool instead of a query's (bench/README.md,
// ClickHouse: a count over an in-memory table of value counts 0.40 -> 0.17 ms back to back).
// Each connection's statements are touched only while its caller holds the connection, so none is
// destroyed while it runs; a view defined or dropped forgets them all at each one's next use.
import type {
  DuckDBConnection,
  DuckDBMaterializedResult,
  DuckDBPreparedStatement,
  DuckDBValue,
} from '@duckdb/node-api';
import { LRUCache } from 'lru-cache';
import { bound } from './values.js';

/**
 * Statements kept per connection. A statement over a Parquet view holds about 30 KB outside
 * DuckDB's memory limit (500 measured: 14-16 MB with the footers kept): 8 connections keep at
 * most 256, about 8 MB.
 */
export const PREPARED_PER_CONNECTION = 32;

/**
 * Whether a statement may be kept: one SELECT, without a subquery or a join. A kept statement
 * whose plan has a semi join (`x IN (SELECT ...)`, as every search() and the catalog's search
 * compile to) holds its hash table in DuckDB's memory after it ran, until it is destroyed
 * (DuckDB 1.5, when its optimizer builds on the outer side: 8.4 MB for the sample catalog's 641
 * index rows, more for a dataset's index). Kept, a few hundred such statements held DuckDB's
 * whole memory limit and every query after them was refused (test/engine/kept-statements.test.ts;
 * the fuzz test found it). Statements this keeps are the quick ones it pays off for: pages, counts,
 * groupings; one with a subquery is prepared at each run, as a query is.
 */
export function keepable(sql: string): boolean {
  return !/\bjoin\b/i.test(sql) && (sql.match(/\bselect\b/gi)?.length ?? 0) <= 1;
}

/** One connection's statements, and the generation of the views they were prepared over. */
interface Kept {
  generation: number;
  readonly statements: LRUCache<string, DuckDBPreparedStatement>;
}

export class PreparedStatements {
  private readonly kept = new WeakMap<DuckDBConnection, Kept>();
  /** Bumped by `forget`: statements of an older generation are destroyed at their next use. */
  private generation = 0;

  constructor(private readonly perConnection = PREPARED_PER_CONNECTION) {}

  /**
   * Runs `sql` with `params` bound on `connection` (held by the caller) from its kept statement,
   * prepared and kept on first use when keepable; with `perConnection` 0, as a plain query.
   */
  async run(
    connection: DuckDBConnection,
    sql: string,
    params: readonly DuckDBValue[],
  ): Promise<DuckDBMaterializedResult> {
    if (this.perConnection === 0) return connection.run(sql, bound(params));
    const statements = this.statementsOf(connection);
    let statement = statements.get(sql);
    if (statement === undefined) {
      // Tested once a statement is not kept, so a kept one's run reads no SQL text.
      if (!keepable(sql)) return connection.run(sql, bound(params));
      // A statement that fails to prepare (a DuckDB error) is not kept and throws as a query would.
      statement = await connection.prepare(sql);
      statements.set(sql, statement);
    }
    if (params.length > 0) statement.bind([...params]);
    else if (statement.parameterCount > 0) statement.clearBindings();
    return statement.run();
  }

  /** Views changed: every kept statement is destroyed before its connection runs another. */
  forget(): void {
    this.generation++;
  }

  private statementsOf(connection: DuckDBConnection): LRUCache<string, DuckDBPreparedStatement> {
    let kept = this.kept.get(connection);
    if (kept === undefined) {
      kept = {
        generation: this.generation,
        statements: new LRUCache<string, DuckDBPreparedStatement>({
          max: this.perConnection,
          dispose: (statement) => statement.destroySync(),
        }),
      };
      this.kept.set(connection, kept);
    } else if (kept.generation !== this.generation) {
      kept.statements.clear();
      kept.generation = this.generation;
    }
    return kept.statements;
  }
}
