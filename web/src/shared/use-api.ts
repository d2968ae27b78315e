// Loads an API answer for a preact component: again whenever the path or parameters change, the
// previous request aborted, and an API error kept as its message (the page stays usable).
import { useEffect, useState } from 'preact/hooks';
import { apiGet, ApiFailure } from './api.js';

export interface Loaded<T> {
  /** The last answer (kept while the next one loads, so the page does not flicker). */
  readonly data: T | null;
  readonly error: ApiFailure | null;
  readonly loading: boolean;
}

/** GETs `path` with `params` (null: nothing to load yet). */
export function useApi<T>(path: string | null, params?: URLSearchParams): Loaded<T> {
  const key = path === null ? null : `${path}?${params?.toString() ?? ''}`;
  const [loaded, setLoaded] = useState<Loaded<T>>({ data: null, error: null, loading: key !== null });
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    setLoaded((last) => ({ ...last, loading: true }));
    apiGet<T>(path, params, controller.signal).then(
      (data) => setLoaded({ data, error: null, loading: false }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const failure = error instanceof ApiFailure ? error : new ApiFailure(0, '', String(error));
        setLoaded((last) => ({ data: last.data, error: failure, loading: false }));
      },
    );
    return () => controller.abort();
  }, [key]); // the key stands for path and params
  return loaded;
}
