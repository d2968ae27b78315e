// The one middleware that turns every error a request throws (src/http/errors.ts's table) into the
// spec's error object of the request's API generation, and the answer to errors escaping it (a
// stream failing after its first bytes, a socket error).
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type Koa from 'koa';
import type { Context, Next } from 'koa';
import type { Logger } from '../log.js';
import { allowAnyOrigin } from './cors.js';
import { ApiError, toErrorBody } from './errors.js';

/**
 * One log line per error answer: the stack only for an unexpected error (a 500); a rejection
 * (4xx, 503) is an expected answer, and 5,000 busy answers must not write 4 MB of stacks.
 */
function errorLogLine(
  ctx: Context,
  status: number,
  body: { error_code: string; message: string },
  error: unknown,
): string {
  if (status === 500) return `${ctx.method} ${ctx.path}: ${stackOf(error)}`;
  return `${ctx.method} ${ctx.path}: ${status} ${body.error_code}: ${body.message.slice(0, 200)}`;
}

const stackOf = (error: unknown): string =>
  error instanceof Error ? (error.stack ?? error.message) : String(error);

/** Where `observeRequests` (src/api/operations.ts) keeps the id of the request, which its log lines carry. */
export const REQUEST_ID = 'requestId';

function requestIdOf(ctx: Context): string | undefined {
  return (ctx.state as Partial<Record<typeof REQUEST_ID, string>>)[REQUEST_ID];
}

/**
 * v1 paths (supplement 6), whose errors are `{errorcode, error}` with the HTTP status as the code,
 * and the pages' download links, which answer as the v1 download.
 */
const V1_PATH = /^\/api\/(?:records|datasets)\/1\.0(?:\/|$)|^\/explore\/dataset\/[^/]+\/download\/?$/;

/**
 * The answer to `error` for the request of `ctx`, logged in one line: status, headers, and the
 * body in the form of the API generation the path belongs to (v1, or v2.x).
 */
function answerError(
  ctx: Context,
  error: unknown,
  log: Logger,
): { status: number; body: object; headers?: Record<string, string> } {
  const { status, body, headers } = toErrorBody(error);
  const line = errorLogLine(ctx, status, body, error);
  const fields = { req_id: requestIdOf(ctx), status };
  if (status === 500) log.error(fields, line);
  else log.warn(fields, line);
  return {
    status,
    body: V1_PATH.test(ctx.path) ? { errorcode: status, error: body.message } : body,
    ...(headers && { headers }),
  };
}

/**
 * The top middleware: one place produces every error body (STYLE.md, example 7). A streamed
 * answer is held until its first bytes, so that a stream failing at once (an unreadable file)
 * is an error answer too, not a connection reset.
 */
export function errorMiddleware(log: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new ApiError(404, 'NotFoundResource', `Unknown path: ${ctx.path}`);
      }
      if (ctx.body instanceof Readable) await firstBytes(ctx.body);
    } catch (error) {
      // Once an export has started streaming, the only honest signal left is a broken connection.
      if (ctx.headerSent) throw error;
      const { status, body, headers } = answerError(ctx, error, log);
      dropHeadersOfFailedAnswer(ctx);
      if (headers) ctx.set(headers);
      ctx.status = status;
      ctx.body = body;
    }
  };
}

/** Resolves once `stream` has bytes to give, has ended or was closed; rejects with its error. */
function firstBytes(stream: Readable): Promise<void> {
  if (stream.readableLength > 0 || stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const settle = (error?: unknown): void => {
      stream.off('readable', settle).off('close', settle).off('error', settle);
      if (error instanceof Error) reject(error);
      else resolve();
    };
    stream.on('readable', settle).on('close', settle).on('error', settle);
  });
}

/** Errors that say the client went away: not the server's failure, nothing to log. */
const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

/** Headers that described the answer an error replaces (a file's name, its tag, its coding). */
const FAILED_ANSWER_HEADERS = [
  'content-disposition',
  'content-encoding',
  'content-length',
  'content-range',
  'etag',
  'last-modified',
];

function dropHeadersOfFailedAnswer(ctx: Context): void {
  for (const name of FAILED_ANSWER_HEADERS) ctx.res.removeHeader(name);
}

/**
 * Replaces Koa's own error handler (a text/plain 500 without our headers, logged nowhere in a
 * silent app) for what escapes `errorMiddleware`: an error of a middleware above it, or of a streamed
 * body. Before the headers are sent the answer is the same as errorMiddleware's (JSON body,
 * request id, CORS, no-store); after, the stack is logged and the connection cut.
 */
export function answerEscapedErrors(app: Koa, log: Logger): void {
  app.context.onerror = function (this: Context, error: unknown): void {
    if (error == null) return;
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && CLIENT_GONE.has(code)) return;
    if (this.headerSent || !this.writable) {
      if (toErrorBody(error).status === 500) {
        log.error(
          { req_id: requestIdOf(this) },
          `${this.method} ${this.path}: answer cut: ${stackOf(error)}`,
        );
      }
      this.res.destroy();
      return;
    }
    // An app without observeRequests (the operations endpoints) still gives its 5xx an id.
    const state = this.state as Partial<Record<typeof REQUEST_ID, string>>;
    state[REQUEST_ID] ??= randomUUID();
    const { status, body, headers } = answerError(this, error, log);
    dropHeadersOfFailedAnswer(this);
    allowAnyOrigin(this);
    this.set({ ...headers, 'X-Request-Id': state[REQUEST_ID], 'Cache-Control': 'no-store' });
    const text = JSON.stringify(body);
    this.status = status;
    this.type = 'application/json; charset=utf-8';
    this.length = Buffer.byteLength(text);
    this.res.end(text);
  };
}
