// `duckportal serve`: its flags (each also a DUCKPORTAL_<FLAG> variable) and their defaults.
import {
  choice,
  optionalText,
  optionalValue,
  repeated,
  text,
  toggle,
  value,
  type FlagValues,
} from './flags.js';
import { DEFAULT_TARGET_WAIT_MS } from '../engine/admission.js';
import { duckdbSize, port, positiveNumber, redisUrl, size, wholeNumber } from './parse.js';

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

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The portal served when no --portal is given. */
export const DEFAULT_PORTAL = 'data/portal';

export const SERVE_FLAGS = {
  portal: repeated('DIR', `a portal folder; several are told apart by Host (default: ${DEFAULT_PORTAL})`),
  port: value('PORT', 'port of the API (0: any free port)', port, '8080'),
  host: text('HOST', 'address to listen on', '127.0.0.1'),
  threads: optionalValue('N', "DuckDB's threads (default: one per core)", positiveNumber),
  memoryLimit: value(
    'SIZE',
    "DuckDB's memory limit (larger sorts spill to disk); the process stays under it plus 512 MB whatever runs at once: median, percentile and envelope, which it does not count, share 448 MB across all queries and exports, and one that finds no room within --queue-wait is a 503",
    duckdbSize,
    DEFAULT_MEMORY_LIMIT,
  ),
  maxAge: value(
    'SECONDS',
    'Cache-Control max-age of anonymous answers',
    wholeNumber,
    String(DEFAULT_MAX_AGE),
  ),
  cacheSize: value(
    'SIZE',
    'bytes of JSON answers the response cache keeps (0: none)',
    size,
    DEFAULT_CACHE_SIZE,
  ),
  queueWait: value(
    'MS',
    'longest a query should wait for a DuckDB connection (or for room in the memory budget of --memory-limit): the waiting line holds what the pool serves in that time, the rest get 503',
    positiveNumber,
    String(DEFAULT_TARGET_WAIT_MS),
  ),
  metricsPort: optionalValue('PORT', "serve /livez, /readyz and /metrics on this port, not the API's", port),
  metricsHost: optionalText('HOST', 'address of the --metrics-port listener (default: --host)'),
  trustProxy: toggle('take the client address, scheme and host from X-Forwarded-* (behind a proxy)'),
  logLevel: choice('LEVEL', 'the lowest level logged', LOG_LEVELS, 'info'),
  logFormat: choice('FORMAT', 'one JSON object a line, or pretty lines for a person', LOG_FORMATS, 'json'),
  quotaStore: optionalValue(
    'URL',
    'keep the quota counters in Redis (redis://HOST:PORT), shared by replicas',
    redisUrl,
  ),
  drainTimeout: value(
    'SECONDS',
    'on SIGTERM/SIGINT, how long requests in flight may take to finish before they are cut',
    wholeNumber,
    String(DEFAULT_DRAIN_TIMEOUT),
  ),
};

export type ServeFlags = FlagValues<typeof SERVE_FLAGS>;

/** The portal folders `serve` serves: each --portal given, else DEFAULT_PORTAL. */
export function servedPortals(flags: Pick<ServeFlags, 'portal'>): string[] {
  return flags.portal.length > 0 ? flags.portal : [DEFAULT_PORTAL];
}
