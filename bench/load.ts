// Capacity and overload: how many 10-row page queries per second one machine answers, then an
// open-loop load at 4x that rate, counting every status and the latency percentiles. Under
// overload only 2xx, 429 and 503 may come back.
import http from 'node:http';
import { medianMs, type ServedPortal } from './harness.js';

/** The 10-row page query of the load test: a filter and the first page, as a portal's table view asks. */
export const PAGE_QUERY = "/api/explore/v2.1/catalog/datasets/flights/records?where=origin%3D'SFO'&limit=10";

export interface LoadResult {
  readonly label: string;
  readonly offeredPerSecond: number | null;
  readonly completedPerSecond: number;
  readonly statuses: Record<string, number>;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : NaN;

function request(agent: http.Agent, url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
  });
}

function summarize(
  label: string,
  offered: number | null,
  seconds: number,
  samples: [number, number][],
): LoadResult {
  const statuses: Record<string, number> = {};
  for (const [status] of samples) statuses[status] = (statuses[status] ?? 0) + 1;
  const latencies = samples.map(([, ms]) => ms).sort((a, b) => a - b);
  return {
    label,
    offeredPerSecond: offered,
    completedPerSecond: samples.length / seconds,
    statuses,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
  };
}

/** Closed loop: `concurrency` clients each sending the next request when the last is answered. */
export async function closedLoop(base: string, path: string, concurrency: number, seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const samples: [number, number][] = [];
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const start = performance.now();
        const status = await request(agent, base + path);
        samples.push([status, performance.now() - start]);
      }
    }),
  );
  agent.destroy();
  return summarize(`closed loop, ${concurrency} clients`, null, seconds, samples);
}

/** Open loop: requests sent at a fixed rate whatever the answers, as real traffic arrives. */
export async function openLoop(base: string, path: string, perSecond: number, seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  const samples: [number, number][] = [];
  const pending: Promise<void>[] = [];
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
  agent.destroy();
  return summarize(`open loop at ${Math.round(perSecond)}/s (4x capacity)`, perSecond, seconds, samples);
}

/** Capacity (best of 8, 32 clients) then 4x that rate in an open loop. */
export async function benchLoad(served: ServedPortal, seconds: number): Promise<LoadResult[]> {
  await medianMs(() => fetch(served.base + PAGE_QUERY).then((r) => r.text()), 1);
  const closed = [];
  for (const concurrency of [1, 8, 32])
    closed.push(await closedLoop(served.base, PAGE_QUERY, concurrency, seconds));
  const capacity = Math.max(...closed.map((r) => r.completedPerSecond));
  const overload = await openLoop(served.base, PAGE_QUERY, capacity * 4, seconds);
  return [...closed, overload];
}
