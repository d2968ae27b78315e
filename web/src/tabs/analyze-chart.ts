// The chart, drawn by vega-lite through vega-embed from values the page fetched itself: vega loads
// nothing (no URL in the spec), and the actions menu (links to the online vega editor) is off.
import embed, { type Result } from 'vega-embed';
import type { TopLevelSpec } from 'vega-lite';
import type { Chart } from './analyze-choices.js';

/** One value drawn: a group of the X axis, the series it belongs to, the API's value. */
export interface Point {
  readonly x: string;
  readonly series: string;
  readonly value: number | null;
}

interface Axes {
  readonly chart: Chart;
  readonly xTitle: string;
  /** The series' labels, in the form's order. */
  readonly series: readonly string[];
}

/** The vega-lite spec of the points: columns, horizontal bars or lines; one colour per series. */
export function chartSpec(points: readonly Point[], axes: Axes): TopLevelSpec {
  const many = axes.series.length > 1;
  const category = { field: 'x', type: 'ordinal', sort: null, title: axes.xTitle } as const;
  const value = { field: 'value', type: 'quantitative', title: many ? null : axes.series[0] } as const;
  const series = { field: 'series', type: 'nominal', sort: axes.series as string[] } as const;
  const color = { ...series, title: null, legend: many ? { orient: 'top' } : null } as const;
  const groups = new Set(points.map((p) => p.x)).size;
  const common = {
    data: { values: points as Point[] },
    width: 'container',
    autosize: { type: 'fit-x', contains: 'padding' },
    config: { font: 'system-ui, sans-serif', axis: { labelLimit: 160 }, legend: { labelLimit: 320 } },
  } as const;
  if (axes.chart === 'bar') {
    return {
      ...common,
      height: Math.max(160, groups * axes.series.length * 14),
      mark: { type: 'bar', tooltip: true },
      encoding: { y: category, x: value, yOffset: series, color },
    };
  }
  return {
    ...common,
    height: 320,
    mark:
      axes.chart === 'line' ? { type: 'line', point: true, tooltip: true } : { type: 'bar', tooltip: true },
    encoding: { x: category, y: value, color, ...(axes.chart === 'column' ? { xOffset: series } : {}) },
  };
}

/** Draws `spec` in `element` as SVG; the result's view holds the drawn data. */
export function drawChart(element: HTMLElement, spec: TopLevelSpec): Promise<Result> {
  return embed(element, spec, { actions: false, renderer: 'svg' });
}
