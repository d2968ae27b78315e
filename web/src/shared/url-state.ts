// The state of a catalog or dataset page, held in its URL as the public service's pages hold it
// (`q`, `refine.<field>`, `exclude.<field>`, `where`, `q.timerange.<field>` and `q.range.<field>`,
// `sort`, `page`; a column's filter as `where.<field>`, an ODSQL condition of its own), and the
// API parameters that state stands for: what a page shows is what the API answers to the same
// parameters.

import { RANGE_PREFIX, rangeQuery, readRange, type RangeFilter } from './ranges.js';

/** A facet value picked in refine or exclude: [field, value]. */
export type Pick = readonly [field: string, value: string];

export interface FilterState {
  /** Full-text query (search over every text field). */
  readonly q: string;
  readonly refine: readonly Pick[];
  readonly exclude: readonly Pick[];
  /** An ODSQL condition typed by the user. */
  readonly where: string;
  /** Column filters: [field, ODSQL condition on it] (`where.<field>`), each sent as a `where`. */
  readonly conditions: readonly Pick[];
  /** Date and number ranges of the sidebar (ranges.ts). */
  readonly ranges: readonly RangeFilter[];
  /** `field` (ascending) or `-field` (descending), or '' for the API's order. */
  readonly sort: string;
  /** 1-based page number. */
  readonly page: number;
}

export const EMPTY_STATE: FilterState = {
  q: '',
  refine: [],
  exclude: [],
  where: '',
  conditions: [],
  ranges: [],
  sort: '',
  page: 1,
};

function picks(params: URLSearchParams, prefix: string): Pick[] {
  const found: Pick[] = [];
  for (const [name, value] of params) {
    if (name.startsWith(prefix) && name.length > prefix.length && value !== '')
      found.push([name.slice(prefix.length), value]);
  }
  return found;
}

/** The state a URL query string (`location.search`) holds; anything malformed is left out. */
export function readState(search: string): FilterState {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page') ?? '1');
  return {
    q: params.get('q') ?? '',
    refine: picks(params, 'refine.'),
    exclude: picks(params, 'exclude.'),
    where: params.get('where') ?? '',
    conditions: picks(params, 'where.'),
    ranges: [...params].flatMap(([name, value]) => readRange(name, value) ?? []),
    sort: params.get('sort') ?? '',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The URL query string of a state ('' or '?...'), the inverse of readState. */
export function stateSearch(state: FilterState): string {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  for (const [field, value] of state.refine) params.append(`refine.${field}`, value);
  for (const [field, value] of state.exclude) params.append(`exclude.${field}`, value);
  if (state.where) params.set('where', state.where);
  for (const [field, condition] of state.conditions) params.append(`where.${field}`, condition);
  for (const range of state.ranges)
    params.set(`${RANGE_PREFIX[range.kind]}${range.field}`, rangeQuery(range));
  if (state.sort) params.set('sort', state.sort);
  if (state.page > 1) params.set('page', String(state.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Whether a URL parameter is part of a FilterState (the others are a tab's own: the chart's axes). */
const isStateParam = (name: string): boolean =>
  ['q', 'where', 'sort', 'page'].includes(name) ||
  /^(refine|exclude|where|q\.timerange|q\.range)\../.test(name);

/** The URL query string of a state, followed by the parameters of `current` that are a tab's own. */
export function stateSearchKeeping(state: FilterState, current: string): string {
  const params = new URLSearchParams(stateSearch(state));
  for (const [name, value] of new URLSearchParams(current)) {
    if (!isStateParam(name)) params.append(name, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** An ODSQL string literal of `text`. */
export function odsqlString(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** An ODSQL field reference, backquoted so any field name is one. */
export function odsqlField(name: string): string {
  return `\`${name.replace(/[\\`]/g, (c) => `\\${c}`)}\``;
}

/**
 * `field >= low and field <= high`, either bound alone (ODSQL literals; null: open), or null when
 * neither is given. A day-granular date literal as the high bound keeps that whole day: the
 * compiler reads `<= date'2001-02-03'` as `< date'2001-02-04'`.
 */
export function boundsCondition(field: string, low: string | null, high: string | null): string | null {
  const name = odsqlField(field);
  const parts = [low === null ? null : `${name} >= ${low}`, high === null ? null : `${name} <= ${high}`];
  const given = parts.filter((part) => part !== null);
  return given.length ? given.join(' and ') : null;
}

/**
 * The ODSQL condition of a range, as the API takes it in `where` (the field back-quoted, so a
 * field named like a keyword works: v1 cannot quote one): a date's `to` is its whole day.
 */
export function rangeWhere(range: RangeFilter): string {
  const literal = (bound: string): string | null =>
    bound === '' ? null : range.kind === 'date' ? `date'${bound}'` : bound;
  return boundsCondition(range.field, literal(range.from), literal(range.to)) ?? '';
}

/**
 * The API's filtering parameters of a state: `q` in v1's query language (`qv1`, as the public
 * service's pages send it: words, `field:value`, `#now()`...) and the user's `where` as a second
 * condition (each parsed on its own, so an error's position is in the user's text), each column
 * filter and each range as one more `where`, refine and exclude as `field:value`.
 */
export function filterParams(state: FilterState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q.trim()) params.append('qv1', state.q.trim());
  if (state.where.trim()) params.append('where', state.where);
  for (const [, condition] of state.conditions) params.append('where', condition);
  for (const range of state.ranges) params.append('where', rangeWhere(range));
  for (const [field, value] of state.refine) params.append('refine', `${field}:${value}`);
  for (const [field, value] of state.exclude) params.append('exclude', `${field}:${value}`);
  return params;
}

/** The API's order_by of a `sort` value, or null. */
export function orderBy(sort: string): string | null {
  if (!sort || sort === '-') return null;
  return sort.startsWith('-') ? `${odsqlField(sort.slice(1))} desc` : odsqlField(sort);
}

/** The parameters of one page of records: the filters, the order, limit and offset. */
export function pageParams(state: FilterState, pageSize: number): URLSearchParams {
  const params = filterParams(state);
  const order = orderBy(state.sort);
  if (order) params.set('order_by', order);
  params.set('limit', String(pageSize));
  params.set('offset', String((state.page - 1) * pageSize));
  return params;
}

/** Whether `field` = `value` is picked in the state's refine (or exclude) list. */
export function isPicked(picked: readonly Pick[], field: string, value: string): boolean {
  return picked.some(([f, v]) => f === field && v === value);
}

/**
 * The state with `field` = `value` toggled in refine or exclude (and out of the other list), back
 * on page 1: a click picks a value, a second click removes it.
 */
export function togglePick(
  state: FilterState,
  list: 'refine' | 'exclude',
  field: string,
  value: string,
): FilterState {
  const other = list === 'refine' ? 'exclude' : 'refine';
  const without = (picked: readonly Pick[]) => picked.filter(([f, v]) => !(f === field && v === value));
  const on = !isPicked(state[list], field, value);
  return {
    ...state,
    [list]: on ? [...state[list], [field, value] as Pick] : without(state[list]),
    [other]: without(state[other]),
    page: 1,
  };
}
