// A statement on a DuckDB connection, interrupted when its caller goes or its deadline passes, and
// DuckDB's errors turned into the engine's where a client may be told of them.
import type { DuckDBConnection } from '@duckdb/node-api';
import { DataFileMissing, DiskFull, QueryInterrupted, QueryOutOfMemory } from '../engine.js';

/** The engine's error for what DuckDB threw, when it is one a client may be told of. */
function classify(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if (error.message.startsWith('Out of Memory Error')) return new QueryOutOfMemory();
  if (error.message.startsWith('IO Error: No files found')) return new DataFileMissing();
  if (error.message.includes('No space left on device')) return new DiskFull();
  return error;
}

/**
 * Runs `work` on `connection`, interrupting its statement when `signal` aborts. An interrupt that
 * arrives before execution starts is dropped by DuckDB: it is re-sent until the work settles.
 */
export async function interruptible<T>(
  connection: DuckDBConnection,
  work: (connection: DuckDBConnection) => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  let settled = false;
  let interrupter: NodeJS.Timeout | undefined;
  const onAbort = (): void => {
    const send = (): void => {
      if (settled) return;
      connection.interrupt();
      interrupter = setTimeout(send, 20);
    };
    send();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await work(connection);
  } catch (error) {
    if (signal?.aborted) throw new QueryInterrupted();
    throw classify(error);
  } finally {
    settled = true;
    clearTimeout(interrupter);
    signal?.removeEventListener('abort', onAbort);
  }
}
