// The server's defaults, where `serve`'s flags and the options of openServer take them from.

/**
 * DuckDB's memory limit unless `--memory-limit` says otherwise. DuckDB's own default (80% of RAM)
 * lets an order-preserving COPY hold batches for a slow reader until the machine is full. The COPY
 * holds up to a quarter of the limit, which sets an export's memory; nothing measured was slower
 * at this limit than at larger ones, and 256MB passed the same tests; 384MB keeps half as much
 * again for heavier queries (the measurements: docs/access-control.md, DuckDB's memory limit).
 * Larger sorts and aggregations spill to the portal's spill
 * folder; a query that cannot get its memory is a 503 QueryOutOfMemory. Holistic aggregations'
 * states are outside DuckDB's accounting: they draw from one budget for the whole process
 * (src/engine/memory-budget.ts), so that the process stays under the limit plus 512 MB.
 */
export const DEFAULT_MEMORY_LIMIT = '384MB';

/** Cache-Control max-age of anonymous answers, and the response cache's bound (docs/http-caching.md). */
export const DEFAULT_MAX_AGE = 60;
export const DEFAULT_CACHE_SIZE = '128MB';

/** Seconds a drain (SIGTERM, SIGINT) lets requests in flight finish before it cuts them (src/server/lifecycle.ts). */
export const DEFAULT_DRAIN_TIMEOUT = 30;

/** Datasets whose views are kept open at once, per portal (`--max-open-datasets`): a few MB each at most. */
export const DEFAULT_MAX_OPEN_DATASETS = 1_000;

/** The largest file the account page's Datasets tab takes, uploaded or fetched (`--max-upload-size`). */
export const DEFAULT_MAX_UPLOAD = '512MB';
