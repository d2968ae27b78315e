// A ClickHouse cluster of Debian's clickhouse-server, started by tests in a temporary folder on
// free loopback ports and stopped after: one server per shard, each knowing the others as the
// cluster `portal` (a Distributed table over it reads every shard), a `default` user for the test's
// own DDL and inserts, and a `portal` user with a read-only profile, as an operator would give
// duckportal.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './ports.js';

const SERVER = '/usr/sbin/clickhouse-server';

/** The read-only user duckportal is given (its password: PORTAL_PASSWORD). */
export const PORTAL_USER = 'portal';
export const PORTAL_PASSWORD = 'read-only secret';

export interface ClickHouseShard {
  readonly httpPort: number;
  readonly tcpPort: number;
  readonly url: string;
}

export interface ClickHouseCluster {
  readonly shards: readonly ClickHouseShard[];
  /** Runs `sql` as the `default` user on every shard (DDL), or on the shard given (an insert). */
  admin(sql: string, shard?: number): Promise<string>;
  /** Stops every server (a server already stopped by the test is skipped). */
  stop(): Promise<void>;
  /** Stops one shard's server, for tests of a server that is down. */
  stopShard(shard: number): Promise<void>;
  /**
   * Gives the read-only user's profile `limits` (ClickHouse settings such as max_execution_time;
   * none: its own again) on every server, and waits until the servers have read them again.
   */
  setReaderLimits(limits: Readonly<Record<string, number>>): Promise<void>;
}

function config(dir: string, own: ClickHouseShard, all: readonly ClickHouseShard[]): string {
  const shards = all
    .map((s) => `<shard><replica><host>127.0.0.1</host><port>${s.tcpPort}</port></replica></shard>`)
    .join('');
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><console>1</console></logger>
  <http_port>${own.httpPort}</http_port>
  <tcp_port>${own.tcpPort}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <mark_cache_size>268435456</mark_cache_size>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mlock_executable>false</mlock_executable>
  <remote_servers><portal>${shards}</portal></remote_servers>
</yandex>
`;
}

/**
 * The users of every server, each query on `threads` threads at most, the reader's profile with
 * `limits` too.
 */
const users = (
  threads: number,
  limits: Readonly<Record<string, number>> = {},
): string => `<?xml version="1.0"?>
<yandex>
  <profiles>
    <default><max_threads>${threads}</max_threads></default>
    <reader><readonly>1</readonly><max_threads>${threads}</max_threads>${Object.entries(limits)
      .map(([name, value]) => `<${name}>${value}</${name}>`)
      .join('')}</reader>
  </profiles>
  <users>
    <default><password></password><networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile><quota>default</quota></default>
    <${PORTAL_USER}><password>${PORTAL_PASSWORD}</password><networks><ip>127.0.0.1</ip></networks>
      <profile>reader</profile><quota>default</quota></${PORTAL_USER}>
  </users>
  <quotas><default></default></quotas>
</yandex>
`;

/**
 * A new connection per request: a kept-alive socket that sat idle past the server's Keep-Alive
 * timeout (the bench compares 120 MB answers meanwhile) was reused after the server had closed it.
 */
const agent = new http.Agent({ keepAlive: false });

/**
 * POSTs `sql` to a server as `default` (with `body`, the statement goes in the URL and the body is
 * its data: an INSERT); rejects with ClickHouse's text on an error status.
 */
export function postClickHouse(url: string, sql: string, body?: NodeJS.ReadableStream): Promise<string> {
  const target = body ? `${url}/?query=${encodeURIComponent(sql)}` : `${url}/`;
  return new Promise((resolve, reject) => {
    const request = http.request(target, { method: 'POST', agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode === 200) resolve(text);
        else reject(new Error(`ClickHouse ${response.statusCode}: ${text.slice(0, 500)}`));
      });
    });
    request.on('error', reject);
    if (body) body.pipe(request);
    else request.end(sql);
  });
}

/**
 * Starts `shards` servers under `dir` (the caller's to remove), each query on `threads` threads at
 * most, and waits until each answers.
 */
export async function startClickHouseCluster(
  dir: string,
  shards = 2,
  threads = 2,
): Promise<ClickHouseCluster> {
  // A port probed free can still be taken by another process before the server binds it: such a
  // start is tried again on new ports, in a new folder.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(path.join(dir, `attempt${attempt}`), shards, threads);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('Address already in use')) throw error;
    }
  }
}

async function startOnce(dir: string, shards: number, threads: number): Promise<ClickHouseCluster> {
  const addresses: ClickHouseShard[] = [];
  for (let i = 0; i < shards; i++) {
    const [httpPort, tcpPort] = [await freePort(), await freePort()];
    addresses.push({ httpPort, tcpPort, url: `http://127.0.0.1:${httpPort}` });
  }
  const children: ChildProcess[] = [];
  const stopChild = async (child: ChildProcess): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  const stop = async (): Promise<void> => {
    await Promise.all(children.map(stopChild));
  };
  try {
    for (const [i, own] of addresses.entries()) {
      const home = path.join(dir, `shard${i + 1}`);
      for (const sub of ['data', 'tmp', 'user_files', 'format_schemas'])
        await mkdir(path.join(home, sub), { recursive: true });
      await writeFile(path.join(home, 'config.xml'), config(home, own, addresses));
      await writeFile(path.join(home, 'users.xml'), users(threads));
      const child = spawn(SERVER, [`--config-file=${path.join(home, 'config.xml')}`], {
        cwd: home,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let log = '';
      child.stderr.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-2000)));
      children.push(child);
      for (let tries = 0; ; tries++) {
        if (child.exitCode !== null || tries > 300)
          throw new Error(`clickhouse-server did not start: ${log}`);
        if (
          await postClickHouse(own.url, 'SELECT 1').then(
            () => true,
            () => false,
          )
        )
          break;
        await sleep(100);
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    shards: addresses,
    admin: async (sql, shard) => {
      if (shard !== undefined) return postClickHouse(addresses[shard]!.url, sql);
      const answers = await Promise.all(addresses.map((a) => postClickHouse(a.url, sql)));
      return answers[0]!;
    },
    stop,
    stopShard: (shard) => stopChild(children[shard]!),
    async setReaderLimits(limits) {
      for (const [i, own] of addresses.entries()) {
        await writeFile(path.join(dir, `shard${i + 1}`, 'users.xml'), users(threads, limits));
        // ClickHouse reads its users' file again when it changes, every 2 s or so.
        for (let tries = 0; !(await readerHas(own.url, limits)); tries++) {
          if (tries > 100) throw new Error('clickhouse-server did not read its users again');
          await sleep(100);
        }
      }
    },
  };
}

/** Whether the read-only user's queries on the server at `url` run under `limits` (others at 0). */
async function readerHas(url: string, limits: Readonly<Record<string, number>>): Promise<boolean> {
  const names = ['max_execution_time', ...Object.keys(limits)];
  const response = await fetch(`${url}/`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${PORTAL_USER}:${PORTAL_PASSWORD}`).toString('base64')}`,
    },
    body: `SELECT name, value FROM system.settings WHERE name IN (${names.map((n) => `'${n}'`).join(', ')}) FORMAT JSONEachRow`,
  });
  const rows = (await response.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { name: string; value: string });
  return rows.every(({ name, value }) => Number(value) === (limits[name] ?? 0));
}
