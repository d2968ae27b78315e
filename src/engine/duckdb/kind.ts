// DuckDB as an engine kind: the local engine, reading the portals' Parquet files in the process,
// and the DuckDB dialect its SQL is written in.
import { duckdbDialect } from '../../odsql/dialect/duckdb/dialect.js';
import type { LocalKind } from '../engine-kind.js';
import { DEFAULT_CONNECTIONS, DEFAULT_EXPORT_CONNECTIONS, DuckDBEngine } from './engine.js';
import { startFifoHelper } from './fifo.js';
import { parquetEncoder } from './parquet-encoder.js';

/** libuv threads the server needs: one per pooled connection and per export, and some for files. */
const THREAD_POOL_NEEDED = DEFAULT_CONNECTIONS + DEFAULT_EXPORT_CONNECTIONS + 8;

/**
 * Refuses to start on libuv's default pool of 4 threads, where four exports blocked on slow
 * readers leave no thread for any other DuckDB call and the server stalls. The size must be set
 * before Node starts (bin/duckportal.cjs does it; `make test` sets it for mocha).
 */
function requireThreadPool(): void {
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  if (threads < THREAD_POOL_NEEDED) {
    throw new Error(
      `libuv's thread pool has ${threads} threads, duckportal needs ${THREAD_POOL_NEEDED}: start it with bin/duckportal.cjs, or set UV_THREADPOOL_SIZE=64 before node starts`,
    );
  }
}

export const duckdbKind: LocalKind = Object.freeze<LocalKind>({
  name: 'duckdb',
  dialect: duckdbDialect,
  prepare: async () => {
    requireThreadPool();
    await startFifoHelper();
  },
  open: async (options) => {
    const engine = await DuckDBEngine.open(options);
    return { engine, parquetEncoder: parquetEncoder(engine), parquetFiles: engine };
  },
});
