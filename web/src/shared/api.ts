// The pages' only way to data: GET on the portal's own API, errors turned into readable messages.
import { pageData } from './page.js';

/** An API answer that is not a 2xx, with the API's own error text. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    /** The API's error_code (QueryLangError, InvalidRESTParameterError, ...), or '' when none came. */
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

/** The catalog's lists, which the catalog page's scope narrows (its total and facet counts with it). */
const SCOPED_PATHS: ReadonlySet<string> = new Set(['/catalog/datasets', '/catalog/facets']);

function scoped(path: string, params: URLSearchParams): URLSearchParams {
  const { scope } = pageData();
  if (scope === null || !SCOPED_PATHS.has(path)) return params;
  const sent = new URLSearchParams(params);
  sent.append('where', scope);
  return sent;
}

/**
 * The URL of an API path (`/catalog/datasets`) with its parameters, on the page's origin (v2.1
 * unless `base` says); a catalog list also gets the page's scope as one more `where`.
 */
export function apiUrl(path: string, params?: URLSearchParams, base = pageData().api): string {
  const query = scoped(path, params ?? new URLSearchParams()).toString();
  return `${base}${path}${query ? `?${query}` : ''}`;
}

/** The message of an error body in either generation's shape: {error_code, message} or {errorcode, error}. */
function failureOf(status: number, body: unknown): ApiFailure {
  const fields = (body ?? {}) as { error_code?: unknown; message?: unknown; error?: unknown };
  const message = typeof fields.message === 'string' ? fields.message : fields.error;
  return new ApiFailure(
    status,
    typeof fields.error_code === 'string' ? fields.error_code : '',
    typeof message === 'string' ? message : `The server answered ${status}.`,
  );
}

/** GETs an API path as JSON; rejects with an ApiFailure carrying the API's message. */
export async function apiGet<T>(
  path: string,
  params?: URLSearchParams,
  signal?: AbortSignal,
  base?: string,
): Promise<T> {
  const response = await fetch(apiUrl(path, params, base), {
    signal,
    headers: { Accept: 'application/json' },
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw failureOf(response.status, body);
  return body as T;
}
