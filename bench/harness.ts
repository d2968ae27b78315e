// What every bench shares: timing with warm-up and median, a served portal in a child process
// (so the client's work is not charged to the server), a plain DuckDB over the same files, and
// the machine's description.
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/**
 * Median wall time in milliseconds after one warm-up call: at least `runs` calls, and more for
 * quick work (up to 25 calls or 1.5 s of measuring), whose medians are the noisiest.
 */
export async function medianMs(work: () => Promise<unknown>, runs = 5): Promise<number> {
  await work();
  const times: number[] = [];
  let measured = 0;
  while (times.length < runs || (times.length < MAX_RUNS && measured < MIN_MEASURING_MS)) {
    const start = process.hrtime.bigint();
    await work();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    times.push(ms);
    measured += ms;
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/**
 * Medians of two pieces of work timed in turns (a, b, a, b, ...) after one warm-up each, with the
 * stopping rule of `medianMs` applied to both: a busy moment of the machine weighs on both sides
 * of a ratio alike instead of on whichever was measured then.
 */
export async function medianPairMs(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  runs = 5,
): Promise<[number, number]> {
  await a();
  await b();
  const times: [number[], number[]] = [[], []];
  let measured = 0;
  const timed = async (work: () => Promise<unknown>, into: number[]): Promise<void> => {
    const start = process.hrtime.bigint();
    await work();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    into.push(ms);
    measured += ms;
  };
  while (times[0].length < runs || (times[0].length < MAX_RUNS && measured < 2 * MIN_MEASURING_MS)) {
    await timed(a, times[0]);
    await timed(b, times[1]);
  }
  const median = (values: number[]): number => values.sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
  return [median(times[0]), median(times[1])];
}

const MAX_RUNS = 25;
const MIN_MEASURING_MS = 1500;

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
  const child: ChildProcess = spawn(
    process.execPath,
    [
      'bin/duckportal.cjs',
      'serve',
      '--portal',
      portal,
      '--port',
      String(port),
      '--threads',
      String(threads),
      ...extraArgs,
    ],
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
