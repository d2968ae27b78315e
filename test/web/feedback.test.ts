// Feedback while the pages wait, in a real browser on the sample portal: a region is busy while a
// genuinely slow query over the 3M flights runs (its indicator shown after 150 ms) and not after;
// of two queries in quick succession only the second's answer is ever shown; a failed request says
// what happened in plain words, in place, with a Retry that asks again.
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { useBrowserSuite } from '../helpers/browser.js';
import { axeViolations } from '../helpers/axe.js';

const FLIGHTS = '/explore/dataset/flights/table/';
const RECORDS = '/api/explore/v2.1/catalog/datasets/flights/records';

/**
 * A where DuckDB must format every one of the 3M dates for (about 1 s on this machine class, 6x
 * that under load), made unique so that no cache has its answer: it matches nothing.
 */
function slowWhere(): string {
  return `date_format(date, "EEEE HH") like "nothing-${Date.now()}-${Math.random()}"`;
}

/** Types `where` in the where box and applies it. */
async function applyWhere(page: Page, where: string): Promise<void> {
  await page.$eval('#where', (input) => ((input as HTMLInputElement).value = ''));
  await page.type('#where', where);
  await page.keyboard.press('Enter');
}

/** Every text the count of the records region shows from now on, in order. */
async function recordCounts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seenCounts: string[] }).seenCounts = seen;
    const region = document.querySelector('.records-region')!;
    new MutationObserver(() => {
      const text = region.querySelector('.total output')?.textContent ?? '';
      if (seen[seen.length - 1] !== text) seen.push(text);
    }).observe(region, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { seenCounts: string[] }).seenCounts);
}

describe('web: feedback while waiting, and errors in place', function () {
  this.timeout(120_000);
  const suite = useBrowserSuite();

  const count = async (query: string) =>
    (await suite.server.json(`${RECORDS}?${query}&limit=0`)).body.total_count as number;

  it('marks the records and facets busy during a slow query, with an indicator after 150 ms, and clears it after', async () => {
    const page = await suite.browser.open(`${suite.server.base}${FLIGHTS}`);
    await page.waitForSelector('table.records tbody tr');
    expect(await page.$('[aria-busy="true"]')).to.equal(null);
    const where = slowWhere();
    await applyWhere(page, where);
    await page.waitForSelector('.records-region[aria-busy="true"]');
    expect(await page.$('.facets-region[aria-busy="true"]')).to.not.equal(null);
    // The indicator is a pseudo-element whose visibility an animation turns on after 150 ms.
    await page.waitForFunction(() => {
      const region = document.querySelector('.records-region[aria-busy="true"]');
      return region !== null && getComputedStyle(region, '::after').visibility === 'visible';
    });
    expect(await page.$eval('.records-region', (r) => getComputedStyle(r, '::after').content)).to.equal(
      '"Loading…"',
    );
    await page.waitForSelector('.records-region[aria-busy="false"]', { timeout: 90_000 });
    await page.waitForSelector('.facets-region[aria-busy="false"]', { timeout: 90_000 });
    expect(await page.$eval('.records-region', (r) => getComputedStyle(r, '::after').content)).to.equal(
      'none',
    );
    expect(await count(`where=${encodeURIComponent(where)}`)).to.equal(0);
    expect(await page.$eval('.records-region .total', (p) => p.textContent)).to.equal('0 records');
    expect(await page.$eval('.empty', (p) => p.textContent)).to.include('No record matches these filters.');
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.close();
  });

  it("never shows the first of two quick queries' answer: the first is aborted, the second's stays", async () => {
    const page = await suite.browser.open(`${suite.server.base}${FLIGHTS}`);
    await page.waitForSelector('table.records tbody tr');
    const aborted: string[] = [];
    page.on('requestfailed', (request) => aborted.push(request.url()));
    const seen = await recordCounts(page);
    const slow = slowWhere();
    await applyWhere(page, slow);
    await page.waitForSelector('.records-region[aria-busy="true"]');
    const fast = 'origin = "SFO" and delay > 60';
    await applyWhere(page, fast);
    const expected = await count(`where=${encodeURIComponent(fast)}`);
    expect(expected).to.be.greaterThan(0);
    await page.waitForFunction(
      (n) => document.querySelector('.records-region .total output')?.textContent?.replace(/\D/g, '') === n,
      {},
      String(expected),
    );
    // Long enough for the slow query's answer to have come, had it not been aborted.
    const started = Date.now();
    await count(`where=${encodeURIComponent(slowWhere())}`);
    const slowMs = Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, slowMs));
    const shown = await seen();
    expect(shown.map((text) => text.replace(/\D/g, ''))).to.not.include('0');
    expect(shown[shown.length - 1]!.replace(/\D/g, '')).to.equal(String(expected));
    expect(aborted.some((url) => new URL(url).searchParams.get('where') === slow)).to.equal(true);
    await page.close();
  });

  it('shows a failed request in plain words in place, and Retry asks again', async () => {
    const page = await suite.browser.browser.newPage();
    await page.setRequestInterception(true);
    let refused = 0;
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/airports/records') && refused === 0) {
        refused++;
        void request.respond({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({
            error_code: 'ServerBusy',
            message: 'The server is busy: retry in a moment.',
          }),
        });
      } else void request.continue();
    });
    await page.goto(`${suite.server.base}/explore/dataset/airports/table/?refine.state=CA`, {
      waitUntil: 'networkidle0',
    });
    const notice = await page.waitForSelector('.records-region .notice[role="alert"]');
    expect(await notice!.$eval('.plain', (p) => p.textContent)).to.equal(
      'The server is busy right now: retry in a moment.',
    );
    expect(await notice!.$eval('.api-message', (p) => p.textContent)).to.equal(
      'The server is busy: retry in a moment.',
    );
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.click('.records-region .notice button');
    await page.waitForSelector('table.records tbody tr');
    expect(await page.$('.records-region .notice')).to.equal(null);
    expect(Number((await page.$eval('.total output', (o) => o.textContent)).replace(/\D/g, ''))).to.equal(
      (await suite.server.json('/api/explore/v2.1/catalog/datasets/airports/records?refine=state:CA&limit=0'))
        .body.total_count,
    );
    await page.close();
  });
});
