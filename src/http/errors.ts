// Every error a client can see and the one table of the answers they get (src/http/error-middleware.ts
// turns them into the spec's error object).
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

/** An error with an HTTP status and an Explore API error code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    // A client's error is answered, and logged without its stack (error-middleware.ts): capturing
    // one was a sixth of a 404's main-thread time (bench/README.md, Where Node's time goes).
    const limit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
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
