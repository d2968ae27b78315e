// The real `duckportal` command in a child process, for the CLI tests.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

export const CLI = path.resolve('bin/duckportal.cjs');

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** How to run it: variables added to this process's environment, a folder to run in, its input. */
export interface RunOptions {
  readonly env?: Record<string, string>;
  readonly cwd?: string;
  readonly input?: string;
  /** Kill it (SIGTERM) after this many ms: for a command that should end but may not. */
  readonly timeoutMs?: number;
}

/** Runs `duckportal ...args` to its end. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<Ran> {
  return runFile(CLI, args, options);
}

/** Runs `node ...args` (another entry point of the checkout, such as the bench) to its end. */
export function runNode(args: readonly string[], options: RunOptions = {}): Promise<Ran> {
  return runFile(process.execPath, args, options);
}

function runFile(file: string, args: readonly string[], options: RunOptions): Promise<Ran> {
  return new Promise((resolve) => {
    const how = {
      env: { ...process.env, ...options.env },
      ...(options.cwd ? { cwd: options.cwd } : {}),
      ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
    };
    const child = execFile(file, args, how, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
    child.stdin?.end(options.input ?? '');
  });
}

/** A `duckportal serve` child process once it listens: its base URL, its output so far, a stop. */
export interface Served {
  readonly base: string;
  readonly output: () => { stdout: string; stderr: string };
  readonly signal: (name: NodeJS.Signals) => void;
  /** SIGTERM, then its exit code. */
  readonly stop: () => Promise<number | null>;
}

/** Starts `duckportal serve ...args` and waits for its start-up line (which gives the port). */
export async function startServe(args: readonly string[], env: Record<string, string> = {}): Promise<Served> {
  const child: ChildProcess = spawn(CLI, ['serve', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const exited = once(child, 'exit');
  let listening: RegExpExecArray | null = null;
  while (!(listening = /datasets on (http:\/\/[^/]+)\//.exec(stdout)) && child.exitCode === null)
    await Promise.race([once(child.stdout!, 'data'), exited]);
  if (!listening) throw new Error(`serve exited with ${child.exitCode}: ${stderr}`);
  return {
    base: listening[1]!,
    output: () => ({ stdout, stderr }),
    signal: (name) => void child.kill(name),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      return child.exitCode;
    },
  };
}
