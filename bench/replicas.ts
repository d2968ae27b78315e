// Two replicas behind HAProxy (deploy/haproxy.cfg) against one server: page throughput at 8 and 32
// clients. On one machine the two replicas share its cores: this measures what the proxy costs
// and what a second process gains on the same cores, not what a second machine would add.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startHaProxy } from '../test/helpers/deploy-tools.js';
import { markdownTable, servePortal, warmUp, type ServedPortal } from './harness.js';
import { closedLoop, LOAD_REQUESTS } from './load.js';

export const REPLICA_CLIENTS = [8, 32] as const;

export interface ReplicaResult {
  readonly setup: string;
  readonly clients: number;
  readonly okPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly statuses: Record<string, number>;
}

/** Pages from one server on `port`, then from two replicas on `port` and `port + 1` behind HAProxy. */
export async function benchReplicas(
  portal: string,
  port: number,
  threads: number,
  seconds: number,
  serveArgs: readonly string[],
): Promise<ReplicaResult[]> {
  const one = await servePortal(portal, port, threads, serveArgs);
  const results: ReplicaResult[] = [];
  try {
    results.push(...(await pages('one server', one.base, seconds)));
  } finally {
    await one.stop();
  }
  const work = await mkdtemp(path.join(os.tmpdir(), 'duckportal-bench-replicas-'));
  const replicas: ServedPortal[] = [];
  try {
    for (const replicaPort of [port, port + 1])
      replicas.push(await servePortal(portal, replicaPort, threads, [...serveArgs, '--trust-proxy']));
    const proxy = await startHaProxy(work, [port, port + 1]);
    try {
      await proxy.waitFor('UP');
      results.push(...(await pages('two replicas behind HAProxy', proxy.base, seconds)));
    } finally {
      await proxy.stop();
    }
  } finally {
    for (const replica of replicas) await replica.stop();
    await rm(work, { recursive: true, force: true });
  }
  return results;
}

async function pages(setup: string, base: string, seconds: number): Promise<ReplicaResult[]> {
  await warmUp(() => fetch(base + LOAD_REQUESTS['10-row page']).then((r) => r.text()));
  const results: ReplicaResult[] = [];
  for (const clients of REPLICA_CLIENTS) {
    const { okPerSecond, p50, p99, statuses } = await closedLoop(base, '10-row page', clients, seconds);
    results.push({ setup, clients, okPerSecond, p50, p99, statuses });
  }
  return results;
}

/** The report's table: each setup at each client count, and the replicas' rate over one server's. */
export function replicasTable(results: readonly ReplicaResult[]): string {
  const single = (clients: number): number =>
    results.find((r) => r.setup === 'one server' && r.clients === clients)?.okPerSecond ?? NaN;
  return markdownTable(
    ['setup', 'clients', 'pages/s (200)', 'p50 (ms)', 'p99 (ms)', 'vs one server'],
    results.map((r) => [
      r.setup,
      String(r.clients),
      Math.round(r.okPerSecond).toLocaleString('en-US'),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      `${(r.okPerSecond / single(r.clients)).toFixed(2)}x`,
    ]),
  );
}
