// The fuzz test's client and its properties: generated requests (test/api/fuzz-requests.ts) sent
// 8 at a time, from 8 loopback addresses; none may answer 5xx, go unanswered, answer an error
// outside its API generation's shape, answer a v2.0 route outside v2.0's nesting (fuzz-v20.ts), or show SQL, a file path, an engine's text or a stack. A
// failure prints fast-check's `{ seed, path }`: replay it with FUZZ_SEED=<seed> FUZZ_PATH=<path>.
import http from 'node:http';
import fc from 'fast-check';
import { decodedBody } from '../helpers/raw-http.js';
import { urlOf } from './fuzz-params.js';
import type { HeaderedRequest as Request } from './fuzz-headers.js';
import { v20ShapeProblem } from './fuzz-v20.js';

export const CONCURRENCY = 8;
/**
 * A request unanswered this long is a hang, named as such (rather than the whole run timing out).
 * No speed is asserted: every query has the server's deadline of 30 s, and a loaded machine may
 * queue an answer for seconds (answers took over 5 s at load 20 on 2 cores).
 */
const HANG_MS = 120_000;

/** What no body may show, unless the input itself holds it (error messages quote the input). */
const LEAKS: readonly [string, RegExp][] = [
  ['SQL text', /\bSELECT\b|\bFROM\s+\\?"|read_parquet|read_csv|\bCOPY\b.*\bTO\b/],
  ['a file path', /\/tmp\/|data\/portal|\/[\w./-]*\.parquet\b|\/work\//],
  [
    'DuckDB error text',
    /\b(Binder|Parser|Conversion|Catalog|Invalid Input|INTERNAL|Out of Range|Not implemented|IO) Error\b|duckdb/i,
  ],
  ['ClickHouse error text', /DB::Exception|e\.displayText\(\)/],
  ['a stack', /(\n|\\n)\s+at [\w.<]/],
];

/** v1's routes, and the portal's download links, which answer v1's error object. */
const isV1 = (path: string): boolean =>
  /^\/api\/(records|datasets)\/1\.0\//.test(path) || /^\/explore\/dataset\/[^/]+\/download/.test(path);

/** What a run tolerates besides the properties. */
export interface FuzzOptions {
  /**
   * A server of the datasets' ClickHouse cluster is stopped: a query may answer 503 with
   * Retry-After, saying so. Each request then goes on a connection of its own: one asked again
   * on a connection told Retry-After is held until then (src/http/retry-pacing.ts).
   */
  readonly clusterDown?: boolean;
}

/** An answer: its status, body text and Retry-After header. */
interface Answer {
  readonly status: number;
  readonly body: string;
  readonly retryAfter: string | null;
}

/** A 503 that a stopped server of the cluster explains, as the client is told to wait. */
const isClusterDown = ({ status, body, retryAfter }: Answer): boolean =>
  status === 503 &&
  retryAfter !== null &&
  body.includes("A server of the cluster holding this dataset's records");

/** The problem with one answer, or null when it holds every property. */
function problemOf(request: Request, answer: Answer, options: FuzzOptions): string | null {
  const { status, body } = answer;
  if (status >= 500 && !(options.clusterDown && isClusterDown(answer))) return `answered ${status}`;
  const input = decodeURIComponent(urlOf(request).replaceAll('+', ' '));
  for (const [what, pattern] of LEAKS) {
    const found = pattern.exec(body)?.[0];
    if (found !== undefined && !input.includes(found)) return `shows ${what} (${found})`;
  }
  if (status < 400) return status < 300 ? v20ShapeProblem(request.path, body) : null;
  let keys: string[];
  try {
    keys = Object.keys(JSON.parse(body) as object);
  } catch {
    return 'error body is not JSON';
  }
  const shape = isV1(request.path) ? ['error', 'errorcode'] : ['error_code', 'message'];
  return shape.every((key) => keys.includes(key)) ? null : `error body without ${shape.join(', ')}`;
}

/** A request as a failure shows it: its URL, and its header case when it has one. */
const shown = (request: Request): string =>
  [
    request.authority && `(as http://${request.authority}...)`,
    urlOf(request),
    request.headers && JSON.stringify(request.headers),
  ]
    .filter(Boolean)
    .join(' ');

/**
 * GETs `request` from `base` through `agent` (its headers as given, its target an absolute URI
 * when it names an authority): its answer, or status 0 when `signal` fires first.
 */
function get(base: string, request: Request, agent: http.Agent, signal: AbortSignal): Promise<Answer> {
  const target = (request.authority ? `http://${request.authority}` : '') + urlOf(request);
  const headers = request.headers?.flat();
  return new Promise((resolve, reject) => {
    const sent = http.get(base, { agent, signal, path: target, ...(headers && { headers }) }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: decodedBody(response.headers, Buffer.concat(chunks)),
          retryAfter: response.headers['retry-after'] ?? null,
        }),
      );
      response.on('error', reject);
    });
    sent.on('error', (error) =>
      signal.aborted ? resolve({ status: 0, body: '', retryAfter: null }) : reject(error),
    );
  });
}

/** A request's kind in the table of event-loop delays: its route, the dataset and format left out. */
function kindOf(request: Request): string {
  const route = request.path
    .replace(
      /\/((?:catalog|monitoring|opendatasoft)\/datasets|datasets\/1\.0|explore\/dataset)\/(?!search$)[^/]+/,
      '/$1/{id}',
    )
    .replace(
      /\/(exports|records)\/[^/]+$/,
      (_, what: string) => `/${what}/{${what === 'records' ? 'record_id' : 'format'}}`,
    )
    .replace(/(.)\/$/, '$1');
  const facets = request.params.filter(([name]) => name === 'facet').length;
  return facets > 16 ? `${route} (${facets} facets)` : route;
}

/**
 * The server's event loop's worst delay since its last scrape, in ms: prom-client's
 * `nodejs_eventloop_lag_max_seconds` (monitorEventLoopDelay at 10 ms resolution, reset by each
 * scrape), read from the server's own /metrics so that the client's work is not counted.
 */
async function loopDelaySinceLastScrape(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const seconds = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)?.[1];
  if (seconds === undefined) throw new Error("the server's /metrics has no nodejs_eventloop_lag_max_seconds");
  return Math.round(Number(seconds) * 1000);
}

/**
 * Prints the server's event loop's worst delay while a request of each kind ran. Requests run 8
 * at a time and the delay is read after each batch, so a delay counts for every kind of its
 * batch: a kind's worst is an upper bound of what its own requests held the loop.
 */
function printDelays(delays: ReadonlyMap<string, number[]>): void {
  const rows = [...delays].map(([kind, ms]) => {
    const sorted = [...ms].sort((a, b) => a - b);
    return {
      kind,
      n: ms.length,
      p99: sorted[Math.floor(0.99 * (sorted.length - 1))]!,
      worst: sorted.at(-1)!,
    };
  });
  console.log(`\n      ${"the server's event loop delay (ms), by batch".padEnd(64)}     n   p99  worst`);
  for (const { kind, n, p99, worst } of rows.sort((a, b) => b.worst - a.worst)) {
    console.log(
      `      ${kind.padEnd(64)} ${String(n).padStart(5)} ${String(p99).padStart(5)} ${String(worst).padStart(6)}`,
    );
  }
}

/** fast-check's replay options from the environment, else a fresh seed. */
function replay(): { seed?: number; path?: string } {
  const seed = process.env.FUZZ_SEED;
  const path = process.env.FUZZ_PATH;
  return { ...(seed && { seed: Number(seed) }), ...(path && { path }) };
}

/**
 * Sends `runs` batches of CONCURRENCY generated requests to `server`, each client from its own
 * loopback address (127.0.0.2-9: the anonymous quota of 10,000 calls a day per address would
 * otherwise answer 429 before the run ends); fails with the URL of the first request that breaks
 * a property, allowing what `options` says. Resolves with every status answered.
 */
export async function fuzz(
  server: { readonly base: string },
  requests: fc.Arbitrary<Request>,
  runs: number,
  options: FuzzOptions = {},
): Promise<number[]> {
  const clients = Array.from(
    { length: CONCURRENCY },
    (_, i) => new http.Agent({ keepAlive: !options.clusterDown, localAddress: `127.0.0.${i + 2}` }),
  );
  const delays = new Map<string, number[]>();
  const check = async (request: Request, client: number): Promise<number> => {
    const signal = AbortSignal.timeout(HANG_MS);
    const answer = await get(server.base, request, clients[client]!, signal);
    const problem = answer.status ? problemOf(request, answer, options) : `no answer in ${HANG_MS} ms`;
    if (problem) throw new Error(`${shown(request)}\n  ${problem}: ${answer.body.slice(0, 500)}`);
    return answer.status;
  };
  const statuses: number[] = [];
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(requests, { minLength: CONCURRENCY, maxLength: CONCURRENCY }),
        async (batch) => {
          statuses.push(...(await Promise.all(batch.map(check))));
          const delay = await loopDelaySinceLastScrape(server.base);
          for (const kind of new Set(batch.map(kindOf))) {
            const seen = delays.get(kind) ?? [];
            delays.set(kind, seen);
            seen.push(delay);
          }
        },
      ),
      { numRuns: runs, ...replay() },
    );
  } finally {
    clients.forEach((agent) => agent.destroy());
    printDelays(delays);
  }
  return statuses;
}
