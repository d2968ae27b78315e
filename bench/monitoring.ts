// What keeping the API calls costs (docs/operating.md, API monitoring): the same request mix asked
// of two servers over the bench portal, one keeping the calls (`--monitoring-days 30`, the default)
// and one keeping none (`--monitoring-days 0`), timed in turns. The mix is the load test's three
// requests, one after the other, then eight clients at once; each turn is long enough (hundreds of
// calls) to span the buffer's writes every 10 s, so the ratio holds both the push onto the buffer
// on the request path and the Parquet writes beside it.
import { markdownTable, medianTurnsInRounds, servePortal, type MeasuredRatio } from './harness.js';
import { LOAD_REQUESTS } from './load.js';

/** One case: its name, the median milliseconds of a turn on each server, and on / off. */
export interface MonitoringResult {
  readonly name: string;
  readonly onMs: number;
  readonly offMs: number;
  readonly ratio: MeasuredRatio;
}

const MIX = Object.values(LOAD_REQUESTS);

/** `rounds` of the mix from each of `clients` clients, every answer read. */
const mixFrom = (base: string, clients: number, rounds: number) => async (): Promise<void> => {
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let round = 0; round < rounds; round++) {
        for (const path of MIX) await (await fetch(base + path)).arrayBuffer();
      }
    }),
  );
};

const CASES = [
  { name: 'request mix, 1 client (30 rounds of 3 requests)', clients: 1, rounds: 30 },
  { name: 'request mix, 8 clients (10 rounds of 3 requests each)', clients: 8, rounds: 10 },
] as const;

/** Both servers on `port` and `port + 1`, their response caches off (`serveArgs`), asked the same cases. */
export async function benchMonitoring(
  portal: string,
  port: number,
  threads: number,
  runs: number,
  serveArgs: readonly string[],
): Promise<MonitoringResult[]> {
  const on = await servePortal(portal, port, threads, [...serveArgs, '--monitoring-days', '30']);
  try {
    const off = await servePortal(portal, port + 1, threads, [...serveArgs, '--monitoring-days', '0']);
    try {
      const pairs = CASES.map(
        (c) => [mixFrom(on.base, c.clients, c.rounds), mixFrom(off.base, c.clients, c.rounds)] as const,
      );
      const times = await medianTurnsInRounds(pairs, runs);
      return CASES.map((c, i) => ({
        name: c.name,
        onMs: times[i]!.medians[0],
        offMs: times[i]!.medians[1],
        ratio: times[i]!.ratio,
      }));
    } finally {
      await off.stop();
    }
  } finally {
    await on.stop();
  }
}

/** The report's table: each case's times and the ratio, calls kept over none. */
export function monitoringTable(
  results: readonly MonitoringResult[],
  ratioCell: (r: MeasuredRatio) => string,
): string {
  return markdownTable(
    ['case', 'calls kept (ms)', 'none kept (ms)', 'kept / none'],
    results.map((r) => [r.name, r.onMs.toFixed(1), r.offMs.toFixed(1), ratioCell(r.ratio)]),
  );
}
