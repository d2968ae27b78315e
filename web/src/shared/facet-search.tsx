// Every value of a facet within reach: a search box over its values and pages of 100 past the
// first, both asked of the facets API with its own parameters (`facet=facet(name=..., limit=N)`,
// and `where=suggest(field, "...")` for a search), so a request lists at most 10,000 values and
// the page shows at most 100 (docs/web-pages.md, Facets).
import { useEffect, useState } from 'preact/hooks';
import type { FacetGroup, FacetValue, FacetsAnswer } from './types.js';
import { useApi } from './use-api.js';
import { filterParams, odsqlField, odsqlString, type FilterState } from './url-state.js';

/** Values a page of a facet shows, and the API's default limit (what the sidebar's first answer holds). */
export const FACET_PAGE = 100;

/** The facets API lists at most 10,000 values a facet: past them, a search finds the others. */
const MAX_LIMIT = 10_000;

/** How a facet's values are searched: plain values, list elements (filtered here too), or not at all. */
export type FacetSearchKind = 'plain' | 'list' | null;

/** Lowercased words without accents: what a value's words and a search's terms are compared as. */
function words(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Whether each term of `search` starts a word of `value` (as the API's suggest() matches records). */
export function matchesSearch(value: string, search: string): boolean {
  const tokens = words(value);
  return words(search).every((term) => tokens.some((token) => token.startsWith(term)));
}

/** The facets request of one facet's page or search: the page's filters, the facet, its limit, the search. */
function searchParams(state: FilterState, facet: string, search: string, page: number): URLSearchParams {
  const params = filterParams(state);
  const limit = Math.min((page + 1) * FACET_PAGE + 1, MAX_LIMIT);
  params.append('facet', `facet(name=${odsqlString(facet)}, limit=${limit})`);
  if (search.trim()) params.append('where', `suggest(${odsqlField(facet)}, ${odsqlString(search.trim())})`);
  return params;
}

export interface FacetPageView {
  /** The values of the page (all the first answer holds on the first page without a search). */
  readonly values: readonly FacetValue[];
  /** Whether a next page exists. */
  readonly more: boolean;
  /** The page's own request is in flight. */
  readonly loading: boolean;
  readonly error: string | null;
}

/**
 * The values of `group` to show: those of the sidebar's answer on the first page without a
 * search, else of a request of its own (the search settled for 250 ms, so typing asks once).
 */
export function useFacetPage(
  path: string,
  group: FacetGroup,
  state: FilterState,
  view: { search: string; page: number; kind: FacetSearchKind },
): FacetPageView {
  const [search, setSearch] = useState(view.search);
  useEffect(() => {
    const timer = setTimeout(() => setSearch(view.search), 250);
    return () => clearTimeout(timer);
  }, [view.search]);
  const own = search.trim() !== '' || view.page > 0;
  const loaded = useApi<FacetsAnswer>(own ? path : null, searchParams(state, group.name, search, view.page));
  // A search typed but not yet settled is busy: the list shown is not its answer yet.
  const settling = search !== view.search;
  if (!own)
    return { values: group.facets, more: group.facets.length >= FACET_PAGE, loading: settling, error: null };
  const all = (loaded.data?.facets.find((g) => g.name === group.name)?.facets ?? []).filter(
    (value) => view.kind !== 'list' || !search.trim() || matchesSearch(value.name, search),
  );
  const start = view.page * FACET_PAGE;
  return {
    values: all.slice(start, start + FACET_PAGE),
    more: all.length > start + FACET_PAGE && start + FACET_PAGE < MAX_LIMIT - 1,
    loading: loaded.loading || settling,
    error: loaded.error?.message ?? null,
  };
}

interface SearchProps {
  readonly label: string;
  readonly value: string;
  readonly onInput: (text: string) => void;
}

/** The search box of one facet's values. */
export function FacetSearchBox({ label, value, onInput }: SearchProps) {
  return (
    <input
      type="search"
      class="facet-search"
      aria-label={`Search the values of ${label}`}
      placeholder="Search values"
      value={value}
      onInput={(event) => onInput(event.currentTarget.value)}
    />
  );
}

interface PagesProps {
  readonly label: string;
  readonly page: number;
  readonly shown: number;
  readonly more: boolean;
  readonly onPage: (page: number) => void;
}

/** Previous and next hundred values of a facet, and which ones are shown. */
export function FacetPages({ label, page, shown, more, onPage }: PagesProps) {
  if (page === 0 && !more) return null;
  const first = page * FACET_PAGE + 1;
  return (
    <nav class="facet-pages" aria-label={`Pages of ${label} values`}>
      <button type="button" class="link" disabled={page === 0} onClick={() => onPage(page - 1)}>
        ‹ Previous
      </button>
      <span>{shown ? `${first.toLocaleString()}–${(first + shown - 1).toLocaleString()}` : 'None'}</span>
      <button type="button" class="link" disabled={!more} onClick={() => onPage(page + 1)}>
        Next {FACET_PAGE} ›
      </button>
    </nav>
  );
}
