// Starts a portal on an ephemeral loopback port for a test suite, and fetches from it.
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer, openServer, type PortalServer, type ServerOptions } from '../../src/server.js';
import { createLogger } from '../../src/log.js';

export interface TestServer {
  readonly base: string;
  readonly portal: PortalServer;
  /** The listening server (to count its open connections). */
  readonly http: http.Server;
  /** The messages of the log, access log lines left out. */
  readonly logs: string[];
  /** Every record of the log, access log lines included. */
  readonly records: Record<string, unknown>[];
  get(path: string, init?: RequestInit): Promise<Response>;
  json(path: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * Serves `portalDir` (or several portal folders, by Host) on 127.0.0.1 with a random port (HTTP
 * caching and proxy settings as given, else the defaults).
 */
export async function startTestServer(
  portalDir: string | readonly string[],
  options: Pick<
    ServerOptions,
    | 'maxAge'
    | 'cacheBytes'
    | 'trustProxy'
    | 'targetWaitMs'
    | 'quotaStore'
    | 'monitoringDays'
    | 'monitoringBatch'
    | 'maxOpenDatasets'
    | 'sharedExports'
    | 'hotBytes'
    | 'maxUploadBytes'
    | 'allowPrivateUrls'
  > = {},
): Promise<TestServer> {
  const logs: string[] = [];
  const records: Record<string, unknown>[] = [];
  const log = createLogger('info', 'json', {
    write(line: string) {
      const record = JSON.parse(line) as Record<string, unknown>;
      records.push(record);
      if (record.msg !== 'request') logs.push(String(record.msg));
    },
  });
  const portalDirs = typeof portalDir === 'string' ? [portalDir] : portalDir;
  // The API calls are kept only where a test asks (the sample portal is shared by every suite).
  const portal = await openServer({ monitoringDays: 0, ...options, portalDirs, threads: 2, log });
  const server = createHttpServer(portal);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = (path: string, init?: RequestInit): Promise<Response> => fetch(base + path, init);
  return {
    base,
    portal,
    http: server,
    logs,
    records,
    get,
    async json(path) {
      const response = await get(path);
      return { status: response.status, body: await response.json() };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      portal.close();
    },
  };
}
