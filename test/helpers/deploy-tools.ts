// The real components of a deployment, started by tests in a temporary folder on free loopback
// ports and stopped after: redis-server, and HAProxy running deploy/haproxy.cfg.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './ports.js';

export interface Component {
  readonly port: number;
  readonly stop: () => Promise<void>;
}

/** Starts `command` and waits for `ready` in its output; kept output, drained. */
async function startChild(
  command: string,
  args: readonly string[],
  ready: (output: string) => boolean,
): Promise<{
  child: ChildProcessByStdio<null, Readable, Readable>;
  output: () => string;
  stop: () => Promise<void>;
}> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const exited = once(child, 'exit');
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  while (!ready(output)) {
    if (child.exitCode !== null) throw new Error(`${command} exited: ${output}`);
    await Promise.race([once(child.stdout, 'data'), once(child.stderr, 'data'), exited]);
  }
  return { child, output: () => output, stop };
}

/** A redis-server on a free port that keeps nothing on disk. */
export async function startRedis(dir: string): Promise<Component & { readonly url: string }> {
  const port = await freePort();
  const redis = await startChild(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    (output) => output.includes('Ready to accept connections'),
  );
  return { port, url: `redis://127.0.0.1:${port}`, stop: redis.stop };
}

export interface HaProxy extends Component {
  readonly base: string;
  /** The status HAProxy gives each server of the backend (UP, DOWN, ...), from its stats socket. */
  servers(): Promise<Map<string, string>>;
  /** Resolves once every server has `status`. */
  waitFor(status: string, names?: readonly string[]): Promise<void>;
}

/**
 * HAProxy running deploy/haproxy.cfg, with its frontend, server addresses and stats socket
 * moved to `replicaPorts` and `dir`, and checks every 100 ms instead of 2 s (the caller waits for
 * its servers to be UP, with the proxy in hand to stop).
 */
export async function startHaProxy(dir: string, replicaPorts: readonly number[]): Promise<HaProxy> {
  const port = await freePort();
  const socket = path.join(dir, 'haproxy.sock');
  const shipped = await readFile(path.resolve('deploy/haproxy.cfg'), 'utf8');
  const servers = replicaPorts.map((p, i) => `    server replica${i + 1} 127.0.0.1:${p}`).join('\n');
  const config = shipped
    .replace(/^( +)stats socket \S+/m, `$1stats socket ${socket}`)
    .replace(/^( +)bind \S+/m, `$1bind 127.0.0.1:${port}`)
    .replace(/^( +default-server .*) inter \S+/m, '$1 inter 100ms')
    .replace(/(?:^ +server .*\n?)+/m, `${servers}\n`);
  const file = path.join(dir, 'haproxy.cfg');
  await writeFile(file, config);
  const haproxy = await startChild('haproxy', ['-db', '-f', file], () => true);
  const stats = async (): Promise<Map<string, string>> => {
    const lines = (await ask(socket, 'show stat\n')).split('\n');
    const columns = (lines[0] ?? '').replace(/^# /, '').split(',');
    const [name, status] = [columns.indexOf('svname'), columns.indexOf('status')];
    const rows = lines.slice(1).map((line) => line.split(','));
    return new Map(
      rows.filter((row) => row[name]?.startsWith('replica')).map((row) => [row[name]!, row[status]!]),
    );
  };
  const proxy: HaProxy = {
    port,
    base: `http://127.0.0.1:${port}`,
    servers: stats,
    async waitFor(status, names = replicaPorts.map((_, i) => `replica${i + 1}`)) {
      for (;;) {
        if (haproxy.child.exitCode !== null) throw new Error(`haproxy exited: ${haproxy.output()}`);
        const now = await stats().catch(() => new Map<string, string>());
        if (names.every((n) => now.get(n)?.startsWith(status))) return;
        await sleep(50);
      }
    },
    stop: haproxy.stop,
  };
  return proxy;
}

/** Writes `command` to a UNIX socket and reads the answer to its end. */
async function ask(socketPath: string, command: string): Promise<string> {
  const connection = net.connect(socketPath);
  connection.end(command);
  let answer = '';
  for await (const chunk of connection) answer += String(chunk);
  return answer;
}
