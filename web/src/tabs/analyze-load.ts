// The analyze tab's data: the API queries of analyze-query.ts asked in turn (the date's span when
// the level is left to choose, the split's top values, then the chart's query and the split's
// others), their answers made the chart's points, with labels a person reads.
import { apiGet, apiUrl } from '../shared/api.js';
import { formatValue } from '../shared/format-value.js';
import type { Field, Page } from '../shared/types.js';
import type { FilterState } from '../shared/url-state.js';
import { dateLabel, labelsBetween, levelForSpan, type Level } from './analyze-dates.js';
import { isOrderedAxis, levelsOf, type Choices } from './analyze-choices.js';
import {
  chartParams,
  ORDERED_LIMIT,
  seriesExpression,
  spanParams,
  TEXT_LIMIT,
  topParams,
} from './analyze-query.js';

type Row = Readonly<Record<string, unknown>>;

/** One value drawn: a group of the X axis, its measure (a series), its colour's key, the API's value. */
export interface Point {
  readonly x: string;
  readonly measure: string;
  /** The colour's key: the measure itself, or the split's value (or "Others"). */
  readonly series: string;
  readonly value: number | null;
}

export interface ChartData {
  readonly points: readonly Point[];
  /** The X axis's groups in the order drawn (a date axis with its empty groups). */
  readonly xOrder: readonly string[];
  /** How many groups the API answered. */
  readonly groups: number;
  /** The series' labels, in the form's order. */
  readonly measures: readonly string[];
  /** The colours' keys in order: the measures, or the split's values then "Others". */
  readonly colours: readonly string[];
  readonly split: boolean;
  /** The colour key of the split's other values, when there are any. */
  readonly others: string | null;
  /** The date level drawn, when x is a date. */
  readonly level: Level | null;
  /** Whether the API holds more groups than drawn. */
  readonly more: boolean;
  /** The API URL of the chart's own query (grouped by x, and the split). */
  readonly url: string;
}

/** What the chart shows: the dataset's records path and fields, the filters, the choices. */
export interface ChartAsk {
  readonly path: string;
  readonly fields: readonly Field[];
  readonly state: FilterState;
  readonly choices: Choices;
  /** The series' labels. */
  readonly measures: readonly string[];
}

const EMPTY = '(empty)';
/** The most groups a date axis is filled to: beyond, its groups are drawn side by side. */
const MOST_GROUPS = 2 * ORDERED_LIMIT;

async function resolveLevel(ask: ChartAsk, signal: AbortSignal): Promise<Level | null> {
  const levels = levelsOf(ask.fields.find((f) => f.name === ask.choices.x));
  if (!levels.length) return null;
  if (ask.choices.level) return ask.choices.level;
  const answer = await apiGet<Page<Row>>(ask.path, spanParams(ask.state, ask.choices.x), signal);
  const [row] = answer.results;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return levelForSpan(levels, text(row?.low), text(row?.high));
}

/** A raw X value's place on an ordered axis: years, numbers, dates, and a range by its low end. */
function orderKey(value: unknown): number | string {
  if (typeof value === 'number') return value;
  const text = String(value);
  const range = /^[[\]]\s*(-?[\d.e+]+)/.exec(text);
  return range ? Number(range[1]) : text;
}

function compareRaw(a: unknown, b: unknown): number {
  if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1;
  const [ka, kb] = [orderKey(a), orderKey(b)];
  if (typeof ka === 'number' && typeof kb === 'number') return ka - kb;
  return String(ka) < String(kb) ? -1 : String(ka) > String(kb) ? 1 : 0;
}

/**
 * The labels of the raw X values, in order: as given for a text axis, sorted for an ordered one,
 * and for dates every group between the first and the last (the gaps kept) when they are few.
 */
function xOrderOf(raws: readonly unknown[], ordered: boolean, level: Level | null): string[] {
  const label = xLabel(level);
  const sorted = ordered ? [...raws].sort(compareRaw) : raws;
  const labels = [...new Set(sorted.map(label))];
  const dates = sorted.filter((raw) => raw !== null && raw !== undefined);
  const all =
    level && dates.length ? labelsBetween(dates[0], dates[dates.length - 1], level, MOST_GROUPS) : null;
  if (!all || !labels.every((x) => x === EMPTY || all.includes(x))) return labels;
  return labels.includes(EMPTY) ? [...all, EMPTY] : all;
}

function pointsOf(rows: readonly Row[], ask: ChartAsk, label: (raw: unknown) => string, colour?: string) {
  return rows.flatMap((row) =>
    ask.measures.map((measure, i): Point => {
      const value = row[`s${i}`];
      const series = colour ?? (ask.choices.split ? splitLabel(row.split) : measure);
      return { x: label(row.x), measure, series, value: typeof value === 'number' ? value : null };
    }),
  );
}

const splitLabel = (value: unknown) => (value === null || value === undefined ? EMPTY : formatValue(value));

/** The chart of `ask`, without a split: one query grouped by x. */
async function loadPlain(ask: ChartAsk, level: Level | null, signal: AbortSignal): Promise<ChartData> {
  const params = chartParams(ask.state, ask.choices, ask.fields, level);
  const answer = await apiGet<Page<Row>>(ask.path, params, signal);
  const label = xLabel(level);
  const ordered = isOrderedAxis(ask.choices, ask.fields);
  return {
    points: pointsOf(answer.results, ask, label),
    xOrder: xOrderOf(
      answer.results.map((r) => r.x),
      ordered,
      level,
    ),
    groups: answer.results.length,
    measures: ask.measures,
    colours: ask.measures,
    split: false,
    others: null,
    level,
    more: answer.total_count > answer.results.length,
    url: apiUrl(ask.path, params),
  };
}

const xLabel = (level: Level | null) => (raw: unknown) =>
  raw === null || raw === undefined ? EMPTY : level ? dateLabel(raw, level) : formatValue(raw);

/**
 * The chart of `ask` split by a field: its top values (and, for a text axis, the axis's top
 * groups) first, then one query grouped by x and the split, and one for the other values by x.
 */
async function loadSplit(ask: ChartAsk, level: Level | null, signal: AbortSignal): Promise<ChartData> {
  const { state, choices, fields, path } = ask;
  const ordered = isOrderedAxis(choices, fields);
  const get = (params: URLSearchParams) => apiGet<Page<Row>>(path, params, signal);
  const [top, xTop] = await Promise.all([
    get(topParams(state, choices.split, 'count(*)', choices.top)),
    ordered ? null : get(topParams(state, choices.x, seriesExpression(choices.series[0]!), TEXT_LIMIT)),
  ]);
  const values = top.results.map((r) => r.v);
  const x = xTop?.results.map((r) => r.v);
  const hasOthers = top.total_count > values.length;
  const params = chartParams(state, choices, fields, level, { x, split: values });
  const [main, others] = await Promise.all([
    get(params),
    hasOthers ? get(chartParams(state, choices, fields, level, { x, split: values, others: true })) : null,
  ]);
  const labels = values.map(splitLabel);
  const othersLabel = labels.includes('Others') ? 'All others' : 'Others';
  const label = xLabel(level);
  const raws = [...main.results, ...(others?.results ?? [])].map((r) => r.x);
  return {
    points: [
      ...pointsOf(main.results, ask, label),
      ...pointsOf(others?.results ?? [], ask, label, othersLabel),
    ],
    xOrder: xOrderOf(x ?? raws, ordered, level),
    groups: new Set(raws.map(label)).size,
    measures: ask.measures,
    colours: hasOthers ? [...labels, othersLabel] : labels,
    split: true,
    others: hasOthers ? othersLabel : null,
    level,
    more:
      main.total_count > main.results.length ||
      (others !== null && others.total_count > others.results.length) ||
      (xTop !== null && xTop.total_count > xTop.results.length),
    url: apiUrl(path, params),
  };
}

/** Asks the API everything the chart of `ask` draws. */
export async function loadChart(ask: ChartAsk, signal: AbortSignal): Promise<ChartData> {
  const level = await resolveLevel(ask, signal);
  return ask.choices.split ? loadSplit(ask, level, signal) : loadPlain(ask, level, signal);
}
