// The pieces of the analyze tab's vega-lite specs: the category axis with labels that stay
// readable at any count (turned when they do not fit side by side, thinned when they still
// overlap, cut past a length), the colours (the split's others in grey), the legend, the marks.
import { scheme } from 'vega';
import type { Chart } from './analyze-choices.js';
import type { ChartData } from './analyze-load.js';

/** What a chart is drawn with beyond its data. */
export interface Drawing {
  /** The chart type drawn (a pie that does not fit is already a column). */
  readonly chart: Exclude<Chart, 'pie'>;
  readonly xTitle: string;
  /** The legend's title: the split field's label, or null. */
  readonly colourTitle: string | null;
  /** The width of the element drawn in, px. */
  readonly width: number;
  /** Whether the split's values stack (counts and sums): parts of one whole. */
  readonly stack: boolean;
}

/** An axis label's width per character and its room either side, px (10 px system-ui). */
const CHAR_PX = 6;
const LABEL_PAD = 8;
/** Labels longer than this are cut with an ellipsis, px. */
export const LABEL_LIMIT = 140;
/** Room for the value axis (labels and title) beside the plot, px. */
export const VALUE_AXIS_PX = 70;

/**
 * The category axis of a vertical chart: labels level when each fits its column, turned -45
 * degrees when not, and every other one dropped until none overlaps (parity keeps an even
 * rhythm, which dates need).
 */
export function categoryAxis(data: ChartData, plotWidth: number) {
  const longest = Math.max(0, ...data.xOrder.map((x) => x.length));
  const fits =
    Math.min(longest * CHAR_PX, LABEL_LIMIT) + LABEL_PAD <= plotWidth / Math.max(1, data.xOrder.length);
  return { labelAngle: fits ? 0 : -45, labelOverlap: 'parity', labelLimit: LABEL_LIMIT } as const;
}

/** The grey of the split's other values: a rest, not one more value. */
const OTHERS = '#9e9e9e';

/** The colour of each key, in the order of `data.colours`: a category scheme, the others grey. */
export function colourRange(data: ChartData): string[] {
  const palette = scheme(data.colours.length > 10 ? 'tableau20' : 'tableau10') as string[];
  return data.colours.map((key, i) => (key === data.others ? OTHERS : palette[i % palette.length]!));
}

/** The colour encoding: one colour per key, a legend when there is more than one (and `legend`). */
export function colourEncoding(data: ChartData, drawing: Drawing, legend = true) {
  const columns = Math.max(1, Math.floor(drawing.width / 170));
  return {
    field: 'series',
    type: 'nominal',
    sort: data.colours as string[],
    scale: { domain: data.colours as string[], range: colourRange(data) },
    title: drawing.colourTitle,
    legend:
      legend && data.colours.length > 1
        ? { orient: 'top', direction: 'horizontal', columns, labelLimit: LABEL_LIMIT, symbolType: 'square' }
        : null,
  } as const;
}

/** The mark of a chart type: bars, a line with its points, an area (see-through, outlined, unless stacked). */
export function markOf(chart: Drawing['chart'], stack: boolean, groups: number) {
  if (chart === 'line') return { type: 'line', point: true, tooltip: true } as const;
  if (chart === 'area' && stack) return { type: 'area', opacity: 0.85, tooltip: true } as const;
  if (chart === 'area') {
    return { type: 'area', line: true, point: groups <= 200, opacity: 0.35, tooltip: true } as const;
  }
  return { type: 'bar', tooltip: true } as const;
}

/** The common top of every spec: the values, a white ground (the PNG's), the font, labels cut. */
export function commonOf(data: ChartData) {
  return {
    background: 'white',
    data: { values: data.points as ChartData['points'][number][] },
    config: {
      font: 'system-ui, sans-serif',
      axis: { labelLimit: LABEL_LIMIT },
      legend: { labelLimit: LABEL_LIMIT },
    },
  } as const;
}

/** Whether the measures' scales differ too much to share an axis: largest maxima over 10 times the smallest. */
export function scalesDiffer(data: ChartData): boolean {
  if (data.measures.length < 2) return false;
  const maxima = data.measures.map((measure) =>
    Math.max(0, ...data.points.filter((p) => p.measure === measure).map((p) => Math.abs(p.value ?? 0))),
  );
  const positive = maxima.filter((m) => m > 0);
  return positive.length > 1 && Math.max(...positive) > 10 * Math.min(...positive);
}
