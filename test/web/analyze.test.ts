// The analyze tab's charts read as a person reads them, checked on the SVG vega drew in chromium:
// date axes labelled at their level (no `T00:00:00`), the level chosen from the data's span,
// series of different scales on their own axes, labels that never overlap, a split drawing one
// series per top value plus Others with the API's numbers, pies, PNG and SVG files, no axe-core
// violation.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { axeViolations } from '../helpers/axe.js';
import { useBrowserSuite } from '../helpers/browser.js';
import { axes, drawnValues, legendEntries, near, WAIT_MS, xLabels } from './analyze-marks.js';

const datasetUrl = (id: string) => `/api/explore/v2.1/catalog/datasets/${id}/records`;
const analyze = (id: string, query = '') => `/explore/dataset/${id}/analyze/${query ? `?${query}` : ''}`;

/** An API date group as the chart must label it, written by Intl (months from January to July only). */
const UTC = { timeZone: 'UTC' } as const;
const monthLabel = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { ...UTC, month: 'short', year: 'numeric' }).format(new Date(iso));
const dayLabel = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { ...UTC, day: 'numeric', month: 'short', year: 'numeric' }).format(
    new Date(iso),
  );

/** Saves what a click on the download button `type` gives, and returns the file's bytes. */
async function download(page: Page, type: 'PNG' | 'SVG'): Promise<Buffer> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'duckportal-download-'));
  try {
    const session = await page.createCDPSession();
    await session.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: folder });
    await page.click(`.downloads button:${type === 'PNG' ? 'first' : 'last'}-of-type`);
    const name = `flights-chart.${type.toLowerCase()}`;
    for (;;) {
      const files = await readdir(folder);
      if (files.includes(name)) return await readFile(path.join(folder, name));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

describe('web: the analyze tab draws charts that read', function () {
  this.timeout(240_000);
  const suite = useBrowserSuite();
  const api = async (id: string, query: string) =>
    (await suite.server.json(`${datasetUrl(id)}?${query}`)).body;
  const open = (url: string, width = 1280) =>
    suite.browser.open(`${suite.server.base}${url}`, { width, height: 900 });

  it('labels a month level `Jan 2001` (never T00:00:00) with the API counts, and a day level `12 Jan 2001`', async () => {
    const expected = await api(
      'flights',
      `group_by=${encodeURIComponent('range(date, 1 month) as m')}&select=count(*) as n`,
    );
    const page = await open(analyze('flights', 'x.level=month'));
    const drawn = await drawnValues(page, 'Departure, by month');
    const labels = (await xLabels(page)).map((l) => l.text);
    expect(labels).to.deep.equal(expected.results.map((r: any) => monthLabel(r.m)));
    expect(labels.join(' ')).not.to.match(/T\d\d:|\+00:00/);
    for (const row of expected.results)
      expect(drawn.get(monthLabel(row.m))?.get('Count'), row.m).to.equal(row.n);
    await page.close();
    const days = await open(analyze('flights', 'x.level=day&refine.origin=ORD&chart=line'), 390);
    await drawnValues(days, 'Departure, by day');
    const shown = (await xLabels(days)).filter((l) => l.shown);
    expect(shown.length).to.be.greaterThan(1);
    for (const label of shown) expect(label.text).to.match(/^\d{1,2} [A-Z][a-z]{2} 2001$/);
    await days.close();
  });

  it('chooses the level from the span: six months of flights by week, four years of weather by month', async () => {
    const page = await open(analyze('flights'));
    const drawn = await drawnValues(page, 'Departure, by week');
    expect(drawn.size).to.be.within(10, 60);
    const expected = await api(
      'flights',
      `group_by=${encodeURIComponent('range(date, 1 week) as w')}&select=count(*) as n`,
    );
    for (const row of expected.results)
      expect(drawn.get(dayLabel(row.w))?.get('Count'), row.w).to.equal(row.n);
    const chosen = await page.$eval('.analyze-form select:nth-of-type(1)', () =>
      [...document.querySelectorAll('.analyze-form option')]
        .map((o) => o.textContent)
        .find((t) => t?.startsWith('automatic')),
    );
    expect(chosen).to.equal('automatic (week)');
    expect(new URL(page.url()).searchParams.has('x.level'), 'the URL keeps "automatic"').to.equal(false);
    await page.close();
    const weather = await open(analyze('seattle-weather'));
    const months = await drawnValues(weather, 'Date, by month');
    expect(months.size).to.equal(48);
    await weather.close();
  });

  it('draws two series of different scales on two Y axes (one each), of the same scale on one', async () => {
    const page = await open(analyze('flights', 'y=count&y=avg:delay&x.level=month'));
    const drawn = await drawnValues(page, 'Departure, by month');
    const yAxes = await axes(page, 'Y-axis');
    expect(yAxes).to.have.length(2);
    expect(yAxes[0]).to.include("'Count'");
    expect(yAxes[1]).to.include("'Average of Delay (minutes)'");
    const expected = await api(
      'flights',
      `group_by=${encodeURIComponent('range(date, 1 month) as m')}&select=${encodeURIComponent('count(*) as n, avg(delay) as d')}`,
    );
    for (const row of expected.results) {
      expect(drawn.get(monthLabel(row.m))?.get('Count')).to.equal(row.n);
      near(drawn.get(monthLabel(row.m))?.get('Average of Delay (minutes)'), row.d, row.m);
    }
    await page.close();
    const same = await open(analyze('movies', 'x=major_genre&y=avg:imdb_rating&y=median:imdb_rating'));
    await drawnValues(same, 'Genres');
    expect(await axes(same, 'Y-axis')).to.have.length(1);
    await same.close();
    const three = await open(analyze('movies', 'x=major_genre&y=count&y=avg:imdb_rating&y=sum:us_gross'));
    await drawnValues(three, 'Genres');
    expect(await axes(three, 'Y-axis'), 'one row per series').to.have.length(3);
    await three.close();
  });

  it('keeps the X labels from overlapping at any count: turned, then thinned', async () => {
    for (const width of [1280, 390]) {
      const page = await open(analyze('flights', 'x.level=day'), width);
      await drawnValues(page, 'Departure, by day');
      const labels = await xLabels(page);
      expect(labels.length, 'one label per day').to.equal(182);
      const shown = labels.filter((l) => l.shown);
      expect(shown.length).to.be.within(2, 181);
      expect(
        shown.every((l) => /rotate\((315|-45)\)/.test(l.transform)),
        'turned',
      ).to.equal(true);
      for (let i = 1; i < shown.length; i++) {
        const [a, b] = [shown[i - 1]!.box, shown[i]!.box];
        const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
        expect(apart, `${shown[i - 1]!.text} and ${shown[i]!.text} at ${width} px`).to.equal(true);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(width);
      await page.close();
    }
  });

  it('splits by a field: the top 10 values and Others, each equal to the API group_by answer', async () => {
    const page = await open(analyze('movies', 'split=distributor'));
    const drawn = await drawnValues(page, 'Release Date, by year', '', 'Distributor');
    const top = await api(
      'movies',
      'group_by=distributor as v&select=count(*) as n&order_by=n desc, v&limit=10',
    );
    const names = top.results.map((r: any) => r.v ?? '(empty)');
    expect(await legendEntries(page)).to.deep.equal([...names, 'Others']);
    expect(new URL(page.url()).searchParams.get('split')).to.equal('distributor');
    const all = await api(
      'movies',
      `group_by=${encodeURIComponent('year(release_date) as y, distributor as v')}&select=count(*) as n&limit=20000`,
    );
    const expected = new Map<string, Map<string, number>>();
    for (const row of all.results) {
      const year = row.y === null ? '(empty)' : String(row.y);
      const group = expected.get(year) ?? new Map<string, number>();
      const series = names.includes(row.v ?? '(empty)') ? (row.v ?? '(empty)') : 'Others';
      group.set(series, (group.get(series) ?? 0) + row.n);
      expected.set(year, group);
    }
    const plain = (m: Map<string, Map<string, number>>) =>
      Object.fromEntries([...m].map(([k, v]) => [k, Object.fromEntries(v)]));
    expect(plain(drawn)).to.deep.equal(plain(expected));
    await page.close();
  });

  it('draws a pie of a few text groups, refuses one of too many, and downloads PNG and SVG files', async () => {
    const page = await open(analyze('movies', 'x=mpaa_rating&chart=pie'));
    const drawn = await drawnValues(page, 'MPAA rating', '', 'MPAA rating');
    const expected = await api('movies', 'group_by=mpaa_rating&select=count(*) as n&limit=100');
    expect(await page.$$('.chart svg [aria-roledescription="arc mark"]')).to.have.length(
      expected.results.length,
    );
    expect(drawn.size).to.equal(expected.results.length);
    await page.close();
    const many = await open(analyze('movies', 'x=major_genre&chart=pie'));
    await drawnValues(many, 'Genres');
    expect(await many.$eval('.total', (p) => p.textContent)).to.include('drawn as columns');
    await many.close();
    const chart = await open(analyze('flights', 'x.level=month'));
    await drawnValues(chart, 'Departure, by month');
    const png = await download(chart, 'PNG');
    expect(png.subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a');
    const svg = (await download(chart, 'SVG')).toString('utf8');
    expect(svg).to.match(/^<svg/);
    expect(svg).to.include('Jan 2001');
    await chart.close();
  });

  it('has no axe-core violation with a split, two axes and a pie, at 1280 and 390 px', async () => {
    const pages = [
      analyze('flights', 'split=origin&y=count&y=avg:delay'),
      analyze('flights', 'y=count&y=avg:delay'),
      analyze('movies', 'x=mpaa_rating&chart=pie'),
    ];
    for (const url of pages) {
      for (const width of [1280, 390]) {
        const page = await open(url, width);
        await page.waitForSelector('.chart-panel[aria-busy=false] .chart svg', { timeout: WAIT_MS });
        expect(await axeViolations(page), `${url} at ${width} px`).to.deep.equal([]);
        await page.close();
      }
    }
  });
});
