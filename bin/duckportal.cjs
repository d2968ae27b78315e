#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=4
// The `duckportal` command. What the process reads once, at its start, is set here, before the
// ES module CLI loads (an ES module is too late: Node's loader already uses libuv's pool).
//
// - V8's young generation stays at 4 MiB per semi-space (the shebang; a V8 flag cannot be set
//   later). Streaming exports grew it to its default 16 MiB, 20 MiB of heap that stayed. Six
//   30M-row CSV exports then six Parquet ones on a fresh server peaked at 365-377 MiB with this
//   and DuckDB's setting below (three runs), 407-409 MiB with neither (two), download times the
//   same; 1 MiB went no lower and cost 10-20% of the page queries answered at 32 clients.
// - glibc's malloc keeps at most 2 arenas (the shebang sets MALLOC_ARENA_MAX, which glibc reads
//   before any code runs). With its default of 8 per core, the 64 threads below each came to own
//   an arena whose freed memory stayed resident: after the bench's 30M-row aggregations the
//   server rested at 264-282 MiB (137 at start) and a 3M-row CSV export then peaked at 435-448;
//   with 2 arenas it rested at 182-184 and the export peaked at 333, page and facet throughput
//   unchanged within the noise of A/B runs (8 clients).
// - libuv's thread pool has 64 threads: each DuckDB call (node-api async work) and each COPY
//   export blocked on a slow reader holds one, so the pool must outnumber the engine's
//   connections plus its export connections.
// - DuckDB's allocator (jemalloc) hands freed pages back to the system when it purges them
//   (muzzy_decay_ms:0) instead of first marking them reusable, which Linux keeps counting as
//   resident until it needs the memory.
// Either variable from the environment wins.
process.env.UV_THREADPOOL_SIZE ||= '64';
process.env.DUCKDB_JE_MALLOC_CONF ||= 'muzzy_decay_ms:0';
import('../dist/src/cli.js').catch((error) => {
  console.error(error);
  process.exit(1);
});
