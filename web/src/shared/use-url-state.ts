// A page's filter state as a preact hook over its URL: each change is a history entry (Back undoes
// it), and links marked `data-carry` (the dataset tabs) follow it, so a tab opens with the filters.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { readState, stateSearch, stateSearchKeeping, type FilterState } from './url-state.js';

/** A tab's own parameters that every tab link carries too: the map's view, kept for coming back to it. */
const CARRIED = ['location'];

/** Points every `a[data-carry]` at its own path with the state's filters (not its page number). */
function carryFilters(state: FilterState): void {
  const current = new URLSearchParams(location.search);
  // Commas unescaped, as in the page's own URL (`location=5,46.2,2.2`).
  const carried = CARRIED.flatMap((name) => {
    const value = current.get(name);
    return value ? [`${name}=${encodeURIComponent(value).replace(/%2C/g, ',')}`] : [];
  });
  const search = [stateSearch({ ...state, page: 1 }).slice(1), ...carried].filter(Boolean).join('&');
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-carry]')) {
    link.search = search;
  }
}

/** Points the tab links at the URL as it is now (after a tab rewrote one of its own parameters). */
export function carryUrlState(): void {
  carryFilters(readState(location.search));
}

/** The state in the URL and a setter that pushes the new state's URL (keeping the tab's own parameters). */
export function useUrlState(): [FilterState, (next: FilterState) => void] {
  const [state, setState] = useState(() => readState(location.search));
  useEffect(() => {
    const onPop = () => setState(readState(location.search));
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  useEffect(() => carryFilters(state), [state]);
  const update = useCallback((next: FilterState) => {
    history.pushState(null, '', `${location.pathname}${stateSearchKeeping(next, location.search)}`);
    setState(next);
  }, []);
  return [state, update];
}
