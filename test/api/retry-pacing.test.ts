// Clients that ignore Retry-After (src/http/retry-pacing.ts): a request that comes back on the
// same connection before the 503's or 429's Retry-After is held until then; other connections,
// and connections told nothing, are served at once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { paceEarlyRetries } from '../../src/http/retry-pacing.js';

interface Seen {
  readonly path: string;
  readonly at: number;
}

/** A server answering `/busy` 503, `/quota` 429 (each with `retryAfter`), anything else 200. */
async function pacedServer(retryAfter: string, maxHoldMs?: number) {
  const seen: Seen[] = [];
  const server = http.createServer(
    paceEarlyRetries((request, response) => {
      const path = request.url ?? '';
      seen.push({ path, at: Date.now() });
      const status = path === '/busy' ? 503 : path === '/quota' ? 429 : 200;
      // Set as Koa sets it: the wrapper reads the headers of the answer once it is sent.
      if (status !== 200) response.setHeader('Retry-After', retryAfter);
      response.statusCode = status;
      response.end(path);
    }, maxHoldMs),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    /** Asks `path` over `agent`'s connection; resolves with the status and when it was answered. */
    get: (agent: http.Agent, path: string) =>
      new Promise<{ status: number; at: number }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path, agent }, (response) => {
            response.resume();
            response.on('end', () => resolve({ status: response.statusCode!, at: Date.now() }));
          })
          .on('error', reject);
      }),
  };
}

/** One kept-alive connection: each request of this agent goes over the same socket. */
const oneConnection = () => new http.Agent({ keepAlive: true, maxSockets: 1 });

describe('clients that ignore Retry-After', () => {
  it('holds a request that comes back on the same connection until the 503 said it may', async () => {
    const server = await pacedServer('1');
    const agent = oneConnection();
    try {
      const refused = await server.get(agent, '/busy');
      expect(refused.status).to.equal(503);
      const again = await server.get(agent, '/page');
      expect(again.status).to.equal(200);
      const [busy, page] = server.seen;
      // Held for the second Retry-After said; Date.now() (whole ms, wall clock) beside the timer's
      // monotonic clock read 999 once in a clean clone's run, so a few ms of rounding are allowed.
      expect(page!.at - busy!.at, 'ms between the 503 and the retry reaching the app').to.be.at.least(990);
    } finally {
      agent.destroy();
      await server.close();
    }
  });

  it('serves other connections at once meanwhile, and a connection that was not refused', async () => {
    const server = await pacedServer('1');
    const paced = oneConnection();
    const other = oneConnection();
    try {
      await server.get(other, '/first');
      await server.get(paced, '/busy');
      const held = server.get(paced, '/held');
      await server.get(other, '/second');
      await held;
      expect(server.seen.map((s) => s.path)).to.deep.equal(['/first', '/busy', '/second', '/held']);
    } finally {
      paced.destroy();
      other.destroy();
      await server.close();
    }
  });

  it('holds after a 429 too, never longer than its bound, and forgets once an answer is not a refusal', async () => {
    // A quota's Retry-After may be an hour away: the hold stops at the bound (here 1.5 s).
    const server = await pacedServer('3600', 1500);
    const agent = oneConnection();
    try {
      expect((await server.get(agent, '/quota')).status).to.equal(429);
      expect((await server.get(agent, '/page')).status).to.equal(200);
      expect((await server.get(agent, '/next')).status).to.equal(200);
      const [quota, page, next] = server.seen;
      // The same rounding as above: Date.now() beside the timer's monotonic clock (1499 seen once).
      expect(page!.at - quota!.at).to.be.at.least(1490);
      // The 200 cleared the connection: /next followed /page without another hold of 1.5 s.
      expect(next!.at - page!.at).to.be.below(1500);
    } finally {
      agent.destroy();
      await server.close();
    }
  });

  it('drops a held request whose connection closes: the app never sees it', async () => {
    const server = await pacedServer('1');
    const agent = oneConnection();
    try {
      await server.get(agent, '/busy');
      const held = server.get(agent, '/held').catch(() => 'cut');
      setTimeout(() => agent.destroy(), 50);
      expect(await held).to.equal('cut');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(server.seen.map((s) => s.path)).to.deep.equal(['/busy']);
    } finally {
      await server.close();
    }
  });
});
