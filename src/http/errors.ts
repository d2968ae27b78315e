// Every error a client can see, and the one middleware that turns them into the spec's error object.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type Koa from 'koa';
import type { Context, Next } from 'koa';
import { QueryLangError } from '../odsql/errors.js';
import {
  CopyUnsupported,
  DataFileMissing,
  DiskFull,
  EngineSaturated,
  EngineUnavailable,
  QueryDeadlineExceeded,
  QueryInterrupted,
  QueryOutOfMemory,
  QueryStoppedByServer,
} from '../engine/engine.js';
import { ExportRefused } from '../exports/refusal.js';
import type { Logger } from '../log.js';
import { allowAnyOrigin } from './cors.js';

/** An error with an HTTP status and an Explore API error code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** 404 for a dataset, record or attachment that does not exist (or that the caller may not know of). */
export function notFound(what: string, id: string): ApiError {
  return new ApiError(404, 'NotFoundResource', `The requested ${what} ${id} does not exist.`);
}

/**
 * 404 for an attachment not in the list of a caller under a row filter or hidden fields: a file
 * holds every row and field, so such a caller is served only those marked for all audiences.
 */
export function attachmentNotServed(id: string): ApiError {
  return new ApiError(
    404,
    'NotFoundResource',
    `The requested attachment ${id} is not among those served to your audience: it reads this dataset under a row filter or hidden fields, and is served only the attachments marked for all audiences.`,
  );
}

/** 400 for a REST parameter outside its domain, in the public service's wording. */
export function invalidParameter(name: string, detail: string): ApiError {
  return new ApiError(400, 'InvalidRESTParameterError', `Invalid value for ${name} API parameter: ${detail}`);
}

/** What a client receives for an error: status, Explore API error code and text, and headers. */
export interface ErrorAnswer {
  status: number;
  body: { error_code: string; message: string };
  /** Headers the answer carries (Retry-After, Allow), in the v2.1 and the v1 form alike. */
  headers?: Record<string, string>;
}

const answer = (
  status: number,
  errorCode: string,
  message: string,
  headers?: Record<string, string>,
): ErrorAnswer => ({ status, body: { error_code: errorCode, message }, ...(headers && { headers }) });

/** One row of the error table: the answer to the errors of one class, null for the others. */
type ErrorRule = (error: unknown) => ErrorAnswer | null;

const rule =
  <E>(type: abstract new (...args: never[]) => E, answerOf: (error: E) => ErrorAnswer): ErrorRule =>
  (error) =>
    error instanceof type ? answerOf(error) : null;

/** A disk found full by the engine, or by a write of Node's (ENOSPC). */
const isDiskFull = (error: unknown): boolean =>
  error instanceof DiskFull || (error as { code?: unknown } | null)?.code === 'ENOSPC';

/** Every error a client may see, by class, first match wins; anything else is a 500. */
const ERROR_TABLE: readonly ErrorRule[] = [
  rule(ApiError, (e) => answer(e.status, e.errorCode, e.message, e.headers)),
  rule(QueryLangError, (e) => answer(400, 'QueryLangError', e.message)),
  rule(ExportRefused, (e) =>
    answer(
      400,
      'InvalidRESTParameterError',
      e.parameter === null ? e.detail : invalidParameter(e.parameter, e.detail).message,
    ),
  ),
  rule(QueryDeadlineExceeded, (e) =>
    answer(
      400,
      'QueryTimeout',
      `The query was stopped after ${e.deadlineMs / 1000} s: narrow it with where, or use an export for large results.`,
    ),
  ),
  rule(EngineSaturated, (e) =>
    answer(503, 'ServerBusy', 'The server is busy: retry in a moment.', {
      'Retry-After': String(e.retryAfterSeconds),
    }),
  ),
  rule(EngineUnavailable, (e) =>
    answer(
      503,
      'EngineUnavailable',
      e.part
        ? "A server of the cluster holding this dataset's records does not answer (a shard or its replicas down, unreachable or behind): retry later."
        : "The server holding this dataset's records does not answer: retry later.",
      { 'Retry-After': String(e.retryAfterSeconds) },
    ),
  ),
  rule(QueryStoppedByServer, (e) =>
    answer(
      503,
      'QueryStoppedByServer',
      e.reason === 'cancelled'
        ? "The server holding this dataset's records stopped the query (its operator cancelled it): retry later."
        : "The server holding this dataset's records stopped the query at one of its limits (time, rows or bytes read, or a quota): retry later, or narrow it with where.",
      { 'Retry-After': String(e.retryAfterSeconds) },
    ),
  ),
  rule(CopyUnsupported, (e) =>
    answer(400, 'InvalidRESTParameterError', `This dataset cannot be exported as ${e.format}.`),
  ),
  rule(QueryOutOfMemory, () =>
    answer(
      503,
      'QueryOutOfMemory',
      'The query needed more memory than the server may use now (other queries hold some): retry in a moment, or narrow it with where.',
      { 'Retry-After': '5' },
    ),
  ),
  rule(QueryInterrupted, () => answer(503, 'QueryInterrupted', 'The query was stopped before it finished.')),
  rule(DataFileMissing, () =>
    answer(
      404,
      'NotFoundResource',
      "The requested dataset's data is no longer on this server (it was removed).",
    ),
  ),
  (error) =>
    isDiskFull(error)
      ? answer(503, 'DiskFull', 'The server has no disk space left for this answer now: retry later.', {
          'Retry-After': '60',
        })
      : null,
];

/** The answer to one thrown value; anything unexpected is a 500 whose text never leaves the server. */
export function toErrorBody(error: unknown): ErrorAnswer {
  for (const answerTo of ERROR_TABLE) {
    const found = answerTo(error);
    if (found) return found;
  }
  return answer(500, 'InternalError', 'An internal error occurred; it has been logged.');
}

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
