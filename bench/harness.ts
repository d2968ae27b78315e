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
 * Median wall times in milliseconds of pieces of work timed in turns (a, b, a, b, ...) after one
 * warm-up each: at least `runs` turns, and more for quick work (up to MAX_RUNS turns or
 * MIN_MEASURING_MS of measuring per piece), whose medians are the noisiest. Timed in turns, a
 * busy moment of the machine weighs on both sides of a ratio alike.
 */
export async function medianTurnsMs<T extends readonly Work[]>(
  works: T,
  runs = 5,
): Promise<{ -readonly [K in keyof T]: number }> {
  for (const work of works) await work();
  const times: number[][] = works.map(() => []);
  let measured = 0;
  let turns = 0;
  while (wantsAnotherTurn(turns, measured, runs, works.length * MIN_MEASURING_MS)) {
    for (const [i, work] of works.entries()) {
      const ms = await timeMs(work);
      times[i]!.push(ms);
      measured += ms;
    }
    turns++;
  }
  return times.map(median) as { -readonly [K in keyof T]: number };
}

/** Median wall time in milliseconds of one piece of work (see medianTurnsMs). */
export async function medianMs(work: Work, runs = 5): Promise<number> {
  const [ms] = await medianTurnsMs([work] as const, runs);
  return ms;
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
