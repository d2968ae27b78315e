#!/usr/bin/env -S node --max-semi-space-size=1
// The `duckportal` command. What the process reads once, at its start, is set here, before the
// ES module CLI loads (an ES module is too late: Node's loader already uses libuv's pool).
//
// - V8's young generation stays at 1 MiB per semi-space (the shebang; a V8 flag cannot be set
//   later). Streaming exports grew it from 33 to 53 MiB of heap that stayed. Six 30M-row CSV
//   exports then six Parquet ones on a fresh server peaked at 373-389 MiB against 407-409 MiB
//   (two runs each), download times the same.
// - libuv's thread pool has 64 threads: each DuckDB call (node-api async work) and each COPY
//   export blocked on a slow reader holds one, so the pool must outnumber the engine's
//   connections plus its export connections.
// - DuckDB's allocator (jemalloc) hands freed pages back to the system when it purges them
//   (muzzy_decay_ms:0) instead of marking them reusable first, which Linux keeps counting as
//   resident until it needs the memory: with both settings the same exports peaked at
//   374-375 MiB, aggregation times the same.
// Each can be overridden from the environment.
process.env.UV_THREADPOOL_SIZE ||= '64';
process.env.DUCKDB_JE_MALLOC_CONF ||= 'muzzy_decay_ms:0';
import('../dist/src/cli.js').catch((error) => {
  console.error(error);
  process.exit(1);
});
