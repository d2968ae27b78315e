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

/** The URL of an API path (`/catalog/datasets`) with its parameters, on the page's origin (v2.1 unless `base` says). */
export function apiUrl(path: string, params?: URLSearchParams, base = pageData().api): string {
  const query = params?.toString() ?? '';
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
