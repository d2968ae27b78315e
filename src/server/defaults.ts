// The server's defaults, where `serve`'s flags and the options of openServer take them from.

/**
 * DuckDB's memory limit unless `--memory-limit` says otherwise. DuckDB's own default (80% of RAM)
 * lets an order-preserving COPY hold batches for a slow reader until the machine is full: a 30M-row
 * CSV export peaked at 1.3 GiB resident with it. The COPY holds up to a quarter of the limit, which
 * sets an export's memory: the 30M-row CSV and Parquet exports peaked at 296-303 and 329-344 MiB
 * with this, 343-345 and 352-400 at 512MB (3 fresh servers each). Nothing measured was slower for
 * it: the bench's nine aggregations over 30M rows took the same time, a 30M-row group_by of 4
 * fields that spills took 13.7-15.4 s at 256, 384 and 512MB alike, and the nine sent at once
 * beside 12 stalled 30M-row exports all answered. 256MB passed those too; 384MB keeps half as
 * much again for heavier queries. Larger sorts and aggregations spill to the portal's spill
 * folder; a query that cannot get its memory is a 503 QueryOutOfMemory. Holistic aggregations'
 * states are outside DuckDB's accounting: they draw from one budget for the whole process
 * (src/engine/memory-budget.ts), so that the process stays under the limit plus 512 MB.
 */
export const DEFAULT_MEMORY_LIMIT = '384MB';

/** Cache-Control max-age of anonymous answers, and the response cache's bound (README, HTTP caching). */
export const DEFAULT_MAX_AGE = 60;
export const DEFAULT_CACHE_SIZE = '128MB';

/** Seconds a drain (SIGTERM, SIGINT) lets requests in flight finish before it cuts them (src/lifecycle.ts). */
export const DEFAULT_DRAIN_TIMEOUT = 30;
