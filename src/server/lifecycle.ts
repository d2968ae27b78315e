// What `serve` does on signals. SIGHUP reloads the portal (a dataset that fails to load keeps its
// previous version: src/server/dataset-views.ts). SIGTERM and SIGINT drain: /readyz answers 503 at once,
// the listeners stop accepting, requests in flight (exports too) may finish for up to the drain
// timeout, then the connections left are cut, the statements they ran are stopped on every engine
// (DuckDB's and each ClickHouse server's), and the process exits 0. A second SIGTERM or SIGINT
// during the drain ends the process at once (Node's default).
import type http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Engine } from '../engine/engine.js';
import type { Portal } from '../catalog/portal.js';
import type { Logger } from '../log.js';

/** How often a draining server closes the connections that went idle (keep-alive between requests). */
const IDLE_SWEEP_MS = 100;

/** How long the statements cut by the drain timeout may take to stop before the process exits anyway. */
const STATEMENTS_STOP_MS = 5000;

/** What the signals act on: the running server (src/server.ts's PortalServer). */
export interface Drainable {
  /** Every engine the server holds now. */
  engines(): readonly Engine[];
  drain(): void;
  /** Writes what the server keeps in memory for its files (the API calls kept). */
  flush?(): Promise<void>;
  reload(): Promise<readonly Portal[]>;
  close(): void;
}

export interface SignalOptions {
  readonly portal: Drainable;
  /** The API's listener: drained. */
  readonly server: http.Server;
  /** The listener of /livez, /readyz and /metrics when separate: open while draining, so that /readyz says 503. */
  readonly operations: http.Server | null;
  readonly drainTimeoutSeconds: number;
  readonly log: Logger;
}

/** Reloads on SIGHUP, drains and exits on SIGTERM and SIGINT. */
export function handleSignals(options: SignalOptions): void {
  const { portal, log } = options;
  const reload = (): void => {
    log.info('SIGHUP: reloading the portals');
    const started = performance.now();
    // How long the event loop was kept from other work (requests) during the reload, at worst.
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const measured = (): string => {
      delay.disable();
      return `in ${Math.round(performance.now() - started)} ms, the event loop delayed ${Math.round(delay.max / 1e6)} ms at most`;
    };
    portal.reload().then(
      (loaded) => {
        const reread = loaded.reduce((n, p) => n + (p.load?.reread.length ?? 0), 0);
        const datasets = loaded.reduce((n, p) => n + p.datasets.size, 0);
        log.info(`reloaded: ${datasets} datasets, ${reread} folders read ${measured()}`);
      },
      (error: unknown) =>
        log.error({ err: error }, `reload failed ${measured()}: the portal loaded before is still served`),
    );
  };
  process.on('SIGHUP', reload);
  const stop = (signal: NodeJS.Signals): void => {
    process.off('SIGHUP', reload);
    void drain(options, signal).then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** Stops accepting, waits for the requests in flight up to the timeout, cuts the rest, closes the portal. */
async function drain(
  { portal, server, operations, drainTimeoutSeconds, log }: SignalOptions,
  signal: string,
): Promise<void> {
  log.info(`${signal}: draining (requests in flight have ${drainTimeoutSeconds} s to finish)`);
  portal.drain();
  // An answer to a request that comes on a kept-alive connection closes that connection.
  server.on('request', (_request: http.IncomingMessage, response: http.ServerResponse) => {
    response.setHeader('Connection', 'close');
  });
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  const cut = setTimeout(() => {
    log.warn(`drain timeout: cutting the requests still in flight after ${drainTimeoutSeconds} s`);
    server.closeAllConnections();
  }, drainTimeoutSeconds * 1000);
  await closed;
  clearInterval(sweep);
  clearTimeout(cut);
  operations?.closeAllConnections();
  await portal.flush?.();
  log.info('drained: exiting');
  // The statements of the requests cut are stopped first: closing DuckDB under a running one
  // blocks, and a ClickHouse query runs on unless its KILL QUERY reached the server.
  const idle = (): boolean => portal.engines().every((engine) => engine.queriesInFlight === 0);
  if (await settled(idle, STATEMENTS_STOP_MS)) portal.close();
}

/** Whether `condition` holds within `ms` (checked every 20 ms). */
async function settled(condition: () => boolean, ms: number): Promise<boolean> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > ms) return false;
    await sleep(20);
  }
  return true;
}
