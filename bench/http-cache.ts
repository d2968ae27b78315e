// HTTP caching under load (issue 25's benchmarks): a warm 10-row page (the same URL, answered from
// the response cache) against the server's cheapest answer at 8 clients, 304 revalidations of
// that page, cold pages (each request a query of its own, missing the cache) at 1 to 128 clients,
// and the bytes of the catalog and of a records page on the wire, plain, gzip and br.
import http from 'node:http';
import type { ServedPortal } from './harness.js';
import { closedLoopOn, closedLoopsInTurns, CONCURRENCY, PAGE_QUERY, type LoadResult } from './load.js';

/** The server's cheapest answer: the catalog's export formats, a constant list, no query. */
export const CHEAPEST = '/api/explore/v2.1/catalog/exports';
const WIRE = {
  catalog: '/api/explore/v2.1/catalog/datasets',
  'records page (100 rows)': '/api/explore/v2.1/catalog/datasets/flights/records?limit=100',
} as const;
/** Turns of each cold loop (each `seconds` long), taken in rounds: see closedLoopsInTurns. */
const COLD_ROUNDS = 3;
/** Clients of each loop: where the load table shows the page rate at its best. */
export const HTTP_CACHE_CLIENTS = 8;

/**
 * The n-th cold page: the 10-row page of the load table with a condition true of every flight
 * (distances are positive) that makes each request's query, tag and cache key its own.
 */
export const coldPage = (n: number): string =>
  PAGE_QUERY.replace('&limit=', `%20and%20distance%20%3E%20-${n + 1}&limit=`);

export interface WireBytes {
  readonly name: string;
  readonly plain: number;
  readonly gzip: number;
  readonly br: number;
}

export interface HttpCacheResult {
  readonly warm: LoadResult;
  readonly cheapest: LoadResult;
  readonly revalidations: LoadResult;
  /** Cold pages at each client count of the load table, each client waiting the Retry-After of a 503. */
  readonly cold: readonly LoadResult[];
  /** Cold pages at the most clients, each asking again at once after a 503 (the server holds it). */
  readonly coldAtOnce: LoadResult;
  readonly wire: readonly WireBytes[];
}

/**
 * 200s per second of cold pages at the most clients (`most`, by default the last of `cold`) over
 * the best at fewer (issue 25: >= 0.8).
 */
export function coldRatio(cold: readonly LoadResult[], most: LoadResult = cold.at(-1)!): number {
  return most.okPerSecond / Math.max(...cold.slice(0, -1).map((r) => r.okPerSecond));
}

/** The bytes of one answer's body as sent, for an Accept-Encoding. */
function bodyBytes(
  base: string,
  path: string,
  encoding: string | null,
): Promise<{ bytes: number; etag: string }> {
  return new Promise((resolve, reject) => {
    const headers = encoding ? { 'Accept-Encoding': encoding } : {};
    http
      .get(base + path, { headers }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => resolve({ bytes, etag: String(response.headers.etag) }));
      })
      .on('error', reject);
  });
}

/** Warm page vs the cheapest answer, 304s of the page, cold pages, bytes on the wire; on a server with its cache on. */
export async function benchHttpCache(served: ServedPortal, seconds: number): Promise<HttpCacheResult> {
  const { etag } = await bodyBytes(served.base, PAGE_QUERY, null);
  const warm = await closedLoopOn(
    served.base,
    PAGE_QUERY,
    {},
    'warm 10-row page',
    HTTP_CACHE_CLIENTS,
    seconds,
  );
  const cheapest = await closedLoopOn(
    served.base,
    CHEAPEST,
    {},
    'export format list (no query)',
    HTTP_CACHE_CLIENTS,
    seconds,
  );
  const revalidations = await closedLoopOn(
    served.base,
    PAGE_QUERY,
    { 'If-None-Match': etag },
    '10-row page revalidated (304)',
    HTTP_CACHE_CLIENTS,
    seconds,
  );
  // Numbered across the loops: no page of one loop is in the cache from an earlier one.
  let pages = 0;
  const coldPages = () => coldPage(pages++);
  const loops = await closedLoopsInTurns(
    served.base,
    [
      ...CONCURRENCY.map((concurrency) => ({
        path: coldPages,
        headers: {},
        name: 'cold 10-row page',
        concurrency,
        honourRetryAfter: true,
      })),
      {
        path: coldPages,
        headers: {},
        name: 'cold 10-row page, asking again at once',
        concurrency: CONCURRENCY.at(-1)!,
      },
    ],
    seconds * COLD_ROUNDS,
    COLD_ROUNDS,
  );
  const cold = loops.slice(0, -1);
  const coldAtOnce = loops.at(-1)!;
  const wire: WireBytes[] = [];
  for (const [name, path] of Object.entries(WIRE)) {
    const [plain, gzip, br] = await Promise.all(
      [null, 'gzip', 'br'].map(async (encoding) => (await bodyBytes(served.base, path, encoding)).bytes),
    );
    wire.push({ name, plain: plain!, gzip: gzip!, br: br! });
  }
  return { warm, cheapest, revalidations, cold, coldAtOnce, wire };
}
