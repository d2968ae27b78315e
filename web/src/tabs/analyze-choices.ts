// The analyze tab's choices (X axis, series, split, chart type), held in the URL beside the
// filters: `x`, `x.level` (none: chosen from the data's span), `x.width`, `y` once per series,
// `split` and `split.top`, `chart`. The queries they stand for are in analyze-query.ts.
import type { Field } from '../shared/types.js';
import { LEVELS, type Level } from './analyze-dates.js';

export const AGGREGATES = ['count', 'sum', 'avg', 'min', 'max', 'median', 'percentile'] as const;
export type Aggregate = (typeof AGGREGATES)[number];

export const CHARTS = ['column', 'bar', 'line', 'area', 'pie'] as const;
export type Chart = (typeof CHARTS)[number];

export interface Series {
  readonly fn: Aggregate;
  /** The numeric field aggregated ('' for count). */
  readonly field: string;
  /** The percentile, for percentile. */
  readonly p: number;
}

export interface Choices {
  /** The field on the X axis. */
  readonly x: string;
  /** The date level, when x is a date or datetime field: '' chooses it from the data's span. */
  readonly level: Level | '';
  /** The range width, when x is a number field: '' groups on each value. */
  readonly width: string;
  readonly series: readonly Series[];
  readonly chart: Chart;
  /** The text field whose values split each series into one per value ('' for none). */
  readonly split: string;
  /** How many of the split field's values (the most frequent) are drawn; the rest are "Others". */
  readonly top: number;
}

/** The number of split values drawn when the URL names none, and the most it may name. */
export const TOP_DEFAULT = 10;
export const TOP_MOST = 20;

const NUMERIC = new Set(['int', 'double']);
const DATES = new Set(['date', 'datetime']);
const X_TYPES = new Set(['text', ...NUMERIC, ...DATES]);

/** Fields the X axis can be. */
export const xFields = (fields: readonly Field[]) => fields.filter((f) => X_TYPES.has(f.type));
/** Fields a series can aggregate. */
export const numericFields = (fields: readonly Field[]) => fields.filter((f) => NUMERIC.has(f.type));
/** Fields a series can be split by. */
export const splitFields = (fields: readonly Field[], x: string) =>
  fields.filter((f) => f.type === 'text' && f.name !== x);
/** The date levels a field has (hours and minutes only for datetimes). */
export const levelsOf = (field: Field | undefined): readonly Level[] =>
  field?.type === 'datetime' ? LEVELS : field?.type === 'date' ? LEVELS.slice(0, 4) : [];
export const isNumeric = (field: Field | undefined) => NUMERIC.has(field?.type ?? '');

const oneOf = <T extends string>(list: readonly T[], value: string | null): T | null =>
  list.includes(value as T) ? (value as T) : null;

function readSeries(text: string): Series | null {
  const [name = '', ...rest] = text.split(':');
  const fn = oneOf(AGGREGATES, name);
  if (fn === 'count') return { fn, field: '', p: 50 };
  if (fn === 'percentile' && rest.length >= 2) {
    return { fn, field: rest.slice(1).join(':'), p: Number(rest[0]) };
  }
  return fn && rest.length ? { fn, field: rest.join(':'), p: 50 } : null;
}

/** The series as the URL writes it: `count`, `avg:<field>`, `percentile:<p>:<field>`. */
export function seriesParam(series: Series): string {
  if (series.fn === 'count') return 'count';
  return series.fn === 'percentile'
    ? `percentile:${series.p}:${series.field}`
    : `${series.fn}:${series.field}`;
}

/** The choices of a URL query string, made valid for `fields`: defaults for what is missing or wrong. */
export function readChoices(search: string, fields: readonly Field[]): Choices {
  const params = new URLSearchParams(search);
  const byName = new Map(fields.map((f) => [f.name, f]));
  const candidates = xFields(fields);
  const preferred = candidates.find((f) => DATES.has(f.type)) ?? candidates.find((f) => f.type === 'text');
  const asked = byName.get(params.get('x') ?? '');
  const x = asked && X_TYPES.has(asked.type) ? asked : (preferred ?? candidates[0]);
  const levels = levelsOf(x);
  const width = Number(params.get('x.width'));
  const split = byName.get(params.get('split') ?? '');
  const top = Number(params.get('split.top') ?? TOP_DEFAULT);
  const series = params
    .getAll('y')
    .map(readSeries)
    .filter((s): s is Series => s !== null)
    .filter((s) => s.fn === 'count' || isNumeric(byName.get(s.field)))
    .filter((s) => s.fn !== 'percentile' || (Number.isInteger(s.p) && s.p >= 1 && s.p <= 99));
  return {
    x: x?.name ?? '',
    level: oneOf(levels, params.get('x.level')) ?? '',
    width: isNumeric(x) && width > 0 ? String(width) : '',
    series: series.length ? series : [{ fn: 'count', field: '', p: 50 }],
    chart: oneOf(CHARTS, params.get('chart')) ?? 'column',
    split: split && splitFields(fields, x?.name ?? '').includes(split) ? split.name : '',
    top: Number.isInteger(top) && top >= 1 && top <= TOP_MOST ? top : TOP_DEFAULT,
  };
}

/** The URL parameters of the choices (the filters are written by the shared URL state). */
export function choicesParams(choices: Choices, fields: readonly Field[]): URLSearchParams {
  const params = new URLSearchParams({ x: choices.x });
  const field = fields.find((f) => f.name === choices.x);
  if (levelsOf(field).length && choices.level) params.set('x.level', choices.level);
  if (choices.width) params.set('x.width', choices.width);
  for (const series of choices.series) params.append('y', seriesParam(series));
  params.set('chart', choices.chart);
  if (choices.split) params.set('split', choices.split);
  if (choices.split && choices.top !== TOP_DEFAULT) params.set('split.top', String(choices.top));
  return params;
}

const FN_LABEL: Record<Aggregate, string> = {
  count: 'Count',
  sum: 'Sum',
  avg: 'Average',
  min: 'Minimum',
  max: 'Maximum',
  median: 'Median',
  percentile: 'Percentile',
};

/** A series' name in the legend: "Count", "Average of IMDB rating", "90th percentile of Budget". */
export function seriesLabel(series: Series, label: (field: string) => string): string {
  if (series.fn === 'count') return FN_LABEL.count;
  const of = label(series.field);
  if (series.fn !== 'percentile') return `${FN_LABEL[series.fn]} of ${of}`;
  const suffix =
    series.p % 10 === 1 && series.p !== 11
      ? 'st'
      : series.p % 10 === 2 && series.p !== 12
        ? 'nd'
        : series.p % 10 === 3 && series.p !== 13
          ? 'rd'
          : 'th';
  return `${series.p}${suffix} percentile of ${of}`;
}

/** The aggregate functions' names for the form. */
export const aggregateLabel = (fn: Aggregate) => FN_LABEL[fn];

/** Whether the X axis is ordered (dates, numbers) rather than categories sorted by the first series. */
export function isOrderedAxis(choices: Choices, fields: readonly Field[]): boolean {
  const field = fields.find((f) => f.name === choices.x);
  return field !== undefined && field.type !== 'text';
}

/** Aggregates whose values add up to a whole: they may stack, and make a pie. */
export const isAdditive = (series: Series) => series.fn === 'count' || series.fn === 'sum';

/**
 * Whether a chart type fits the choices: an area needs an ordered X axis (dates, numbers), a pie
 * one count or sum over a text field, unsplit (its number of groups is checked once drawn).
 */
export function chartFits(chart: Chart, choices: Choices, fields: readonly Field[]): boolean {
  if (chart === 'area') return isOrderedAxis(choices, fields);
  if (chart !== 'pie') return true;
  const [first, ...more] = choices.series;
  return !isOrderedAxis(choices, fields) && !choices.split && more.length === 0 && isAdditive(first!);
}
