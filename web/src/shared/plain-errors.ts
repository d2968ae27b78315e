// An API failure in plain words for the people reading a page: the API's own text names the
// parameter and the bound (for a client's author); the page says what happened and what to do.
import type { ApiFailure } from './api.js';
import { formatCount } from './text.js';

/** The record-query cap in the API's offset error: "offset + limit <= 10000 is expected". */
const OFFSET_CAP = /offset \+ limit <= (\d+)/;

/** The bound on offset + limit an API failure names, or null when it is about something else. */
export function pagingCap(error: ApiFailure): number | null {
  const match = error.errorCode === 'InvalidRESTParameterError' ? OFFSET_CAP.exec(error.message) : null;
  return match ? Number(match[1]) : null;
}

/** By error code: what the page says when the status alone would not say it well. */
const BY_CODE = new Map<string, string>([
  ['QueryLangError', 'The filter could not be read: fix it and apply it again.'],
  [
    'QueryTimeout',
    'The query took too long and was stopped: narrow it with a filter, or download from the Export tab.',
  ],
  ['ServerBusy', 'The server is busy right now: retry in a moment.'],
  ['QueryOutOfMemory', 'The server is short of memory right now: retry in a moment, or narrow the query.'],
  ['AuthenticationRequired', 'This needs you to sign in.'],
  ['ForbiddenAccess', 'Your account may not see this.'],
  ['NotFoundResource', 'This was not found: it may have been removed, or you may not see it.'],
]);

/** By HTTP status, when the code says nothing more. */
function byStatus(status: number): string {
  if (status === 0) return 'The server could not be reached: check the connection, then retry.';
  if (status === 429) return 'Too many requests for now: wait a moment, then retry.';
  if (status >= 500) return 'The server could not answer this request: retry in a moment.';
  return 'The server could not answer these parameters.';
}

/** One sentence saying what went wrong, in plain words. */
export function plainWords(error: ApiFailure): string {
  const cap = pagingCap(error);
  if (cap !== null) return `This page is past the ${formatCount(cap)} records a query can page through.`;
  return BY_CODE.get(error.errorCode) ?? byStatus(error.status);
}
