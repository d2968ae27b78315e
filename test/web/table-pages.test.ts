// The table tab's paging, summary and formats in a real browser, on the sample portal: the page
// field, first and last give the API's pages; past the record-query cap the page says so in plain
// words and offers the last page and the export; a refine that leaves nothing stays visible and
// removable; numbers and dates read as the visitor's locale writes them; counts say 1 record.
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { clickUntil, useBrowserSuite } from '../helpers/browser.js';
import { axeViolations } from '../helpers/axe.js';

const V21 = '/api/explore/v2.1/catalog/datasets';
const TABLE = (id: string) => `/explore/dataset/${id}/table/`;

/** The first column of the rows shown, joined, once it equals `expected`. */
async function waitForColumn(page: Page, expected: string): Promise<void> {
  await page.waitForFunction(
    (list) =>
      [...document.querySelectorAll('table.records tbody tr td:first-child')]
        .map((td) => td.textContent)
        .join(',') === list,
    {},
    expected,
  );
}

/** Waits until the records count reads `text` ("205 records"). */
async function waitForTotal(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (t) => document.querySelector('.records-region .total')?.textContent === t,
    {},
    text,
  );
}

describe('web: the table tab pages, summary and formats', function () {
  this.timeout(120_000);
  const suite = useBrowserSuite();
  const api = async (id: string, query: string) =>
    (await suite.server.json(`${V21}/${id}/records?${query}`)).body;
  const iatas = async (offset: number) =>
    (await api('airports', `refine=state:CA&order_by=iata&limit=20&offset=${offset}`)).results
      .map((r: any) => r.iata)
      .join(',');

  it('goes to a typed page number, to the last page and back to the first, as the API pages', async () => {
    const total = (await api('airports', 'refine=state:CA&limit=0')).total_count;
    const last = Math.ceil(total / 20);
    const page = await suite.browser.open(
      `${suite.server.base}${TABLE('airports')}?refine.state=CA&sort=iata`,
    );
    await page.waitForSelector('#page-number');
    expect(await page.$eval('.pager .of', (s) => s.textContent)).to.equal(`of ${last}`);
    await page.$eval('#page-number', (input) => ((input as HTMLInputElement).value = ''));
    await page.type('#page-number', '7');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('page') === '7');
    await waitForColumn(page, await iatas(120));
    await clickUntil(
      page,
      'button[aria-label="Last page"]',
      (n) => location.search.includes(`page=${n}`),
      String(last),
    );
    await waitForColumn(page, await iatas((last - 1) * 20));
    expect(await page.$eval('button[aria-label="Next page"]', (b) => b.disabled)).to.equal(true);
    await clickUntil(page, 'button[aria-label="First page"]', () => !location.search.includes('page='), '');
    await waitForColumn(page, await iatas(0));
    expect(await page.$('p.cap')).to.equal(null);
    await page.close();
  });

  it('says how many records can be paged past the cap, linking the export with the filters', async () => {
    const total = (await api('flights', 'refine=origin:SFO&limit=0')).total_count;
    expect(total).to.be.greaterThan(10_000);
    const page = await suite.browser.open(`${suite.server.base}${TABLE('flights')}?refine.origin=SFO`);
    const cap = await page.waitForSelector('p.cap');
    expect(await cap!.evaluate((p) => p.textContent)).to.include(
      `The first 10,000 of ${total.toLocaleString('en-US')} records can be paged through here`,
    );
    expect(await page.$eval('.pager .of', (s) => s.textContent)).to.equal('of 500');
    const href = await cap!.$eval('a', (a) => a.getAttribute('href'));
    expect(href).to.equal('/explore/dataset/flights/export/?refine.origin=SFO');
    await page.close();
  });

  it('answers ?page=600 with a plain-words message in place, and its last-page button gives page 500', async () => {
    const past = await suite.server.json(`${V21}/flights/records?refine=origin:SFO&limit=20&offset=11980`);
    expect(past.status).to.equal(400);
    const page = await suite.browser.open(
      `${suite.server.base}${TABLE('flights')}?refine.origin=SFO&page=600`,
    );
    const notice = await page.waitForSelector('.records-region .notice');
    expect(await notice!.$eval('.plain', (p) => p.textContent)).to.equal(
      'This page is past the 10,000 records a query can page through.',
    );
    expect(await notice!.$eval('.api-message', (p) => p.textContent)).to.equal(past.body.message);
    await page.waitForSelector(
      'xpath/.//div[contains(@class,"notice")]//button[normalize-space(.)="the last page (500)"]',
    );
    expect(await axeViolations(page)).to.deep.equal([]);
    await clickUntil(
      page,
      'xpath/.//div[contains(@class,"notice")]//button[normalize-space(.)="the last page (500)"]',
      (n) => new URL(location.href).searchParams.get('page') === n,
      '500',
    );
    const expected = await api('flights', 'refine=origin:SFO&limit=20&offset=9980');
    await page.waitForSelector('table.records tbody tr');
    const delays = await page.$$eval('table.records tbody tr td:nth-child(2)', (tds) =>
      tds.map((td) => td.getAttribute('title') ?? td.textContent),
    );
    expect(delays).to.deep.equal(expected.results.map((r: any) => String(r.delay)));
    await page.close();
  });

  it('keeps a refine that leaves no record in the summary and the sidebar, removable; Clear all clears', async () => {
    expect((await api('airports', 'refine=state:CA&refine=country:Canada&limit=0')).total_count).to.equal(0);
    const page = await suite.browser.open(
      `${suite.server.base}${TABLE('airports')}?refine.state=CA&refine.country=Canada&sort=name`,
    );
    await waitForTotal(page, '0 records');
    expect(await page.$eval('.empty', (e) => e.textContent)).to.include('No record matches these filters.');
    const items = await page.$$eval('.filters li', (lis) => lis.map((li) => li.textContent));
    expect(items).to.deep.equal(['State is “CA”×', 'Country is “Canada”×', 'Sorted by Airport×']);
    const sidebar = 'xpath/.//section[h2="Country"]//button[span[@class="facet-name"]="Canada"]';
    expect(
      await (await page.waitForSelector(sidebar))!.evaluate((b) => b.getAttribute('aria-pressed')),
    ).to.equal('true');
    expect(await axeViolations(page)).to.deep.equal([]);
    await clickUntil(
      page,
      'button[aria-label="Remove: Country is “Canada”"]',
      () => !location.search.includes('country'),
      '',
    );
    const ca = (await api('airports', 'refine=state:CA&limit=0')).total_count;
    await waitForTotal(page, `${ca} records`);
    expect(new URL(page.url()).searchParams.get('refine.state')).to.equal('CA');
    await clickUntil(page, '.filters .clear-all', () => location.search === '', '');
    const all = (await api('airports', 'limit=0')).total_count;
    await waitForTotal(page, `${all.toLocaleString('en-US')} records`);
    expect(await page.$eval('.filters p', (p) => p.textContent)).to.equal('No filter: every record.');
    await page.close();
  });

  it('writes numbers and dates as the visitor’s locale does, the raw value in the title', async () => {
    const first = (await api('flights', 'limit=1')).results[0];
    const movie = (await api('movies', 'where=release_date%20is%20not%20null&order_by=release_date&limit=1'))
      .results[0];
    expect(first.date).to.match(/T\d\d:\d\d:00\+00:00$/);
    for (const [locale, distance] of [
      ['en-US', first.distance.toLocaleString('en-US')],
      ['de-DE', first.distance.toLocaleString('de-DE')],
    ] as const) {
      const page = await suite.browser.browser.newPage();
      await (await page.createCDPSession()).send('Emulation.setLocaleOverride', { locale });
      await page.goto(`${suite.server.base}${TABLE('flights')}`, { waitUntil: 'networkidle0' });
      const cells = await page.$$eval('table.records tbody tr:first-child td', (tds) =>
        tds.map((td) => [td.textContent, td.getAttribute('title')]),
      );
      const date = new Date(first.date);
      const written = new Intl.DateTimeFormat(locale, {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: 'UTC',
      });
      expect(cells[0]).to.deep.equal([written.format(date), first.date]);
      expect(cells[2]).to.deep.equal([distance, String(first.distance)]);
      expect(cells[0]![0]).to.not.include('T');
      await page.close();
    }
    const page = await suite.browser.open(
      `${suite.server.base}${TABLE('movies')}?where=release_date%20is%20not%20null&sort=release_date`,
    );
    await page.waitForSelector('table.records tbody tr');
    const index = await page.$$eval('table.records thead th', (ths) =>
      ths.findIndex((th) => th.querySelector('[data-field="release_date"]')),
    );
    const cell = await page.$eval(`table.records tbody tr:first-child td:nth-child(${index + 1})`, (td) => [
      td.textContent,
      td.getAttribute('title'),
    ]);
    const [y, m, d] = (movie.release_date as string).split('-').map(Number) as [number, number, number];
    const expected = new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', {
      dateStyle: 'medium',
      timeZone: 'UTC',
    });
    expect(cell).to.deep.equal([expected, movie.release_date]);
    await page.close();
  });

  it('says 1 record, 1 dataset, 1 group and 0 datasets', async () => {
    const page = await suite.browser.open(
      `${suite.server.base}${TABLE('airports')}?where=${encodeURIComponent('iata = "SFO"')}`,
    );
    await waitForTotal(page, '1 record');
    await page.close();
    const one = (
      await suite.server.json(
        `/api/explore/v2.1/catalog/datasets?where=${encodeURIComponent('search(*, "weather")')}&limit=0`,
      )
    ).body.total_count;
    expect(one).to.equal(1);
    const catalog = await suite.browser.open(`${suite.server.base}/?q=weather`);
    await catalog.waitForFunction(
      () => document.querySelector('.datasets-region .total')?.textContent === '1 dataset',
    );
    await catalog.close();
    const chart = await suite.browser.open(
      `${suite.server.base}/explore/dataset/movies/analyze/?refine.mpaa_rating=R&x=mpaa_rating&y=count`,
    );
    await chart.waitForFunction(
      () => document.querySelector('.chart-panel .total')?.textContent === '1 group',
    );
    await chart.close();
    const none = await suite.browser.open(`${suite.server.base}/?q=zzzzqqq`);
    await none.waitForFunction(
      () => document.querySelector('.datasets-region .total')?.textContent === '0 datasets',
    );
    expect(await none.$eval('.empty', (e) => e.textContent)).to.include('No dataset matches these filters.');
    await none.close();
  });
});
