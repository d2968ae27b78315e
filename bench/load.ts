// Capacity and overload: how many requests per second one machine answers at 1, 8, 32 and 128
// clients (10-row page queries, facets, an aggregation), then page queries in an open loop at 4x
// the page capacity, counting every status and the latency percentiles. Under overload only 2xx,
// 429 and 503 may come back.
import http from 'node:http';
import { warmUp, type ServedPortal } from './harness.js';

/** The 10-row page query of the load test: a filter and the first page, as a portal's table view asks. */
export const PAGE_QUERY = "/api/explore/v2.1/catalog/datasets/flights/records?where=origin%3D'SFO'&limit=10";

/** The request kinds of the closed loops, each a path on the served portal. */
export const LOAD_REQUESTS = {
  '10-row page': PAGE_QUERY,
  'facets (origin, destination)': '/api/explore/v2.1/catalog/datasets/flights/facets',
  'group_by + avg': `/api/explore/v2.1/catalog/datasets/flights/records?${new URLSearchParams({
    select: 'origin, avg(delay) as d',
    group_by: 'origin',
    limit: '100',
  }).toString()}`,
} as const;

export const CONCURRENCY = [1, 8, 32, 128] as const;

export interface LoadResult {
  /** A key of LOAD_REQUESTS. */
  readonly request: string;
  readonly label: string;
  readonly offeredPerSecond: number | null;
  /** Every answer (503s included) per second. */
  readonly completedPerSecond: number;
  /** 2xx answers per second: the rate that served records. */
  readonly okPerSecond: number;
  readonly statuses: Record<string, number>;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : NaN;

/** The status of one GET (0: no answer), and the seconds of its Retry-After (0: none). */
function answer(
  agent: http.Agent,
  url: string,
  headers: http.OutgoingHttpHeaders = {},
): Promise<{ status: number; retryAfter: number }> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent, headers }, (response) => {
      response.resume();
      const retryAfter = Number(response.headers['retry-after'] ?? 0) || 0;
      response.on('end', () => resolve({ status: response.statusCode ?? 0, retryAfter }));
    });
    req.on('error', () => resolve({ status: 0, retryAfter: 0 }));
  });
}

async function request(
  agent: http.Agent,
  url: string,
  headers: http.OutgoingHttpHeaders = {},
): Promise<number> {
  return (await answer(agent, url, headers)).status;
}

function summarize(
  request: string,
  label: string,
  offered: number | null,
  seconds: number,
  samples: [number, number][],
): LoadResult {
  const statuses: Record<string, number> = {};
  for (const [status] of samples) statuses[status] = (statuses[status] ?? 0) + 1;
  const latencies = samples.map(([, ms]) => ms).sort((a, b) => a - b);
  return {
    request,
    label,
    offeredPerSecond: offered,
    completedPerSecond: samples.length / seconds,
    okPerSecond: samples.filter(([status]) => status >= 200 && status < 300).length / seconds,
    statuses,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
  };
}

/** Closed loop: `concurrency` clients each sending the next request when the last is answered. */
export function closedLoop(
  base: string,
  kind: keyof typeof LOAD_REQUESTS,
  concurrency: number,
  seconds: number,
) {
  return closedLoopOn(base, LOAD_REQUESTS[kind], {}, kind, concurrency, seconds);
}

/** One closed loop: its path (or the n-th request's path), headers, name and clients. */
export interface ClosedLoopSpec {
  readonly path: string | ((n: number) => string);
  readonly headers: http.OutgoingHttpHeaders;
  readonly name: string;
  readonly concurrency: number;
  /** A client told 503 waits the Retry-After it was given before its next request, as a well-behaved client does; otherwise it asks again at once. */
  readonly honourRetryAfter?: boolean;
  /** The label of its row; by default "<concurrency> clients". */
  readonly label?: string;
}

/** Runs one closed loop for `seconds`: the [status, ms] of each answer and the seconds until the last. */
async function runClosedLoop(
  base: string,
  spec: ClosedLoopSpec,
  seconds: number,
): Promise<{ samples: [number, number][]; elapsed: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.concurrency });
  const samples: [number, number][] = [];
  const started = performance.now();
  const end = Date.now() + seconds * 1000;
  const { path } = spec;
  const pathOf = typeof path === 'string' ? () => path : path;
  let sent = 0;
  await Promise.all(
    Array.from({ length: spec.concurrency }, async () => {
      while (Date.now() < end) {
        const start = performance.now();
        const { status, retryAfter } = await answer(agent, base + pathOf(sent++), spec.headers);
        samples.push([status, performance.now() - start]);
        if (spec.honourRetryAfter && status === 503 && retryAfter > 0) {
          await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfter * 1000, end - Date.now())));
        }
      }
    }),
  );
  agent.destroy();
  // Elapsed until the last answer, not `seconds`: at 128 clients the last requests end late.
  return { samples, elapsed: (performance.now() - started) / 1000 };
}

const labelOf = (spec: ClosedLoopSpec): string => spec.label ?? `${spec.concurrency} clients`;

/**
 * A closed loop on any path (or the n-th request's path), with the headers given, reported under
 * `name`. With `honourRetryAfter`, a client told 503 waits the Retry-After it was given before its
 * next request, as a well-behaved client does; otherwise it asks again at once (the worst case).
 */
export async function closedLoopOn(
  base: string,
  path: string | ((n: number) => string),
  headers: http.OutgoingHttpHeaders,
  name: string,
  concurrency: number,
  seconds: number,
  honourRetryAfter = false,
): Promise<LoadResult> {
  const spec = { path, headers, name, concurrency, honourRetryAfter };
  const { samples, elapsed } = await runClosedLoop(base, spec, seconds);
  return summarize(name, labelOf(spec), null, elapsed, samples);
}

/**
 * Several closed loops compared with each other on a machine that other work may share: each runs
 * `seconds` in all, in `rounds` turns of `seconds / rounds`, one turn of each loop per round, so
 * that a slow moment of the machine falls on every loop alike; each row sums its turns.
 */
export async function closedLoopsInTurns(
  base: string,
  specs: readonly ClosedLoopSpec[],
  seconds: number,
  rounds: number,
): Promise<LoadResult[]> {
  const runs = specs.map(() => ({ samples: [] as [number, number][], elapsed: 0 }));
  for (let round = 0; round < rounds; round++) {
    for (const [i, spec] of specs.entries()) {
      const { samples, elapsed } = await runClosedLoop(base, spec, seconds / rounds);
      runs[i]!.samples.push(...samples);
      runs[i]!.elapsed += elapsed;
    }
  }
  return specs.map((spec, i) =>
    summarize(spec.name, labelOf(spec), null, runs[i]!.elapsed, runs[i]!.samples),
  );
}

/**
 * Open loop: requests sent at a fixed rate whatever the answers, as real traffic arrives. Each goes
 * out at once on a connection of its own if none is free (no cap of the client's: with 1,024
 * sockets, as before, the requests past them waited in this process for a socket, never reaching
 * the server's waiting line, whose own cap is 1,024, so nothing was refused and the wait was the
 * client's). Rates are over the time until the last answer, not the seconds of sending.
 */
export async function openLoop(base: string, path: string, perSecond: number, seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const samples: [number, number][] = [];
  const pending: Promise<void>[] = [];
  const started = performance.now();
  const tickMs = 10;
  const perTick = (perSecond * tickMs) / 1000;
  let owed = 0;
  for (let t = 0; t < (seconds * 1000) / tickMs; t++) {
    owed += perTick;
    for (; owed >= 1; owed--) {
      const start = performance.now();
      pending.push(
        request(agent, base + path).then((status) => void samples.push([status, performance.now() - start])),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, tickMs));
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return summarize(
    '10-row page',
    `open loop at ${Math.round(perSecond)}/s (4x capacity)`,
    perSecond,
    elapsed,
    samples,
  );
}

/** Each request kind at each concurrency, then page queries at 4x their best closed-loop rate. */
export async function benchLoad(served: ServedPortal, seconds: number): Promise<LoadResult[]> {
  const closed = [];
  for (const request of Object.keys(LOAD_REQUESTS) as (keyof typeof LOAD_REQUESTS)[]) {
    await warmUp(() => fetch(served.base + LOAD_REQUESTS[request]).then((r) => r.text()));
    for (const concurrency of CONCURRENCY)
      closed.push(await closedLoop(served.base, request, concurrency, seconds));
  }
  const pages = closed.filter((r) => r.request === '10-row page');
  const capacity = Math.max(...pages.map((r) => r.okPerSecond));
  const overload = await openLoop(served.base, PAGE_QUERY, capacity * 4, seconds);
  return [...closed, overload];
}
