// The records queries behind the analyze tab's chart, each the page's filters plus its own
// clauses: the span of a date (for the default level), the most frequent values of a field (the
// split's top N, a text axis's groups), and the chart's own query grouped by x (and the split).
import type { Field } from '../shared/types.js';
import { filterParams, odsqlField, odsqlString, type FilterState } from '../shared/url-state.js';
import type { Level } from './analyze-dates.js';
import { isOrderedAxis, levelsOf, type Choices, type Series } from './analyze-choices.js';

const UNIT: Record<Exclude<Level, 'year'>, string> = {
  month: '1 month',
  week: '1 week',
  day: '1 day',
  hour: '1 hour',
  minute: '1 minute',
};

/** Groups asked for: a text axis shows its largest values, an ordered axis its first ones. */
export const TEXT_LIMIT = 50;
export const ORDERED_LIMIT = 1000;
/** The API's bound on the groups of one query (GROUPS_WINDOW of src/api/query-context.ts). */
const GROUPS_WINDOW = 20_000;

/** The group_by expression of the X axis, at `level` when x is a date. */
export function xExpression(choices: Choices, fields: readonly Field[], level: Level | null): string {
  const field = fields.find((f) => f.name === choices.x);
  const name = odsqlField(choices.x);
  if (levelsOf(field).length && level) {
    return level === 'year' ? `year(${name})` : `range(${name}, ${UNIT[level]})`;
  }
  return choices.width ? `range(${name}, ${choices.width})` : name;
}

/** The aggregate expression of a series. */
export function seriesExpression(series: Series): string {
  if (series.fn === 'count') return 'count(*)';
  const field = odsqlField(series.field);
  return series.fn === 'percentile' ? `percentile(${field}, ${series.p})` : `${series.fn}(${field})`;
}

/** The first and last date of `field` among the filtered records (`low`, `high`). */
export function spanParams(state: FilterState, field: string): URLSearchParams {
  const params = filterParams(state);
  params.set('select', `min(${odsqlField(field)}) as low, max(${odsqlField(field)}) as high`);
  return params;
}

/** The `limit` values of `field` with the largest `aggregate` (`v`, `n`), largest first. */
export function topParams(
  state: FilterState,
  field: string,
  aggregate: string,
  limit: number,
): URLSearchParams {
  const params = filterParams(state);
  params.set('select', `${aggregate} as n`);
  params.set('group_by', `${odsqlField(field)} as v`);
  params.set('order_by', 'n desc, v');
  params.set('limit', String(limit));
  return params;
}

/** `field` is one of `values` (a null among them: or is null). */
export function inCondition(field: string, values: readonly unknown[]): string {
  const name = odsqlField(field);
  const texts = values
    .filter((v) => v !== null)
    .map((v) => odsqlString(typeof v === 'string' ? v : JSON.stringify(v)));
  const parts = texts.length ? [`${name} in (${texts.join(', ')})`] : [];
  if (texts.length < values.length) parts.push(`${name} is null`);
  return parts.length ? `(${parts.join(' or ')})` : 'false';
}

/** `field` is none of `values`: the complement of inCondition. */
export function notInCondition(field: string, values: readonly unknown[]): string {
  const not = `not ${inCondition(field, values)}`;
  // `not (f in (...))` is null, so false, where f is null: a null is another value unless listed.
  return values.includes(null) ? not : `(${not} or ${odsqlField(field)} is null)`;
}

/** What a chart query keeps beyond the filters: x among given values, the split among given values. */
export interface Restriction {
  /** The text axis's values drawn (a split chart groups only these). */
  readonly x?: readonly unknown[];
  /** The split's values, `x, split` grouped (or, with `others`, every value but these). */
  readonly split?: readonly unknown[];
  /** Whether this is the query of the split's other values, grouped by x alone. */
  readonly others?: boolean;
}

/**
 * The records query of the chart: the filters, one aggregate per series (s0, s1...), grouped by x
 * (and by the split as `split`, restricted to its top values). A text axis without a split shows
 * its groups with the largest first series; any other chart its groups in order.
 */
export function chartParams(
  state: FilterState,
  choices: Choices,
  fields: readonly Field[],
  level: Level | null,
  restriction: Restriction = {},
): URLSearchParams {
  const params = filterParams(state);
  const ordered = isOrderedAxis(choices, fields);
  const keys = [`${xExpression(choices, fields, level)} as x`];
  if (restriction.x) params.append('where', inCondition(choices.x, restriction.x));
  if (restriction.split && restriction.others) {
    params.append('where', notInCondition(choices.split, restriction.split));
  } else if (restriction.split) {
    params.append('where', inCondition(choices.split, restriction.split));
    keys.push(`${odsqlField(choices.split)} as split`);
  }
  params.set('select', choices.series.map((s, i) => `${seriesExpression(s)} as s${i}`).join(', '));
  params.set('group_by', keys.join(', '));
  params.set('order_by', ordered || restriction.split ? 'x' : 's0 desc, x');
  const groups = ordered ? ORDERED_LIMIT : TEXT_LIMIT;
  params.set('limit', String(Math.min(GROUPS_WINDOW, groups * (keys.length > 1 ? choices.top : 1))));
  return params;
}
