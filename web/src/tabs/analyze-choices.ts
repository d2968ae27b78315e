// The analyze tab's choices (X axis, series, chart type), held in the URL beside the filters
// (`x`, `x.level`, `x.width`, `y` once per series, `chart`), and the records query they stand for:
// the chart draws exactly what the API answers to that query.
import type { Field } from '../shared/types.js';
import { filterParams, odsqlField, type FilterState } from '../shared/url-state.js';

export const LEVELS = ['year', 'month', 'day', 'hour', 'minute'] as const;
export type Level = (typeof LEVELS)[number];

export const AGGREGATES = ['count', 'sum', 'avg', 'min', 'max', 'median', 'percentile'] as const;
export type Aggregate = (typeof AGGREGATES)[number];

export const CHARTS = ['column', 'bar', 'line'] as const;
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
  /** The date level, when x is a date or datetime field. */
  readonly level: Level;
  /** The range width, when x is a number field: '' groups on each value. */
  readonly width: string;
  readonly series: readonly Series[];
  readonly chart: Chart;
}

const NUMERIC = new Set(['int', 'double']);
const DATES = new Set(['date', 'datetime']);
const X_TYPES = new Set(['text', ...NUMERIC, ...DATES]);

/** Fields the X axis can be. */
export const xFields = (fields: readonly Field[]) => fields.filter((f) => X_TYPES.has(f.type));
/** Fields a series can aggregate. */
export const numericFields = (fields: readonly Field[]) => fields.filter((f) => NUMERIC.has(f.type));
/** The date levels a field has (hours and minutes only for datetimes). */
export const levelsOf = (field: Field | undefined): readonly Level[] =>
  field?.type === 'datetime' ? LEVELS : field?.type === 'date' ? LEVELS.slice(0, 3) : [];
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
  const series = params
    .getAll('y')
    .map(readSeries)
    .filter((s): s is Series => s !== null)
    .filter((s) => s.fn === 'count' || isNumeric(byName.get(s.field)))
    .filter((s) => s.fn !== 'percentile' || (Number.isInteger(s.p) && s.p >= 1 && s.p <= 99));
  return {
    x: x?.name ?? '',
    level: oneOf(levels, params.get('x.level')) ?? levels[0] ?? 'year',
    width: isNumeric(x) && width > 0 ? String(width) : '',
    series: series.length ? series : [{ fn: 'count', field: '', p: 50 }],
    chart: oneOf(CHARTS, params.get('chart')) ?? 'column',
  };
}

/** The URL parameters of the choices (the filters are written by the shared URL state). */
export function choicesParams(choices: Choices, fields: readonly Field[]): URLSearchParams {
  const params = new URLSearchParams({ x: choices.x });
  const field = fields.find((f) => f.name === choices.x);
  if (levelsOf(field).length) params.set('x.level', choices.level);
  if (choices.width) params.set('x.width', choices.width);
  for (const series of choices.series) params.append('y', seriesParam(series));
  params.set('chart', choices.chart);
  return params;
}

const UNIT: Record<Level, string> = {
  year: '',
  month: '1 month',
  day: '1 day',
  hour: '1 hour',
  minute: '1 minute',
};

/** The group_by expression of the X axis. */
export function xExpression(choices: Choices, fields: readonly Field[]): string {
  const field = fields.find((f) => f.name === choices.x);
  const name = odsqlField(choices.x);
  if (levelsOf(field).length) {
    return choices.level === 'year' ? `year(${name})` : `range(${name}, ${UNIT[choices.level]})`;
  }
  return choices.width ? `range(${name}, ${choices.width})` : name;
}

/** The aggregate expression of a series. */
export function seriesExpression(series: Series): string {
  if (series.fn === 'count') return 'count(*)';
  const field = odsqlField(series.field);
  return series.fn === 'percentile' ? `percentile(${field}, ${series.p})` : `${series.fn}(${field})`;
}

/** Groups asked for: a text axis shows its largest values, an ordered axis its first ones. */
const TEXT_LIMIT = 50;
const ORDERED_LIMIT = 1000;

/** Whether the X axis is ordered (dates, numbers) rather than categories sorted by the first series. */
export function isOrderedAxis(choices: Choices, fields: readonly Field[]): boolean {
  const field = fields.find((f) => f.name === choices.x);
  return field !== undefined && field.type !== 'text';
}

/** The records query of the chart: the filters, one aggregate per series (s0, s1...), grouped by x. */
export function chartParams(state: FilterState, choices: Choices, fields: readonly Field[]): URLSearchParams {
  const params = filterParams(state);
  const ordered = isOrderedAxis(choices, fields);
  params.set('select', choices.series.map((s, i) => `${seriesExpression(s)} as s${i}`).join(', '));
  params.set('group_by', `${xExpression(choices, fields)} as x`);
  params.set('order_by', ordered ? 'x' : 's0 desc, x');
  params.set('limit', String(ordered ? ORDERED_LIMIT : TEXT_LIMIT));
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
