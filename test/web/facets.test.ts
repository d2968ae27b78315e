// The table tab's sidebar in a real browser: every value of a long facet reached by pages of 100
// and by its search (flights' 229 origins, as the facets API lists them), date and number range
// facets giving the rows and total_count of the equivalent API query, a new dataset's automatic
// facets shown, and no axe-core violation.
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { ingest } from '../../src/ingest/ingest.js';
import { axeViolations } from '../helpers/axe.js';
import { clickUntil, useBrowserSuite } from '../helpers/browser.js';
import { startTestServer } from '../helpers/server.js';

const api = (id: string, what: string) => `/api/explore/v2.1/catalog/datasets/${id}/${what}`;
const table = (id: string) => `/explore/dataset/${id}/table/`;

interface Value {
  readonly name: string;
  readonly count: number;
}

/** What a list must hold before it is read: so many values, or one of this name. */
type Ready = { readonly length: number } | { readonly has: string };

/** The values a facet section lists, once it is not busy and holds what `ready` says. */
async function listed(page: Page, label: string, ready: Ready): Promise<Value[]> {
  const handle = await page.waitForFunction(
    (heading, test: Ready) => {
      const section = [...document.querySelectorAll('.facets section')].find(
        (s) => s.querySelector('h2')?.textContent === heading,
      );
      if (!section || section.getAttribute('aria-busy') === 'true') return null;
      const values = [...section.querySelectorAll(':scope > ul > li .facet-value')].map((b) => ({
        name: b.querySelector('.facet-name')?.textContent ?? '',
        count: Number((b.querySelector('.count')?.textContent ?? '').replace(/\D/g, '')),
      }));
      const holds =
        'length' in test ? values.length === test.length : values.some((v) => v.name === test.has);
      return holds ? values : null;
    },
    {},
    label,
    ready,
  );
  return (await handle.jsonValue()) as Value[];
}

/** The count the table shows, once it equals `expected` (or the wait times out on another). */
async function waitForCount(page: Page, expected: number): Promise<void> {
  await page.waitForFunction(
    (n) => document.querySelector('.total output')?.textContent?.replace(/\D/g, '') === String(n),
    {},
    expected,
  );
}

/** The first column of the rows the table shows (a cell's raw value: its title when formatted). */
const firstCells = (page: Page): Promise<string[]> =>
  page.$$eval('table.records tbody tr td:first-child', (cells) =>
    cells.map((c) => c.getAttribute('title') ?? c.textContent ?? ''),
  );

describe('web: facets of the sample portal (flights)', function () {
  this.timeout(120_000);
  const suite = useBrowserSuite();

  const facetAnswer = async (query: string): Promise<Value[]> => {
    const { body } = await suite.server.json(`${api('flights', 'facets')}?${query}`);
    return body.facets[0].facets.map((v: Value) => ({ name: v.name, count: v.count }));
  };

  it('reaches all 229 origins by pages of 100, as the facets API lists them', async () => {
    const all = await facetAnswer(`facet=${encodeURIComponent('facet(name="origin", limit=1000)')}`);
    expect(all).to.have.length(229);
    const page = await suite.browser.open(`${suite.server.base}${table('flights')}`);
    await listed(page, 'Origin airport', { length: 8 });
    await page.click('xpath/.//section[h2="Origin airport"]/button[text()="Show more values"]');
    const seen: Value[] = [...(await listed(page, 'Origin airport', { length: 100 }))];
    for (const size of [100, 29]) {
      await page.click('xpath/.//section[h2="Origin airport"]//nav//button[starts-with(text(), "Next")]');
      seen.push(...(await listed(page, 'Origin airport', { length: size })));
    }
    const next = await page.$(
      'xpath/.//section[h2="Origin airport"]//nav//button[starts-with(text(), "Next")]',
    );
    expect(await next!.evaluate((b) => (b as HTMLButtonElement).disabled)).to.equal(true);
    expect(seen).to.deep.equal(all);
    await page.close();
  });

  it('finds a value past the first 100 by searching, and refines on it with the count of the API', async () => {
    const all = await facetAnswer(`facet=${encodeURIComponent('facet(name="origin", limit=1000)')}`);
    const page = await suite.browser.open(`${suite.server.base}${table('flights')}`);
    await page.type('input[aria-label="Search the values of Origin airport"]', 'SF');
    const where = encodeURIComponent('suggest(`origin`, "SF")');
    const expected = await facetAnswer(
      `facet=${encodeURIComponent('facet(name="origin", limit=101)')}&where=${where}`,
    );
    expect(expected.map((v) => v.name)).to.include('SFO');
    expect(await listed(page, 'Origin airport', { has: 'SFO' })).to.deep.equal(expected);
    const last = all[all.length - 1]!;
    const box = 'input[aria-label="Search the values of Origin airport"]';
    await page.click(box, { clickCount: 3 });
    await page.keyboard.press('Backspace');
    await page.type(box, last.name.toLowerCase());
    const found = await listed(page, 'Origin airport', { has: last.name });
    expect(found.find((v) => v.name === last.name)).to.deep.equal(last);
    await clickUntil(
      page,
      `xpath/.//section[h2="Origin airport"]//button[span[@class="facet-name"]="${last.name}"]`,
      (name) => new URL(location.href).searchParams.get('refine.origin') === name,
      last.name,
    );
    await waitForCount(page, last.count);
    await page.close();
  });

  it('filters on a date range typed in its inputs or picked on its histogram, as the equivalent where', async () => {
    const page = await suite.browser.open(`${suite.server.base}${table('flights')}?refine.origin=SFO`);
    await page.waitForSelector('.range-facet .histogram rect');
    await page.type('input[name="range-date-from"]', '02012001');
    await page.type('input[name="range-date-to"]', '02142001');
    await page.click('.range-facet button[type=submit]');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('q.timerange.date') !== null);
    expect(new URL(page.url()).searchParams.get('q.timerange.date')).to.equal(
      'date:[2001-02-01 TO 2001-02-14]',
    );
    const where = encodeURIComponent(`date >= date'2001-02-01' and date < date'2001-02-15'`);
    const equivalent = (
      await suite.server.json(`${api('flights', 'records')}?refine=origin:SFO&where=${where}&limit=20`)
    ).body;
    expect(equivalent.total_count).to.be.greaterThan(0).and.below(60_869);
    await waitForCount(page, equivalent.total_count);
    const dates = equivalent.results.map((r: { date: string }) => r.date).join(',');
    await page.waitForFunction(
      (list) =>
        [...document.querySelectorAll('table.records tbody tr td:first-child')]
          .map((td) => td.getAttribute('title') ?? td.textContent)
          .join(',') === list,
      {},
      dates,
    );
    const bars = await page.$$('.range-facet .histogram rect.on');
    expect(bars.length).to.be.within(2, 4);
    // A click on the first bar selects its week (flights' six months are drawn by week).
    const box = await page.$eval('.range-facet .histogram', (svg) => {
      const r = svg.getBoundingClientRect();
      return { x: r.x, y: r.y, height: r.height, width: r.width, bars: svg.querySelectorAll('rect').length };
    });
    await page.mouse.click(box.x + box.width / box.bars / 2, box.y + box.height - 2);
    await page.waitForFunction(
      () => new URL(location.href).searchParams.get('q.timerange.date') === 'date:[2001-01-01 TO 2001-01-07]',
    );
    const week = encodeURIComponent(`date >= date'2001-01-01' and date < date'2001-01-08'`);
    await waitForCount(
      page,
      (await suite.server.json(`${api('flights', 'records')}?refine=origin:SFO&where=${week}&limit=0`)).body
        .total_count,
    );
    await page.close();
  });

  it('has no axe-core violation with a search and a range, at 1280 and 390 px', async () => {
    for (const width of [1280, 390]) {
      const page = await suite.browser.open(
        `${suite.server.base}${table('flights')}?q.timerange.date=${encodeURIComponent('date:[2001-03-01 TO 2001-03-31]')}`,
        { width, height: 900 },
      );
      await page.type('input[aria-label="Search the values of Destination airport"]', 'LA');
      await listed(page, 'Destination airport', { has: 'LAX' });
      await page.waitForSelector('.range-facet[aria-busy=false] .histogram rect.on');
      expect(await axeViolations(page), `${width} px`).to.deep.equal([]);
      await page.screenshot({
        path: path.join(os.tmpdir(), `duckportal-facets-${width}.png`),
        fullPage: true,
      });
      await page.close();
    }
  });
});

/** 300 readings: a station of 6, a kind of 3, a value (double), a count (int) and a day. */
function readingsCsv(): string {
  const lines = ['station,kind,value,count,day,note'];
  for (let i = 0; i < 300; i++) {
    const day = `2021-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
    lines.push(
      `S${i % 6},${['rain', 'wind', 'sun'][i % 3]},${((i * 7.3) % 100).toFixed(1)},${i % 40},${day},note ${i}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

describe('web: range facets and automatic facets (fixture portal)', function () {
  this.timeout(120_000);
  let dir = '';
  const suite = useBrowserSuite(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-facets-'));
    const csv = path.join(dir, 'readings.csv');
    await writeFile(csv, readingsCsv());
    const portal = path.join(dir, 'portal');
    await ingest({ file: csv, portal, id: 'readings', facets: ['station', 'value', 'count'] });
    await ingest({ file: csv, portal, id: 'auto' });
    return startTestServer(portal);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('filters on a number range typed in its inputs, as the equivalent where', async () => {
    const page = await suite.browser.open(`${suite.server.base}${table('readings')}`);
    await page.waitForSelector('.range-facet[aria-labelledby="range-value-title"] .histogram rect');
    await page.type('input[name="range-value-from"]', '12.5');
    await page.type('input[name="range-value-to"]', '40');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => new URL(location.href).searchParams.get('q.range.value') === 'value:[12.5 TO 40]',
    );
    const where = encodeURIComponent('value >= 12.5 and value <= 40');
    const equivalent = (await suite.server.json(`${api('readings', 'records')}?where=${where}&limit=20`))
      .body;
    expect(equivalent.total_count).to.be.greaterThan(20).and.below(300);
    await waitForCount(page, equivalent.total_count);
    expect(await firstCells(page)).to.deep.equal(
      equivalent.results.map((r: { station: string }) => r.station),
    );
    // An open end: counts from 30 up, on the integer field.
    await page.focus('input[name="range-count-from"]');
    await page.keyboard.type('30');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => new URL(location.href).searchParams.get('q.range.count') === 'count:[30 TO *]',
    );
    const both = encodeURIComponent('value >= 12.5 and value <= 40 and `count` >= 30');
    await waitForCount(
      page,
      (await suite.server.json(`${api('readings', 'records')}?where=${both}&limit=0`)).body.total_count,
    );
    expect(await axeViolations(page)).to.deep.equal([]);
    // Each range is an item of the filter summary, removed by its own control.
    const items = await page.$$eval('.filters li > span', (spans) => spans.map((s) => s.textContent));
    expect(items).to.include.members(['value from 12.5 to 40', 'count at least 30']);
    await clickUntil(
      page,
      'button[aria-label="Remove: count at least 30"]',
      () => !new URL(location.href).searchParams.has('q.range.count'),
      '',
    );
    await waitForCount(page, equivalent.total_count);
    expect(new URL(page.url()).searchParams.get('q.range.value')).to.equal('value:[12.5 TO 40]');
    await page.close();
  });

  it("shows a new dataset's automatic facets, as its dataset.json records them", async () => {
    const { body } = await suite.server.json('/api/explore/v2.1/catalog/datasets/auto');
    const facets = body.fields
      .filter((f: { annotations: object }) => 'facet' in f.annotations)
      .map((f: { name: string }) => f.name);
    expect(facets).to.deep.equal(['station', 'kind', 'day']);
    const page = await suite.browser.open(`${suite.server.base}${table('auto')}`);
    await page.waitForSelector('.facets section:not(.range-facet) h2');
    await listed(page, 'kind', { length: 3 });
    const headings = await page.$$eval('.facets section:not(.range-facet) > h2', (hs) =>
      hs.map((h) => h.textContent),
    );
    expect(headings).to.deep.equal(['station', 'kind', 'day']);
    expect(await page.$$eval('.facets .range-facet h2', (hs) => hs.map((h) => h.textContent))).to.deep.equal([
      'day range',
    ]);
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.close();
  });
});
