// Loopback ports for servers that tests start in child processes. A port is probed free, then
// handed to a child that binds it a moment later; in between, any outgoing connection of the
// machine may take it if it lies in the kernel's ephemeral range (it did: a ClickHouse shard
// failed with "Address already in use" under CI). So ports are drawn below that range, never the
// same one twice in a run.
import { readFileSync } from 'node:fs';
import net from 'node:net';

/** The first port of the kernel's ephemeral range (Linux's default when unreadable). */
function ephemeralStart(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0]);
    return Number.isInteger(low) && low > 2048 ? low : 32768;
  } catch {
    return 32768;
  }
}

const LOWEST = 20000;
const handedOut = new Set<number>();

function listens(port: number): Promise<boolean> {
  const probe = net.createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A loopback port free at the time of asking, outside the ephemeral range, new in this run. */
export async function freePort(): Promise<number> {
  const end = ephemeralStart();
  const span = Math.max(end - LOWEST, 1000);
  for (let tries = 0; tries < 200; tries++) {
    const port = LOWEST + Math.floor(Math.random() * span);
    if (handedOut.has(port) || !(await listens(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free loopback port between ${LOWEST} and ${LOWEST + span}`);
}
