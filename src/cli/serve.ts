// `duckportal serve`: its flags (each also a DUCKPORTAL_<FLAG> variable); the server's own
// defaults are src/server/defaults.ts's.
import {
  choice,
  negatable,
  optionalText,
  optionalValue,
  repeated,
  text,
  toggle,
  value,
  type FlagValues,
} from '../command-line/flags.js';
import { DEFAULT_TARGET_WAIT_MS } from '../engine/admission.js';
import type { LogFormat, LogLevel } from '../log.js';
import { DEFAULT_MONITORING_DAYS } from '../monitoring/dataset.js';
import {
  DEFAULT_CACHE_SIZE,
  DEFAULT_DRAIN_TIMEOUT,
  DEFAULT_MAX_AGE,
  DEFAULT_MEMORY_LIMIT,
  DEFAULT_MAX_OPEN_DATASETS,
  DEFAULT_MAX_UPLOAD,
} from '../server/defaults.js';
import { duckdbSize, port, positiveNumber, redisUrl, size, wholeNumber } from '../command-line/parse.js';

/**
 * The words of --log-level and --log-format, in --help's order; written as Records so that they
 * are exactly log.ts's (whose pino is not loaded for --help).
 */
const LOG_LEVELS = wordsOf<LogLevel>({ fatal: 1, error: 1, warn: 1, info: 1, debug: 1, trace: 1, silent: 1 });
const LOG_FORMATS = wordsOf<LogFormat>({ json: 1, pretty: 1 });

function wordsOf<W extends string>(words: Record<W, 1>): W[] {
  return Object.keys(words) as W[];
}

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
  hotMemory: optionalValue(
    'SIZE',
    "DuckDB's memory for in-memory copies of the datasets asked most (a dataset's 8th request copies it if it fits; one idle 60 s makes room): default a quarter of --memory-limit, 0 for none (every query reads the Parquet file)",
    size,
  ),
  queueWait: value(
    'MS',
    'longest a query should wait for a DuckDB connection (or for room in the memory budget of --memory-limit): the waiting line holds what the pool serves in that time, the rest get 503',
    positiveNumber,
    String(DEFAULT_TARGET_WAIT_MS),
  ),
  maxOpenDatasets: value(
    'N',
    'datasets whose views are kept open at once (least recently used closed first); a portal of at most N has all opened at start',
    positiveNumber,
    String(DEFAULT_MAX_OPEN_DATASETS),
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
  monitoringDays: value(
    'DAYS',
    'days of API calls kept in the monitoring dataset ods-api-monitoring, which admins query (0: none kept)',
    wholeNumber,
    String(DEFAULT_MONITORING_DAYS),
  ),
  sharedExports: negatable(
    "compute every export: by default each dataset's whole export in its default form (csv, parquet, json, jsonl, geojson) is kept as a file under the portal's .exports folder and sent with ranges (docs/exports.md)",
  ),
  maxUploadSize: value(
    'SIZE',
    "the largest file an administrator publishes from the account page's Datasets tab, uploaded or fetched from a URL (past it: 413)",
    size,
    DEFAULT_MAX_UPLOAD,
  ),
  allowPrivateUrls: toggle(
    'let the Datasets tab fetch URLs of loopback, private and link-local addresses (refused by default: SSRF)',
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
