// What every bench shares: timing with warm-up and median, a served portal in a child process
// (so the client's work is not charged to the server), a plain DuckDB over the same files, and
// the machine's description.
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/** The middle value (the upper one of an even count). */
export const median = (values: readonly number[]): number =>
  [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

/** Wall time of one call, in milliseconds. */
export async function timeMs(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Most timed turns of quick work, and the measuring time it gets (per piece of work) before that. */
const MAX_RUNS = 25;
const MIN_MEASURING_MS = 1500;

type Work = () => Promise<unknown>;

/**
 * Whether timing goes on for another turn: until `runs` turns, then for quick work until
 * `maxTurns` turns or `budgetMs` of measuring, whichever comes first.
 */
export function wantsAnotherTurn(
  turns: number,
  measuredMs: number,
  runs: number,
  budgetMs = MIN_MEASURING_MS,
  maxTurns = MAX_RUNS,
): boolean {
  return turns < runs || (turns < maxTurns && measuredMs < budgetMs);
}

/**
 * Median wall times in milliseconds of cases, each a tuple of pieces of work timed in turns
 * (a, b, a, b, ...) after one warm-up each: at least `runs` turns, and more for quick work (up to
 * MAX_RUNS turns or MIN_MEASURING_MS of measuring per piece), whose medians are the noisiest.
 * Timed in turns, a busy moment of the machine weighs on both sides of a ratio alike. The cases
 * take their turns in rounds (one turn of each case that wants one, then again), so each case's
 * turns spread over the whole of the timing: a slow moment of the machine (seconds long on a
 * shared VM, weighing unequally on work of two threads and of one) then falls on a few turns of
 * every case, which the medians pass over, rather than on all the turns of one case. Returns each
 * case's medians, in order.
 */
export async function medianTurnsInRounds(
  cases: readonly (readonly Work[])[],
  runs = 5,
): Promise<number[][]> {
  for (const works of cases) for (const work of works) await work();
  const timing = cases.map((works) => ({ works, times: works.map((): number[] => []), measured: 0 }));
  await inRounds(
    timing,
    (c) => wantsAnotherTurn(c.times[0]!.length, c.measured, runs, c.works.length * MIN_MEASURING_MS),
    async (c) => {
      for (const [i, work] of c.works.entries()) {
        const ms = await timeMs(work);
        c.times[i]!.push(ms);
        c.measured += ms;
      }
    },
  );
  return timing.map((c) => c.times.map(median));
}

/** Gives `turn` to each case that `wants` one, round after round, until none wants one. */
export async function inRounds<C>(
  cases: readonly C[],
  wants: (c: C) => boolean,
  turn: (c: C) => Promise<void>,
): Promise<void> {
  for (let round = cases.filter(wants); round.length > 0; round = cases.filter(wants)) {
    for (const c of round) await turn(c);
  }
}

/** Median wall time in milliseconds of one piece of work (see medianTurnsInRounds). */
export async function medianMs(work: Work, runs = 5): Promise<number> {
  const [medians] = await medianTurnsInRounds([[work]], runs);
  return medians![0]!;
}

/** A `duckportal serve` process on a loopback port. */
export interface ServedPortal {
  readonly base: string;
  readonly pid: number;
  stop(): Promise<void>;
}

export async function servePortal(
  portal: string,
  port: number,
  threads: number,
  extraArgs: readonly string[] = [],
): Promise<ServedPortal> {
  // The command itself, so that Node starts with the flags of its first line.
  const child: ChildProcess = spawn(
    'bin/duckportal.cjs',
    ['serve', '--portal', portal, '--port', String(port), '--threads', String(threads), ...extraArgs],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('datasets on http://')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`duckportal serve exited with ${code}: ${output}`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A plain DuckDB with the same thread count, each dataset of the portal a view named after it. */
export async function rawDuckDB(
  portal: string,
  datasets: readonly string[],
  threads: number,
): Promise<DuckDBConnection> {
  const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const connection = await instance.connect();
  for (const id of datasets) {
    const file = path.resolve(portal, 'datasets', id, 'data.parquet').replaceAll("'", "''");
    await connection.run(`CREATE VIEW "${id}" AS SELECT * FROM read_parquet('${file}')`);
  }
  return connection;
}

/** Cores, memory and runtime of this machine, for the report's header. */
export function machine(): { cores: number; memoryGiB: number; cpu: string; node: string } {
  return {
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
  };
}

/** A markdown table from a header and rows of cells. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
