// Clients that ignore Retry-After. A 503 (server busy) or 429 (quota) says when to ask again; a
// client that asks again on the same connection before then has its request held until that
// time, then handled like any other. Well-behaved clients are refused at once as before; one
// that retries in a tight loop no longer takes the event loop from the requests being served
// (measured: docs/http-caching.md, Capacity and overload). Knows nothing of Koa: it wraps the
// server's request listener.
import type http from 'node:http';
import type { Socket } from 'node:net';

/** The longest a request is held, whatever the Retry-After (a quota's may be hours). */
export const MAX_HOLD_MS = 10_000;

/** The statuses whose Retry-After a client is held to. */
const PACED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * When the answer just sent tells its client to come back, in ms from now; null when it does not.
 * Reads the header as set by `setHeader` (Koa sets every header so).
 */
function retryAfterMs(response: http.ServerResponse, maxHoldMs: number): number | null {
  if (!PACED_STATUSES.has(response.statusCode)) return null;
  const seconds = Number(response.getHeader('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, maxHoldMs) : null;
}

/**
 * Wraps `listener`: a request on a connection told to retry later waits until that time (or the
 * connection closes) before `listener` sees it, at most `maxHoldMs`.
 */
export function paceEarlyRetries(
  listener: http.RequestListener,
  maxHoldMs = MAX_HOLD_MS,
): http.RequestListener {
  const notBefore = new WeakMap<Socket, number>();
  const handle = (request: http.IncomingMessage, response: http.ServerResponse): void => {
    const { socket } = request;
    response.once('finish', () => {
      const wait = retryAfterMs(response, maxHoldMs);
      if (wait === null) notBefore.delete(socket);
      else notBefore.set(socket, Date.now() + wait);
    });
    listener(request, response);
  };
  return (request, response) => {
    const wait = (notBefore.get(request.socket) ?? 0) - Date.now();
    if (wait <= 0) return handle(request, response);
    const timer = setTimeout(() => {
      request.socket.off('close', cancel);
      handle(request, response);
    }, wait);
    const cancel = (): void => clearTimeout(timer);
    request.socket.once('close', cancel);
  };
}
