// Checks every request passes before any route reads it: a URL within the length limit, and no
// NUL character anywhere (no dataset, record id, query or option can hold one; DuckDB's SQL
// text cannot either).
import type { Duplex } from 'node:stream';
import type { Context, Next } from 'koa';
import { ApiError, invalidParameter } from '../http/errors.js';
import { hostConflict } from '../http/hosts.js';

/** Longest URL served: ODSQL queries are short, and a long URL only makes work for the parser. */
export const MAX_URL_LENGTH = 32 * 1024;

/** The JSON 414 of a URL over the limit (the HTTP server answers longer request lines itself: answerClientError). */
export function uriTooLong(length: number): ApiError {
  return new ApiError(
    414,
    'URITooLong',
    `The URL is ${length} characters long; at most ${MAX_URL_LENGTH} are accepted.`,
  );
}

const NUL = /%00/i;

/** Refuses a URL over MAX_URL_LENGTH (414), a NUL character in the path (404) or in a parameter (400). */
export function requestGuards() {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.url.length > MAX_URL_LENGTH) throw uriTooLong(ctx.url.length);
    if (NUL.test(ctx.path)) {
      // No dataset, record or attachment id holds one: nothing there exists.
      throw new ApiError(
        404,
        'NotFoundResource',
        'The requested path does not exist: it holds a NUL character (%00).',
      );
    }
    if (NUL.test(ctx.querystring)) {
      for (const [name, value] of new URLSearchParams(ctx.querystring)) {
        if (name.includes('\0') || value.includes('\0')) {
          throw invalidParameter(name.replaceAll('\0', '%00'), 'a NUL character (%00) is not accepted.');
        }
      }
    }
    await next();
  };
}

/**
 * Refuses (400) a request whose host is ambiguous (two Host headers, or a Host that is not the
 * absolute URI's): mounted first, so no page, form or API route answers it.
 */
export function hostGuard() {
  return async (ctx: Context, next: Next): Promise<void> => {
    const conflict = hostConflict(ctx.req);
    if (conflict) throw new ApiError(400, 'BadRequest', `The request's host is ambiguous: ${conflict}.`);
    await next();
  };
}

/** Node's limit on the request line and headers together, which the server sets. */
export const MAX_HEADER_BYTES = 64 * 1024;

/** A raw HTTP/1.1 answer, in the v2.1 error shape, for a request that never reached the app. */
function rawAnswer(status: number, reason: string, errorCode: string, message: string): string {
  const body = JSON.stringify({ error_code: errorCode, message });
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * The HTTP server's `clientError` listener: a request line and headers over MAX_HEADER_BYTES
 * (in practice a URL of 64 KiB or more; the app answers shorter ones past MAX_URL_LENGTH) get
 * the same JSON 414 as the app's, a request not complete in time a 408, other malformed requests
 * a JSON 400; the rest of what the client sends is read and dropped, so that it reads the answer
 * instead of a reset. A connection that timed out after it carried an answer (kept alive, idle)
 * is closed without one, as Node's own listener does: a browser reusing it would read that late
 * answer as the answer to its next request, where a closed connection makes it ask again.
 */
export function answerClientError(
  error: Error & { code?: string },
  socket: Duplex & { bytesWritten?: number },
): void {
  const idle = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && (socket.bytesWritten ?? 0) > 0;
  if (!socket.writable || error.code === 'ECONNRESET' || idle) {
    socket.destroy();
    return;
  }
  const answer =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? rawAnswer(
          414,
          'URI Too Long',
          'URITooLong',
          `The request line and headers are over ${MAX_HEADER_BYTES / 1024} KiB; URLs of at most ${MAX_URL_LENGTH} characters are accepted.`,
        )
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? rawAnswer(408, 'Request Timeout', 'RequestTimeout', 'The request did not arrive in time.')
        : rawAnswer(400, 'Bad Request', 'BadRequest', 'The request is not valid HTTP/1.1.');
  socket.resume();
  socket.end(answer);
}
