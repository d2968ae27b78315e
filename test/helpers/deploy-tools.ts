// The real components of a deployment, started by tests in a temporary folder on free loopback
// ports and stopped after: redis-server, HAProxy running deploy/haproxy.cfg, and nginx serving a
// folder (the bench's static file server to measure downloads against).
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

/** nginx serving a folder, with the config it was started with (the bench prints it). */
export interface Nginx extends Component {
  readonly base: string;
  readonly command: string;
  readonly config: string;
}

/**
 * Debian's nginx serving the files under `root` on a free loopback port, its config, pid, logs and
 * temp folders in `dir`: one worker (duckportal is one process), `sendfile` and `tcp_nopush` on
 * as Debian's own nginx.conf has them, no access log.
 */
export async function startNginx(dir: string, root: string): Promise<Nginx> {
  const port = await freePort();
  const temp = (name: string): string => `  ${name}_temp_path ${path.join(dir, name)};`;
  const config = [
    'daemon off;',
    'worker_processes 1;',
    `pid ${path.join(dir, 'nginx.pid')};`,
    `error_log ${path.join(dir, 'error.log')};`,
    'events { worker_connections 256; }',
    'http {',
    '  sendfile on;',
    '  tcp_nopush on;',
    '  access_log off;',
    '  default_type application/octet-stream;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp),
    `  server { listen 127.0.0.1:${port}; root ${root}; }`,
    '}',
    '',
  ].join('\n');
  const file = path.join(dir, 'nginx.conf');
  await writeFile(file, config);
  const args = ['-p', dir, '-c', file, '-e', path.join(dir, 'error.log')];
  const nginx = await startChild('nginx', args, () => true);
  for (;;) {
    if (nginx.child.exitCode !== null) throw new Error(`nginx exited: ${nginx.output()}`);
    if (await accepts(port)) break;
    await sleep(20);
  }
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    command: `nginx ${args.join(' ')}`,
    config,
    stop: nginx.stop,
  };
}

/** Whether a loopback port accepts a connection. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
