// What keeping the API calls costs (docs/operating.md, API monitoring): the same request mix asked
// of two servers over the bench portal, one keeping the calls (`--monitoring-days 30`, the default)
// and one keeping none (`--monitoring-days 0`), timed in turns. The mix is the load test's three
// requests, one after the other, then eight clients at once; each turn is long enough (hundreds of
// calls) to span the buffer's writes every 10 s, so the ratio holds both the push onto the buffer
// on the request path and the Parquet writes beside it. A third case counts the servers' own CPU
// time per request (/proc), which a loaded machine disturbs much less than wall time.
import { readFile } from 'node:fs/promises';
import {
  markdownTable,
  measuredRatio,
  medianTurnsInRounds,
  servePortal,
  type MeasuredRatio,
} from './harness.js';
import { LOAD_REQUESTS } from './load.js';

/** One case: its name, its unit, the median of a turn on each server, and on / off. */
export interface MonitoringResult {
  readonly name: string;
  /** What a turn's figure is: wall milliseconds, or the server's CPU milliseconds per request. */
  readonly unit: 'ms' | 'CPU ms / request';
  readonly onMs: number;
  readonly offMs: number;
  readonly ratio: MeasuredRatio;
}

/** Requests of a CPU turn: 200 rounds of the mix from one client. */
const CPU_ROUNDS = 200;
/** CPU turns per server (alternating which server goes first). */
const CPU_TURNS = 8;

/**
 * CPU seconds (user and system, every thread: the request path, the buffer's writes, DuckDB's
 * threads) the process `pid` has used, from /proc's clock ticks (100 per second on Linux).
 */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * The servers' own CPU per request for the same requests, in alternating turns: what keeping
 * the calls costs in work, which a busy machine changes far less than it changes wall times.
 */
async function cpuPerRequest(servers: readonly { base: string; pid: number }[]): Promise<MonitoringResult> {
  const perRequest: [number[], number[]] = [[], []];
  const requests = CPU_ROUNDS * MIX.length;
  for (let turn = 0; turn < CPU_TURNS; turn++) {
    for (const side of turn % 2 === 0 ? [0, 1] : [1, 0]) {
      const { base, pid } = servers[side]!;
      const before = await cpuSeconds(pid);
      await mixFrom(base, 1, CPU_ROUNDS)();
      perRequest[side]!.push(((await cpuSeconds(pid)) - before) * (1000 / requests));
    }
  }
  const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
  return {
    name: `server CPU per request, 1 client (${CPU_TURNS} turns of ${requests} requests each)`,
    unit: 'CPU ms / request',
    onMs: sum(perRequest[0]) / CPU_TURNS,
    offMs: sum(perRequest[1]) / CPU_TURNS,
    ratio: measuredRatio(perRequest[0].map((on, i) => on / perRequest[1][i]!)),
  };
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
      return [
        ...CASES.map((c, i) => ({
          name: c.name,
          unit: 'ms' as const,
          onMs: times[i]!.medians[0],
          offMs: times[i]!.medians[1],
          ratio: times[i]!.ratio,
        })),
        await cpuPerRequest([on, off]),
      ];
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
    ['case', 'unit', 'calls kept', 'none kept', 'kept / none'],
    results.map((r) => [
      r.name,
      r.unit,
      r.onMs.toFixed(r.unit === 'ms' ? 1 : 3),
      r.offMs.toFixed(r.unit === 'ms' ? 1 : 3),
      ratioCell(r.ratio),
    ]),
  );
}
