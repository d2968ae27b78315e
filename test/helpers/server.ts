// Starts a portal on an ephemeral loopback port for a test suite, and fetches from it.
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer, openPortal, type PortalServer, type ServerOptions } from '../../src/server.js';

export interface TestServer {
  readonly base: string;
  readonly portal: PortalServer;
  /** The listening server (to count its open connections). */
  readonly http: http.Server;
  readonly logs: string[];
  get(path: string, init?: RequestInit): Promise<Response>;
  json(path: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** Serves `portalDir` on 127.0.0.1 with a random port (HTTP caching settings as given, else the defaults). */
export async function startTestServer(
  portalDir: string,
  options: Pick<ServerOptions, 'maxAge' | 'cacheBytes'> = {},
): Promise<TestServer> {
  const logs: string[] = [];
  const portal = await openPortal({ portalDir, threads: 2, log: (line) => logs.push(line), ...options });
  const server = createHttpServer(portal);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = (path: string, init?: RequestInit): Promise<Response> => fetch(base + path, init);
  return {
    base,
    portal,
    http: server,
    logs,
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
