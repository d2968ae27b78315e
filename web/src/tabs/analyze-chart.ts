// The chart, drawn by vega-lite through vega-embed from values the page fetched itself: vega loads
// nothing (no URL in the spec), and the actions menu (links to the online vega editor) is off.
// One layout per shape of data: one value axis; two series of scales too far apart on two axes
// (left and right); more such series, or series split by a field, one row each with its own axis;
// a pie for one count or sum over a few text groups.
import embed, { type Result } from 'vega-embed';
import type { TopLevelSpec } from 'vega-lite';
import type { ChartData } from './analyze-load.js';
import {
  categoryAxis,
  colourEncoding,
  colourRange,
  commonOf,
  LABEL_LIMIT,
  markOf,
  scalesDiffer,
  VALUE_AXIS_PX,
  type Drawing,
} from './analyze-spec.js';

/** A pie's most slices: more are unreadable. */
export const PIE_MOST = 12;
const HEIGHT = 320;
const ROW_HEIGHT = 170;
/** A horizontal bar's height, px, and the gap between groups. */
const BAR_PX = 14;

/** Whether the data makes a readable pie: one measure, unsplit, 2 to 12 groups, none negative. */
export function pieFits(data: ChartData): boolean {
  const groups = data.xOrder.length;
  return (
    data.measures.length === 1 &&
    !data.split &&
    groups >= 2 &&
    groups <= PIE_MOST &&
    data.points.every((p) => p.value !== null && p.value >= 0)
  );
}

/**
 * The category and value encodings of one chart type (x and y swap for horizontal bars); bars of
 * several colours side by side unless they stack or each view holds one colour (`oneColour`).
 */
function encodings(
  data: ChartData,
  drawing: Drawing,
  plotWidth: number,
  valueTitle: string | null,
  oneColour = false,
) {
  const horizontal = drawing.chart === 'bar';
  const category = {
    field: 'x',
    type: 'ordinal',
    sort: data.xOrder as string[],
    scale: { domain: data.xOrder as string[] },
    title: drawing.xTitle,
    axis: horizontal ? { labelLimit: LABEL_LIMIT } : categoryAxis(data, plotWidth),
  } as const;
  const stacks = drawing.stack && drawing.chart !== 'line';
  // A split value absent from a group has no record there: its count or sum is 0, which a line or
  // an area must draw (a stack with a hole mixes the layers).
  const zero = drawing.stack && (drawing.chart === 'line' || drawing.chart === 'area');
  const value = {
    field: 'value',
    type: 'quantitative',
    title: valueTitle,
    stack: stacks ? 'zero' : null,
    ...(zero ? { impute: { value: 0 } } : {}),
  } as const;
  const grouped = drawing.chart === 'column' || drawing.chart === 'bar';
  const offset =
    grouped && !stacks && !oneColour && data.colours.length > 1
      ? { field: 'series', sort: data.colours as string[], scale: { domain: data.colours as string[] } }
      : null;
  return horizontal
    ? { y: category, x: value, ...(offset ? { yOffset: offset } : {}) }
    : { x: category, y: value, ...(offset ? { xOffset: offset } : {}) };
}

/** How tall horizontal bars are: one band per group, as wide as its bars side by side. */
function barsHeight(data: ChartData, drawing: Drawing): number {
  const bars = drawing.stack ? 1 : data.colours.length;
  return Math.max(160, data.xOrder.length * Math.max(BAR_PX, bars * 5 + 4));
}

/** One value axis: one measure, or several of comparable scales told apart by colour. */
function single(data: ChartData, drawing: Drawing): TopLevelSpec {
  const many = data.measures.length > 1;
  const title = many ? null : (data.measures[0] ?? null);
  return {
    ...commonOf(data),
    width: drawing.width,
    height: drawing.chart === 'bar' ? barsHeight(data, drawing) : HEIGHT,
    autosize: { type: 'fit-x', contains: 'padding' },
    mark: markOf(drawing.chart, drawing.stack, data.xOrder.length),
    encoding: {
      ...encodings(data, drawing, drawing.width - VALUE_AXIS_PX, title),
      color: colourEncoding(data, drawing),
    },
  };
}

/** Two measures whose scales differ: one layer each, the first's axis left, the second's right. */
function dual(data: ChartData, drawing: Drawing): TopLevelSpec {
  const horizontal = drawing.chart === 'bar';
  const colours = colourRange(data);
  const layer = data.measures.map((measure, i) => {
    const { x, y, ...offset } = encodings(data, drawing, drawing.width - 2 * VALUE_AXIS_PX, measure);
    const axis = {
      orient: horizontal ? (i ? 'top' : 'bottom') : i ? 'right' : 'left',
      titleColor: colours[i],
    };
    return {
      transform: [{ filter: { field: 'measure', equal: measure } }],
      mark: markOf(drawing.chart, false, data.xOrder.length),
      encoding: {
        ...offset,
        x: horizontal ? { ...x, axis } : x,
        y: horizontal ? y : { ...y, axis },
        color: colourEncoding(data, drawing),
      },
    };
  });
  return {
    ...commonOf(data),
    width: drawing.width,
    height: horizontal ? barsHeight(data, drawing) : HEIGHT,
    autosize: { type: 'fit-x', contains: 'padding' },
    layer,
    resolve: { scale: horizontal ? { x: 'independent' } : { y: 'independent' } },
  } as TopLevelSpec;
}

/** One row per measure, titled, each with its own value axis; the split's values (if any) in colour. */
function rows(data: ChartData, drawing: Drawing): TopLevelSpec {
  const horizontal = drawing.chart === 'bar';
  const plotWidth = Math.max(120, drawing.width - (horizontal ? LABEL_LIMIT + 40 : VALUE_AXIS_PX + 40));
  return {
    ...commonOf(data),
    facet: {
      row: {
        field: 'measure',
        type: 'nominal',
        sort: data.measures as string[],
        title: null,
        header: { labelAngle: 0, labelAnchor: 'start', labelOrient: 'top', labelFontSize: 13, labelLimit: 0 },
      },
    },
    spec: {
      width: plotWidth,
      height: horizontal ? barsHeight(data, drawing) : ROW_HEIGHT,
      mark: markOf(drawing.chart, drawing.stack, data.xOrder.length),
      encoding: {
        ...encodings(data, drawing, plotWidth, null, !data.split),
        color: colourEncoding(data, drawing, data.split),
      },
    },
    resolve: { scale: horizontal ? { x: 'independent' } : { y: 'independent' } },
  };
}

/** A pie: one slice per group, the groups in the legend. */
function pie(data: ChartData, drawing: Drawing): TopLevelSpec {
  const narrow = drawing.width < 560;
  return {
    ...commonOf(data),
    width: Math.min(drawing.width - (narrow ? 20 : 240), HEIGHT),
    height: Math.min(drawing.width - 20, HEIGHT),
    mark: { type: 'arc', tooltip: true, stroke: '#fff' },
    encoding: {
      theta: { field: 'value', type: 'quantitative', stack: true, title: data.measures[0] },
      color: {
        field: 'x',
        type: 'nominal',
        sort: data.xOrder as string[],
        scale: { domain: data.xOrder as string[] },
        title: drawing.xTitle,
        legend: { orient: narrow ? 'bottom' : 'right', columns: narrow ? 2 : 1, labelLimit: LABEL_LIMIT },
      },
    },
    view: { stroke: null },
  };
}

/** The layout the data asks for. */
export type Layout = 'single' | 'dual' | 'rows' | 'pie';

/** Which layout draws `data` as `chart`: see the file's head. */
export function layoutOf(data: ChartData, pieAsked: boolean): Layout {
  if (pieAsked && pieFits(data)) return 'pie';
  const differ = scalesDiffer(data);
  if (data.measures.length > 1 && (data.split || (differ && data.measures.length > 2))) return 'rows';
  return differ ? 'dual' : 'single';
}

const LAYOUTS: Record<Layout, (data: ChartData, drawing: Drawing) => TopLevelSpec> = {
  single,
  dual,
  rows,
  pie,
};

/** The vega-lite spec of `data` in `layout`. */
export function chartSpec(data: ChartData, drawing: Drawing, layout: Layout): TopLevelSpec {
  return LAYOUTS[layout](data, drawing);
}

/** Draws `spec` in `element` as SVG; the result's view holds the drawn data and exports images. */
export function drawChart(element: HTMLElement, spec: TopLevelSpec): Promise<Result> {
  return embed(element, spec, { actions: false, renderer: 'svg' });
}
