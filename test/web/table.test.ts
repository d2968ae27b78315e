// The table tab in a real browser, on the sample portal: its count, order and errors are the
// API's for the same parameters; a row opens the whole record; tabs carry the filters.
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { clickUntil, useBrowserSuite } from '../helpers/browser.js';

const RECORDS = '/api/explore/v2.1/catalog/datasets/airports/records';
const TABLE = '/explore/dataset/airports/table/';

/** The count the page shows, once loaded, as a number. */
async function shownCount(page: Page): Promise<number> {
  await page.waitForFunction(() => /\d/.test(document.querySelector('.total output')?.textContent ?? ''));
  return Number((await page.$eval('.total output', (o) => o.textContent ?? '')).replace(/\D/g, ''));
}

/** Waits until the page shows `count` (not the count of the state before). */
async function waitForCount(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (n) => document.querySelector('.total output')?.textContent?.replace(/\D/g, '') === String(n),
    {},
    count,
  );
}

/** The text of the first row's cells. */
async function firstRow(page: Page): Promise<string[]> {
  return page.$$eval('table.records tbody tr:first-child td', (cells) =>
    cells.map((c) => c.textContent ?? ''),
  );
}

describe('web: the table tab', function () {
  this.timeout(60_000);
  const suite = useBrowserSuite();

  const api = async (query: string) => (await suite.server.json(`${RECORDS}?${query}`)).body;

  it("shows the API's total_count for a refine, in a table headed by the field labels", async () => {
    const { total_count } = await api('refine=state:CA&limit=0');
    expect(total_count).to.be.greaterThan(20);
    const page = await suite.browser.open(`${suite.server.base}${TABLE}?refine.state=CA`);
    expect(await shownCount(page)).to.equal(total_count);
    const headers = await page.$$eval('table.records thead th', (ths) =>
      ths.map((th) => th.textContent?.trim()),
    );
    expect(headers.slice(0, 3)).to.deep.equal(['IATA/FAA code', 'Airport', 'City']);
    expect(await page.$$eval('table.records tbody tr', (rows) => rows.length)).to.equal(20);
    await page.close();
  });

  it('excludes a facet value, and refines down a hierarchical facet, with the counts of the API', async () => {
    const page = await suite.browser.open(`${suite.server.base}${TABLE}`);
    await clickUntil(
      page,
      'button[aria-label="Exclude AK"]',
      (state) => new URL(location.href).searchParams.get('exclude.state') === state,
      'AK',
    );
    const withoutAlaska = (await api('exclude=state:AK&limit=0')).total_count;
    await waitForCount(page, withoutAlaska);
    expect(withoutAlaska).to.be.below((await api('limit=0')).total_count);
    const usa = 'xpath/.//section[h2="Country / state"]//button[span[@class="facet-name"]="USA"]';
    const refined = (value: string) =>
      new URL(location.href).searchParams.getAll('refine.location').includes(value);
    await clickUntil(page, usa, refined, 'USA');
    const texas = 'xpath/.//section[h2="Country / state"]//ul//ul//button[span[@class="facet-name"]="TX"]';
    await clickUntil(page, texas, refined, 'USA/TX');
    const expected = (await api('exclude=state:AK&refine=location:USA&refine=location:USA%2FTX&limit=0'))
      .total_count;
    expect(expected).to.be.greaterThan(0).and.below(withoutAlaska);
    await waitForCount(page, expected);
    await page.close();
  });

  it("sorts by a column on a header click, as the API's order_by, and the other way on a second", async () => {
    const page = await suite.browser.open(`${suite.server.base}${TABLE}?refine.state=CA`);
    await page.waitForSelector('table.records tbody tr');
    for (const [order, sort] of [
      ['name', 'name'],
      ['name desc', '-name'],
    ] as const) {
      const expected = (await api(`refine=state:CA&order_by=${encodeURIComponent(order)}&limit=1`))
        .results[0];
      await clickUntil(
        page,
        'button.sort-button[data-field=name]',
        (s) => new URL(location.href).searchParams.get('sort') === s,
        sort,
      );
      await page.waitForFunction(
        (name) => document.querySelector('table.records tbody tr td:nth-child(2)')?.textContent === name,
        {},
        expected.name,
      );
      expect((await firstRow(page))[0]).to.equal(expected.iata);
      const ariaSort = await page.$eval('th:has(button[data-field=name])', (th) =>
        th.getAttribute('aria-sort'),
      );
      expect(ariaSort).to.equal(sort.startsWith('-') ? 'descending' : 'ascending');
    }
    await page.close();
  });

  it("pages forward and back as the API's offset, sorted from the keyboard", async () => {
    const page = await suite.browser.open(`${suite.server.base}${TABLE}?refine.state=CA`);
    await page.waitForSelector('table.records tbody tr');
    await page.focus('button.sort-button[data-field=iata]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('sort') === 'iata');
    for (const [button, number] of [
      ['Next', 2],
      ['Next', 3],
      ['Previous', 2],
    ] as const) {
      const expected = await api(`refine=state:CA&order_by=iata&limit=20&offset=${(number - 1) * 20}`);
      await clickUntil(
        page,
        `xpath/.//nav[@class="pager"]/button[text()="${button}"]`,
        (n) => new URL(location.href).searchParams.get('page') === n,
        String(number),
      );
      const iatas = expected.results.map((r: any) => r.iata).join(',');
      await page.waitForFunction(
        (list) =>
          [...document.querySelectorAll('table.records tbody tr td:first-child')]
            .map((td) => td.textContent)
            .join(',') === list,
        {},
        iatas,
      );
      expect(await page.$eval('#page-number', (input) => (input as HTMLInputElement).value)).to.equal(
        String(number),
      );
      expect(await page.$eval('.pager .of', (s) => s.textContent)).to.equal('of 11');
    }
    await page.close();
  });

  it("shows the API's QueryLangError next to the where box, and recovers when the where is fixed", async () => {
    const bad = "state = 'CA' and";
    const answer = await suite.server.json(`${RECORDS}?where=${encodeURIComponent(bad)}`);
    expect(answer.status).to.equal(400);
    expect(answer.body.error_code).to.equal('QueryLangError');
    const page = await suite.browser.open(`${suite.server.base}${TABLE}?where=${encodeURIComponent(bad)}`);
    const error = await page.waitForSelector('#where-error');
    expect(await error!.evaluate((e) => e.textContent)).to.include(answer.body.message);
    expect(await page.$eval('#where', (input) => (input as HTMLInputElement).value)).to.equal(bad);
    await page.$eval('#where', (input) => ((input as HTMLInputElement).value = ''));
    await page.type('#where', "state = 'CA'");
    await page.keyboard.press('Enter');
    expect(await shownCount(page)).to.equal((await api('where=state%3D%27CA%27&limit=0')).total_count);
    expect(await page.$('#where-error')).to.equal(null);
    await page.close();
  });

  it('opens the whole record from a row, with the keyboard too', async () => {
    const expected = (await api('refine=state:CA&limit=1')).results[0];
    const page = await suite.browser.open(`${suite.server.base}${TABLE}?refine.state=CA`);
    await page.waitForSelector('table.records tbody tr');
    await page.focus('table.records tbody tr');
    await page.keyboard.press('Enter');
    await page.waitForSelector('dialog.record[open] dl div');
    const shown = await page.$$eval('dialog.record dl div', (items) =>
      Object.fromEntries(
        items.map((i) => [i.querySelector('dt')?.textContent, i.querySelector('dd')?.textContent]),
      ),
    );
    expect(shown).to.include({ 'IATA/FAA code': expected.iata, Airport: expected.name, City: expected.city });
    expect(shown['Geo point']).to.equal(`${expected.geo_point_2d.lat}, ${expected.geo_point_2d.lon}`);
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog.record:not([open])');
    await page.close();
  });

  it('carries the filters to another tab, and fits a 375 px wide screen', async () => {
    const page = await suite.browser.open(`${suite.server.base}${TABLE}?refine.state=CA&q=municipal`, {
      width: 375,
      height: 800,
    });
    await shownCount(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(375);
    await Promise.all([
      page.waitForNavigation(),
      page.click('nav.tabs a[href*="/explore/dataset/airports/api/"]'),
    ]);
    const url = new URL(page.url());
    expect(url.pathname).to.equal('/explore/dataset/airports/api/');
    expect(url.searchParams.get('refine.state')).to.equal('CA');
    expect(url.searchParams.get('q')).to.equal('municipal');
    const recordsUrl = await (await page.waitForSelector('#records-url'))!.evaluate((a) =>
      a.getAttribute('href')!,
    );
    const viaTab = await suite.server.json(recordsUrl.replace(suite.server.base, ''));
    const direct = await api(
      `refine=state:CA&where=${encodeURIComponent('search(*, "municipal")')}&limit=20`,
    );
    expect(viaTab.body).to.deep.equal(direct);
    expect(direct.total_count).to.be.greaterThan(0);
    await page.close();
  });

  it('answers an unknown dataset with the 404 page', async () => {
    const page = await suite.browser.browser.newPage();
    const response = await page.goto(`${suite.server.base}/explore/dataset/no-such-thing/table/`);
    expect(response?.status()).to.equal(404);
    expect(await page.$eval('h1', (h) => h.textContent)).to.equal('Dataset not found or not allowed');
    await page.close();
  });
});
