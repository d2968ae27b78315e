// What the analyze tab drew, read back from vega's SVG in the page: the marks' values (from the
// labels vega writes on each mark), the axes, the legend's entries, the X axis's labels.
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

/** How long a chart may take to come: the 3M flights under a machine's full load take seconds a query. */
export const WAIT_MS = 60_000;

/** Drawn values: X label -> series (colour) label -> value. */
export type Drawn = Map<string, Map<string, number>>;

/**
 * Waits for the chart (and, when `showing` is given, a mark whose label holds it), then reads
 * every bar, point and arc: "<X title>: <x>; <value title>: <number>; <colour title>: <series>".
 */
export async function drawnValues(
  page: Page,
  xTitle: string,
  showing = '',
  colourTitle = 'series',
): Promise<Drawn> {
  try {
    await page.waitForSelector('.chart-panel[aria-busy=false] .chart svg path[aria-roledescription]', {
      timeout: WAIT_MS,
    });
    await page.waitForFunction(
      (text) =>
        [...document.querySelectorAll('.chart svg [aria-label]')].some((m) =>
          m.getAttribute('aria-label')!.includes(text),
        ),
      { timeout: WAIT_MS },
      showing,
    );
  } catch (error) {
    // What the panel shows instead (an error, a busy state, a summary) says why no chart came.
    const panel = await page.$eval(
      '.chart-panel',
      (p) => `busy=${p.getAttribute('aria-busy')}: ${p.textContent}`,
    );
    throw new Error(`${String(error)}; ${page.url()}; ${panel.slice(0, 600)}`);
  }
  const labels = await page.$$eval(
    '.chart svg [aria-roledescription=bar], .chart svg [aria-roledescription=point], .chart svg [aria-roledescription="arc mark"]',
    (marks) => marks.map((m) => m.getAttribute('aria-label') ?? ''),
  );
  const values: Drawn = new Map();
  for (const label of labels) {
    const pairs = new Map(
      label
        .split('; ')
        .map((part) => [part.slice(0, part.indexOf(': ')), part.slice(part.indexOf(': ') + 2)]),
    );
    const x = pairs.get(xTitle) ?? '';
    const series = pairs.get(colourTitle) ?? '';
    const [value = ''] = [...pairs]
      .filter(([title]) => title !== xTitle && title !== colourTitle)
      .map(([, v]) => v);
    if (!values.has(x)) values.set(x, new Map());
    values.get(x)!.set(series, Number(value.replace(/,/g, '')));
  }
  return values;
}

/** `actual` within the rounding of the chart's labels (12 significant digits) of `expected`. */
export function near(actual: number | undefined, expected: number, what: string): void {
  expect(actual, what).to.be.a('number');
  expect(Math.abs(actual! - expected), `${what}: ${actual} vs ${expected}`).to.be.at.most(
    Math.abs(expected) * 1e-9,
  );
}

/** The aria labels of the chart's axes whose label starts with `kind` ('X-axis', 'Y-axis'). */
export async function axes(page: Page, kind: 'X-axis' | 'Y-axis'): Promise<string[]> {
  const labels = await page.$$eval('.chart svg g.role-axis', (groups) =>
    groups.map((g) => g.getAttribute('aria-label') ?? ''),
  );
  return labels.filter((label) => label.startsWith(kind));
}

/** The legend's entries (their label texts), in order. */
export async function legendEntries(page: Page): Promise<string[]> {
  return page.$$eval('.chart svg .role-legend-label text', (texts) => texts.map((t) => t.textContent ?? ''));
}

/** One label of the X axis: its text, whether vega shows it, its box on the page, its transform. */
export interface AxisLabel {
  readonly text: string;
  readonly shown: boolean;
  readonly box: {
    readonly left: number;
    readonly right: number;
    readonly top: number;
    readonly bottom: number;
  };
  readonly transform: string;
}

/** The X axis's tick labels (vega hides a label that would overlap with opacity 0). */
export async function xLabels(page: Page): Promise<AxisLabel[]> {
  return page.$$eval('.chart svg g.role-axis[aria-label^="X-axis"] .role-axis-label text', (texts) =>
    texts.map((t) => {
      const r = t.getBoundingClientRect();
      return {
        text: t.textContent ?? '',
        shown: getComputedStyle(t).opacity !== '0' && t.getAttribute('opacity') !== '0',
        box: { left: r.left, right: r.right, top: r.top, bottom: r.bottom },
        transform: t.getAttribute('transform') ?? '',
      };
    }),
  );
}
