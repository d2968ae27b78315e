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

export type Work = () => Promise<unknown>;

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
 * How well a ratio must be known before its timing stops: the standard error of the median of its
 * turns' log ratios, 0.035 (about ±7% at 95%). Two runs' ratios each known that well differ with a
 * standard error of 0.05, so 15% (0.14) is 2.8 of them. With five turns of the peers' ratios, whose
 * turns spread by 10-20% (standard deviation of the log ratio), the error was 0.06-0.11, and four or
 * five ratios of 48 missed 15% run after run.
 */
export const RATIO_ERROR = 0.035;

/**
 * Fewest turns whose spread is trusted to stop on, and the most a ratio gets. Stopping from 8
 * turns, ratios whose eight happened to agree (a standard error of 0.014 where the turns of other
 * runs gave 0.03-0.14) were 15-25% away from the same ratio of the next run.
 */
const FEWEST_TO_STOP = 12;
const MAX_RATIO_TURNS = 60;

/**
 * Measuring time of a table (its cases' turns together) after which no ratio takes another turn
 * however well known, unless the caller gives its own.
 */
const TABLE_MEASURING_MS = 60_000;

/**
 * The standard error of the median of the logs of `ratios`, from their median absolute deviation
 * (robust to the few turns a busy moment of the machine slows): 1.2533 × 1.4826 × MAD / √n.
 */
export function medianLogError(ratios: readonly number[]): number {
  const logs = ratios.map(Math.log);
  const middle = median(logs);
  const deviation = median(logs.map((x) => Math.abs(x - middle)));
  return (1.2533 * 1.4826 * deviation) / Math.sqrt(logs.length);
}

/**
 * Whether a ratio takes another turn: until `runs` turns; then, while its table has measuring
 * time left, until its median is known to RATIO_ERROR (judged from FEWEST_TO_STOP turns on), up
 * to MAX_RATIO_TURNS.
 */
export function ratioWantsAnotherTurn(ratios: readonly number[], runs: number, timeLeft: boolean): boolean {
  if (ratios.length < runs) return true;
  if (!timeLeft || ratios.length >= MAX_RATIO_TURNS) return false;
  return ratios.length < FEWEST_TO_STOP || medianLogError(ratios) > RATIO_ERROR;
}

/** A ratio from turns: the median of the turns' ratios, its medianLogError and the turns. */
export interface MeasuredRatio {
  readonly ratio: number;
  readonly error: number;
  readonly turns: number;
}

/** A pair's median times, a then b, and a over b from its turns. */
export interface PairTimes {
  readonly medians: readonly [number, number];
  readonly ratio: MeasuredRatio;
}

/** The MeasuredRatio of turns' ratios. */
export function measuredRatio(ratios: readonly number[]): MeasuredRatio {
  return { ratio: median(ratios), error: medianLogError(ratios), turns: ratios.length };
}

/**
 * Median wall times in milliseconds of pairs of pieces of work (a ratio, a over b), timed in
 * turns after one warm-up each, the order swapped every other turn (a, b, b, a, a, b, ...: the side
 * that goes first, right after the other case's work, is not always the same), until the median of each pair's turns' ratios is
 * known to RATIO_ERROR or the table has had `budgetMs` of measuring (ratioWantsAnotherTurn).
 * Timed in turns, a busy moment of the machine weighs on both sides of a ratio alike. The cases
 * take their turns in rounds (one turn of each case that wants one, then again), so each case's
 * turns spread over the whole of the timing: a slow moment of the machine (seconds long on a
 * shared VM, weighing unequally on work of two threads and of one) then falls on a few turns of
 * every case, which the medians pass over, rather than on all the turns of one case. Returns each
 * case's times, in order.
 */
export async function medianTurnsInRounds(
  cases: readonly (readonly [Work, Work])[],
  runs = 5,
  budgetMs = TABLE_MEASURING_MS,
): Promise<PairTimes[]> {
  for (const works of cases) for (const work of works) await work();
  const timing = cases.map((works) => ({ works, times: [[], []] as [number[], number[]] }));
  const ratios = (c: (typeof timing)[number]): number[] => c.times[0].map((a, i) => a / c.times[1][i]!);
  let spent = 0;
  await inRounds(
    timing,
    (c) => ratioWantsAnotherTurn(ratios(c), runs, spent < budgetMs),
    async (c) => {
      const order = c.times[0].length % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order) {
        const ms = await timeMs(c.works[i]!);
        c.times[i]!.push(ms);
        spent += ms;
      }
    },
  );
  return timing.map((c) => ({
    medians: [median(c.times[0]), median(c.times[1])],
    ratio: measuredRatio(ratios(c)),
  }));
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

/** Warms `work` up: one call, then as wantsAnotherTurn allows for one turn (up to 25 quick ones). */
export async function warmUp(work: Work): Promise<void> {
  await work();
  for (let turns = 0, measured = 0; wantsAnotherTurn(turns, measured, 1); turns++)
    measured += await timeMs(work);
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
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    // Both are read to their end: the log (a line per request) on stdout, failures on stderr. Once
    // the server is up they are drained, not kept: this process is also the bench's client, and
    // a log kept and searched at each chunk (as it was) grew to megabytes, copied at every line,
    // taking 40% of a core from the server measured (4 s of CPU in 10 s at 8 clients).
    let output = '';
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      if (!output.includes('datasets on http://')) return;
      for (const stream of [child.stdout!, child.stderr!]) stream.off('data', read).resume();
      resolve();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
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
