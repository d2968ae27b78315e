// Loads an API answer for a preact component: again whenever the path or parameters change (or
// retry is called), the previous request aborted, and an API error kept as its failure (the page
// stays usable). An answer is taken only while its request is the current one: an aborted or
// superseded request can never overwrite a newer answer, whatever order the answers arrive in.
import { useEffect, useState } from 'preact/hooks';
import { apiGet, ApiFailure } from './api.js';
import './feedback.css';

export interface Loaded<T> {
  /** The last answer (kept while the next one loads, so the page does not flicker). */
  readonly data: T | null;
  readonly error: ApiFailure | null;
  /** A request is in flight: the region shows `aria-busy` (and, after 150 ms, an indicator). */
  readonly loading: boolean;
  /** Asks the same request again (the Retry button of an error). */
  readonly retry: () => void;
}

/** What the last answered request gave, and which request that was. */
interface Held<T> {
  readonly data: T | null;
  readonly error: ApiFailure | null;
  readonly answered: string | null;
}

/** Any rejection as an ApiFailure: a network failure has status 0 and no error code. */
export function failureOf(error: unknown): ApiFailure {
  return error instanceof ApiFailure ? error : new ApiFailure(0, '', String(error));
}

/** GETs `path` with `params` (null: nothing to load yet). */
export function useApi<T>(path: string | null, params?: URLSearchParams): Loaded<T> {
  const [attempt, setAttempt] = useState(0);
  const [held, setHeld] = useState<Held<T>>({ data: null, error: null, answered: null });
  // The request: its path and parameters, and the attempt (a retry is a new request).
  const request = path === null ? null : `${attempt} ${path}?${params?.toString() ?? ''}`;
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    const take = (next: (last: Held<T>) => Held<T>) => {
      if (!controller.signal.aborted) setHeld(next);
    };
    apiGet<T>(path, params, controller.signal).then(
      (data) => take(() => ({ data, error: null, answered: request })),
      (error: unknown) => take((last) => ({ data: last.data, error: failureOf(error), answered: request })),
    );
    return () => controller.abort();
  }, [request]); // the request stands for path, params and attempt
  const loading = request !== null && held.answered !== request;
  return {
    data: held.data,
    // An error is about its own request: while the next one loads (a fix, a retry) it is not shown.
    error: loading ? null : held.error,
    loading,
    retry: () => setAttempt((n) => n + 1),
  };
}
