// The catalog page in a real browser, on the sample portal: what it lists is what the catalog
// API answers for the same parameters (and no request leaves the origin: useBrowserSuite).
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { useBrowserSuite } from '../helpers/browser.js';

const V21 = '/api/explore/v2.1';

async function shownTitles(page: Page): Promise<string[]> {
  return page.$$eval('.card h2 a', (links) => links.map((a) => a.textContent ?? ''));
}

describe('web: the catalog page', function () {
  this.timeout(60_000);
  const suite = useBrowserSuite();

  async function apiTitles(query: string): Promise<string[]> {
    const { body } = await suite.server.json(`${V21}/catalog/datasets?limit=100&${query}`);
    return body.results.map((d: any) => d.metas.default.title);
  }

  it('lists the datasets of the catalog API, in the portal language', async () => {
    const titles = await apiTitles('');
    expect(titles.length).to.be.greaterThan(1);
    const page = await suite.browser.open(`${suite.server.base}/`);
    await page.waitForSelector('.card h2 a');
    expect(await shownTitles(page)).to.have.members(titles);
    expect(await page.$eval('.total output', (o) => o.textContent)).to.equal(String(titles.length));
    expect(await page.$eval('html', (html) => html.lang)).to.equal('en');
    await page.close();
  });

  it('narrows the list to what a search finds, and keeps the search in the URL', async () => {
    const expected = await apiTitles(`where=${encodeURIComponent('search(*, "weather")')}`);
    expect(expected)
      .to.have.length.greaterThan(0)
      .and.lessThan((await apiTitles('')).length);
    const page = await suite.browser.open(`${suite.server.base}/explore/`);
    await page.waitForSelector('.card h2 a');
    await page.type('input[name=q]', 'weather');
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => document.querySelectorAll('.card').length === n, {}, expected.length);
    expect(await shownTitles(page)).to.deep.equal(expected);
    expect(new URL(page.url()).searchParams.get('q')).to.equal('weather');
    await page.close();
  });

  it('sorts the cards as the API orders the catalog', async () => {
    const page = await suite.browser.open(`${suite.server.base}/`);
    await page.waitForSelector('.card h2 a');
    for (const [sort, orderBy] of [
      ['title', 'title'],
      ['-records_count', 'records_count desc'],
    ] as const) {
      const expected = await apiTitles(`order_by=${encodeURIComponent(orderBy)}`);
      await page.select('label.sort select', sort);
      await page.waitForFunction((s) => new URL(location.href).searchParams.get('sort') === s, {}, sort);
      await page.waitForFunction(
        (titles) =>
          [...document.querySelectorAll('.card h2 a')].map((a) => a.textContent).join('\n') === titles,
        {},
        expected.join('\n'),
      );
      expect(await shownTitles(page)).to.deep.equal(expected);
    }
    await page.close();
  });

  it('refines on a facet value with a click, and removes the refinement with a second', async () => {
    const expected = await apiTitles('refine=theme:Transport');
    const page = await suite.browser.open(`${suite.server.base}/`);
    const button = 'xpath/.//section[h2="Theme"]//button[span[@class="facet-name"]="Transport"]';
    await (await page.waitForSelector(button))!.click();
    await page.waitForFunction((n) => document.querySelectorAll('.card').length === n, {}, expected.length);
    expect(await shownTitles(page)).to.have.members(expected);
    expect(new URL(page.url()).searchParams.get('refine.theme')).to.equal('Transport');
    await (await page.waitForSelector(button))!.click();
    await page.waitForFunction(() => !location.search.includes('refine'));
    await page.waitForFunction(
      (n) => document.querySelectorAll('.card').length === n,
      {},
      (await apiTitles('')).length,
    );
    await page.close();
  });
});
