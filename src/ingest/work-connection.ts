// The DuckDB that ingest works in: private and in memory, never the server's locked-down engine.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/** Opens one more connection to the same database, closed with the first. */
export type ConnectBeside = () => Promise<DuckDBConnection>;

/** The settings of every connection: UTC (so naive timestamps are read as UTC). */
const SESSION_SQL = "SET TimeZone = 'UTC'";

/**
 * Runs `work` on a fresh in-memory DuckDB whose session time zone is UTC (so naive timestamps
 * are read as UTC) and which spills to a scratch folder; `workDir` is removed afterwards.
 * `connectBeside` opens another connection, for a statement that runs beside the first one's.
 */
export async function withWorkConnection<T>(
  work: (connection: DuckDBConnection, workDir: string, connectBeside: ConnectBeside) => Promise<T>,
): Promise<T> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-ingest-'));
  try {
    // Extensions ingest needs (parquet, json, icu) are built in; nothing may be downloaded.
    const instance = await DuckDBInstance.create(':memory:', {
      autoinstall_known_extensions: 'false',
      temp_directory: path.join(workDir, 'spill'),
    });
    const connection = await instance.connect();
    const beside: DuckDBConnection[] = [];
    const connectBeside: ConnectBeside = async () => {
      const other = await instance.connect();
      beside.push(other);
      await other.run(SESSION_SQL);
      return other;
    };
    try {
      // DuckDB measures each query's progress (read by progress.ts) without printing it.
      await connection.run(
        `${SESSION_SQL}; SET enable_progress_bar = true; SET enable_progress_bar_print = false; SET progress_bar_time = 0`,
      );
      return await work(connection, workDir, connectBeside);
    } finally {
      for (const other of beside) other.closeSync();
      connection.closeSync();
      instance.closeSync();
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
