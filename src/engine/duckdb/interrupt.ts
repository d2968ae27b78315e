// A statement on a DuckDB connection, interrupted when its caller goes or its deadline passes, and
// DuckDB's errors turned into the engine's where a client may be told of them.
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  DataFileMissing,
  DiskFull,
  QueryDeadlineExceeded,
  QueryInterrupted,
  QueryOutOfMemory,
} from '../engine.js';

/** The engine's error for what DuckDB threw, when it is one a client may be told of. */
function classify(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if (error.message.startsWith('Out of Memory Error')) return new QueryOutOfMemory();
  if (error.message.startsWith('IO Error: No files found')) return new DataFileMissing();
  if (error.message.includes('No space left on device')) return new DiskFull();
  return error;
}

/** When a statement must have finished: `at` on performance.now()'s clock, `ms` as configured. */
export interface Deadline {
  readonly at: number;
  readonly ms: number;
}

/**
 * Runs `work` on `connection`, interrupting its statement when `signal` aborts or `deadline`
 * passes (QueryDeadlineExceeded). An interrupt that arrives before execution starts is dropped by
 * DuckDB: it is re-sent until the work settles. The deadline is a timer of its own rather than an
 * AbortController joined to the request's signal: a page runs two statements, and each controller,
 * its signal and their listeners were a share of a short request's main-thread time
 * (bench/README.md, Where Node's time goes per request).
 */
export async function interruptible<T>(
  connection: DuckDBConnection,
  work: (connection: DuckDBConnection) => Promise<T>,
  signal: AbortSignal | undefined,
  deadline?: Deadline,
): Promise<T> {
  const left = deadline === undefined ? Infinity : deadline.at - performance.now();
  if (left <= 0) throw new QueryDeadlineExceeded(deadline!.ms);
  let settled = false;
  let interrupting = false;
  let overdue = false;
  let interrupter: NodeJS.Timeout | undefined;
  const send = (): void => {
    if (settled) return;
    connection.interrupt();
    interrupter = setTimeout(send, 20);
  };
  const interrupt = (): void => {
    if (interrupting) return;
    interrupting = true;
    send();
  };
  signal?.addEventListener('abort', interrupt, { once: true });
  const timer =
    left === Infinity
      ? undefined
      : setTimeout(() => {
          overdue = true;
          interrupt();
        }, left).unref();
  try {
    return await work(connection);
  } catch (error) {
    if (overdue && !signal?.aborted) throw new QueryDeadlineExceeded(deadline!.ms);
    if (overdue || signal?.aborted) throw new QueryInterrupted();
    throw classify(error);
  } finally {
    settled = true;
    clearTimeout(interrupter);
    clearTimeout(timer);
    signal?.removeEventListener('abort', interrupt);
  }
}
