// `duckportal serve`: opens the server (src/server.ts) with the flags, listens until SIGTERM/SIGINT,
// reloads the portals on SIGHUP.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { QuotaStore } from '../auth/quota-store.js';
import { handleSignals } from '../server/lifecycle.js';
import { createLogger } from '../log.js';
import { createHttpServer, openServer } from '../server.js';
import { servedPortals, type ServeFlags } from './serve.js';

/** The `serve` command: listens until SIGTERM/SIGINT, reloads the portals on SIGHUP. */
export async function main(flags: ServeFlags): Promise<void> {
  const log = createLogger(flags.logLevel, flags.logFormat);
  const separateOperations = flags.metricsPort !== undefined;
  const quotaStore = flags.quotaStore && (await QuotaStore.connect(flags.quotaStore, log));
  const server = await openServer({
    ...(quotaStore ? { quotaStore } : {}),
    portalDirs: servedPortals(flags),
    separateOperations,
    trustProxy: flags.trustProxy,
    log,
    ...(flags.threads ? { threads: flags.threads } : {}),
    memoryLimit: flags.memoryLimit,
    maxAge: flags.maxAge,
    cacheBytes: flags.cacheSize,
    ...(flags.hotMemory !== undefined ? { hotBytes: flags.hotMemory } : {}),
    targetWaitMs: flags.queueWait,
    monitoringDays: flags.monitoringDays,
    maxOpenDatasets: flags.maxOpenDatasets,
    sharedExports: flags.sharedExports,
    maxUploadBytes: flags.maxUploadSize,
    allowPrivateUrls: flags.allowPrivateUrls,
  });
  const httpServer = createHttpServer(server);
  const operationsServer = separateOperations ? http.createServer(server.operations) : null;
  const operationsHost = flags.metricsHost ?? flags.host;
  try {
    await listen(httpServer, flags.port, flags.host);
    if (operationsServer) await listen(operationsServer, flags.metricsPort!, operationsHost);
  } catch (error) {
    httpServer.close();
    server.close();
    throw error;
  }
  // Before the start-up line: a signal sent on reading it must find its handler (else it kills).
  handleSignals({
    portal: server,
    server: httpServer,
    operations: operationsServer,
    drainTimeoutSeconds: flags.drainTimeout,
    log,
  });
  const count = server.portals.reduce((sum, portal) => sum + portal.portal().datasets.size, 0);
  const { port } = httpServer.address() as AddressInfo;
  const [first, ...others] = server.portals.map((portal) => portal.portal());
  log.info(
    { portal_dir: first!.dir },
    `${count} datasets on http://${flags.host}:${port}/api/explore/v2.1/catalog/datasets`,
  );
  if (others.length > 0) {
    for (const { dir, settings, datasets } of [first!, ...others]) {
      const hosts = [settings.domain, ...settings.aliases].join(', ');
      log.info({ portal_dir: dir }, `${datasets.size} datasets for ${hosts}`);
    }
  }
  if (operationsServer) {
    const { port: operationsPort } = operationsServer.address() as AddressInfo;
    log.info(`/livez, /readyz and /metrics on http://${operationsHost}:${operationsPort}`);
  }
}

/** Listens on `host:port`; a port in use (or any other refusal) is one clear Error. */
function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException): void =>
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `port ${port} is in use on ${host}`
            : `cannot listen on ${host}:${port}: ${error.message}`,
        ),
      );
    server.once('error', refused);
    server.listen(port, host, () => {
      server.off('error', refused);
      resolve();
    });
  });
}
