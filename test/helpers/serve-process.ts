// `duckportal serve` as a child process on a free loopback port: its output kept (and drained, so
// that it never blocks), its start awaited, its exit observed.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { freePort } from './ports.js';

const CLI = path.resolve('bin/duckportal.cjs');

export interface ServeProcess {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly port: number;
  readonly base: string;
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  /** The exit code (null when killed by a signal), once the process ended. */
  readonly exited: Promise<number | null>;
  /** Resolves once a line of stdout includes `text` (rejects if the process exits first). */
  waitFor(text: string, after?: number): Promise<void>;
  /** SIGKILL if still running, and wait for the end. */
  kill(): Promise<void>;
}

/** Starts `serve --portal portalDir --port <free>` with `args` and waits for it to listen (`command`: another duckportal). */
export async function startServeProcess(
  portalDir: string,
  args: readonly string[] = [],
  command = CLI,
): Promise<ServeProcess> {
  const port = await freePort();
  const child = spawn(command, ['serve', '--portal', portalDir, '--port', String(port), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const waitFor = async (text: string, after = 0): Promise<void> => {
    while (!stdout.includes(text, after)) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`serve exited before "${text}":\n${stdout}\n${stderr}`);
      await Promise.race([once(child.stdout, 'data'), exited]);
    }
  };
  const serve: ServeProcess = {
    child,
    port,
    base: `http://127.0.0.1:${port}`,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitFor,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  try {
    await waitFor('datasets on http://');
  } catch (error) {
    await serve.kill();
    throw error;
  }
  return serve;
}
