// Every error a client can see, and the one middleware that turns them into the spec's error object.
import type { Context, Next } from 'koa';
import { QueryLangError } from '../odsql/errors.js';
import {
  DataFileMissing,
  DiskFull,
  EngineSaturated,
  QueryDeadlineExceeded,
  QueryInterrupted,
  QueryOutOfMemory,
} from '../engine/engine.js';
import type { Logger } from '../log.js';

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

/** 400 for a REST parameter outside its domain, in the public service's wording. */
export function invalidParameter(name: string, detail: string): ApiError {
  return new ApiError(400, 'InvalidRESTParameterError', `Invalid value for ${name} API parameter: ${detail}`);
}

/** The error body for one thrown value; anything unexpected is a 500 whose text never leaves the server. */
export function toErrorBody(error: unknown): {
  status: number;
  body: { error_code: string; message: string };
  /** Headers the answer carries (Retry-After, Allow), in the v2.1 and the v1 form alike. */
  headers?: Record<string, string>;
} {
  if (error instanceof ApiError) {
    return {
      status: error.status,
      body: { error_code: error.errorCode, message: error.message },
      headers: error.headers,
    };
  }
  if (error instanceof QueryLangError)
    return { status: 400, body: { error_code: 'QueryLangError', message: error.message } };
  if (error instanceof QueryDeadlineExceeded) {
    const seconds = error.deadlineMs / 1000;
    return {
      status: 400,
      body: {
        error_code: 'QueryTimeout',
        message: `The query was stopped after ${seconds} s: narrow it with where, or use an export for large results.`,
      },
    };
  }
  if (error instanceof EngineSaturated) {
    return {
      status: 503,
      body: { error_code: 'ServerBusy', message: 'The server is busy: retry in a moment.' },
      headers: { 'Retry-After': String(error.retryAfterSeconds) },
    };
  }
  if (error instanceof QueryOutOfMemory) {
    return {
      status: 503,
      body: {
        error_code: 'QueryOutOfMemory',
        message:
          'The query needed more memory than the server may use now (other queries hold some): retry in a moment, or narrow it with where.',
      },
      headers: { 'Retry-After': '5' },
    };
  }
  if (error instanceof QueryInterrupted) {
    return {
      status: 503,
      body: { error_code: 'QueryInterrupted', message: 'The query was stopped before it finished.' },
    };
  }
  if (error instanceof DataFileMissing) {
    return {
      status: 404,
      body: {
        error_code: 'NotFoundResource',
        message: "The requested dataset's data is no longer on this server (it was removed).",
      },
    };
  }
  if (error instanceof DiskFull || (error as { code?: unknown } | null)?.code === 'ENOSPC') {
    return {
      status: 503,
      body: {
        error_code: 'DiskFull',
        message: 'The server has no disk space left for this answer now: retry later.',
      },
      headers: { 'Retry-After': '60' },
    };
  }
  return {
    status: 500,
    body: { error_code: 'InternalError', message: 'An internal error occurred; it has been logged.' },
  };
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
  if (status === 500) {
    return `${ctx.method} ${ctx.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  }
  return `${ctx.method} ${ctx.path}: ${status} ${body.error_code}: ${body.message.slice(0, 200)}`;
}

/** Where `observeRequests` (operations.ts) keeps the id of the request, which its log lines carry. */
export const REQUEST_ID = 'requestId';

function requestIdOf(ctx: Context): string | undefined {
  return (ctx.state as Partial<Record<typeof REQUEST_ID, string>>)[REQUEST_ID];
}

/** v1 paths (supplement 6), whose errors are `{errorcode, error}` with the HTTP status as the code. */
const V1_PATH = /^\/api\/(?:records|datasets)\/1\.0(?:\/|$)/;

/**
 * The top middleware: one place produces every error body (STYLE.md, example 7), in the form of
 * the API generation the path belongs to (v1, or v2.x).
 */
export function errorMiddleware(log: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const v1 = V1_PATH.test(ctx.path);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new ApiError(404, 'NotFoundResource', `Unknown path: ${ctx.path}`);
      }
    } catch (error) {
      // Once an export has started streaming, the only honest signal left is a broken connection.
      if (ctx.headerSent) throw error;
      const { status, body, headers } = toErrorBody(error);
      const line = errorLogLine(ctx, status, body, error);
      const fields = { req_id: requestIdOf(ctx), status };
      if (status === 500) log.error(fields, line);
      else log.warn(fields, line);
      if (headers) ctx.set(headers);
      ctx.status = status;
      ctx.body = v1 ? { errorcode: status, error: body.message } : body;
    }
  };
}
