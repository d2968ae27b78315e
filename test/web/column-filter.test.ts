// The table's column filters in a real browser, on the sample portal: text contains, a number
// range and a date range, each opened from its column header (keyboard included), give the
// total_count and first rows of the equivalent API query; equals on a facet field is a refine;
// each shows in the filter summary, is removable, and goes to the other tabs' URLs.
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { useBrowserSuite } from '../helpers/browser.js';
import { axeViolations } from '../helpers/axe.js';

const V21 = '/api/explore/v2.1/catalog/datasets';
const TABLE = (id: string) => `/explore/dataset/${id}/table/`;

/** Opens the filter of `field`'s column and fills its inputs (by name) in order, then applies. */
async function filterColumn(page: Page, field: string, values: Record<string, string>): Promise<void> {
  await page.click(`.filter-toggle[data-field="${field}"]`);
  const popover = await page.waitForSelector('.column-filter:popover-open');
  for (const [name, value] of Object.entries(values)) {
    const input = (await popover!.$(`[name="${name}"]`))!;
    if (name === 'op') await input.select(value);
    else {
      await input.evaluate((i) => ((i as HTMLInputElement).value = ''));
      await input.type(value);
    }
  }
  await (await popover!.$('button[type="submit"]'))!.click();
  await page.waitForSelector('.column-filter:popover-open', { hidden: true });
}

/** The shown count and the first rows' cells (their raw values), once the count is `total`. */
async function shown(page: Page, total: number, columns: number): Promise<string[][]> {
  await page.waitForFunction(
    (n) =>
      document
        .querySelector('.records-region[aria-busy="false"] .total output')
        ?.textContent?.replace(/\D/g, '') === String(n),
    {},
    total,
  );
  return page.$$eval(
    'table.records tbody tr',
    (rows, n) =>
      rows
        .slice(0, 5)
        .map((row) =>
          [...row.querySelectorAll('td')]
            .slice(0, n)
            .map((td) => td.getAttribute('title') ?? td.textContent ?? ''),
        ),
    columns,
  );
}

describe('web: the column filters of the table', function () {
  this.timeout(120_000);
  const suite = useBrowserSuite();
  const api = async (id: string, query: Record<string, string | string[]>) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      for (const one of [value].flat()) params.append(name, one);
    }
    return (await suite.server.json(`${V21}/${id}/records?${params}`)).body;
  };

  it('text contains: the rows of where name like "...", in the summary, carried to the API tab', async () => {
    const expected = await api('airports', { where: 'name like "muni"', limit: '5' });
    expect(expected.total_count).to.be.within(1, 3375);
    const page = await suite.browser.open(`${suite.server.base}${TABLE('airports')}`);
    await page.waitForSelector('table.records tbody tr');
    await filterColumn(page, 'name', { op: 'contains', value: 'muni' });
    const rows = await shown(page, expected.total_count, 3);
    expect(rows).to.deep.equal(expected.results.map((r: any) => [r.iata, r.name, r.city]));
    expect(new URL(page.url()).searchParams.get('where.name')).to.equal('`name` like "muni"');
    expect(await page.$$eval('.filters li', (lis) => lis.map((li) => li.textContent))).to.deep.equal([
      'Airport contains “muni”×',
    ]);
    await Promise.all([page.waitForNavigation(), page.click('nav.tabs a[href*="/api/"]')]);
    const url = await (await page.waitForSelector('#records-url'))!.evaluate((a) => a.getAttribute('href')!);
    expect(new URL(url).searchParams.getAll('where')).to.deep.equal(['`name` like "muni"']);
    await page.close();
  });

  it('number range: the rows of delay >= 10 and delay <= 20, removable from the summary', async () => {
    const where = 'delay >= 10 and delay <= 20';
    const expected = await api('flights', { where, refine: 'origin:SFO', limit: '5' });
    const page = await suite.browser.open(`${suite.server.base}${TABLE('flights')}?refine.origin=SFO`);
    await page.waitForSelector('table.records tbody tr');
    await filterColumn(page, 'delay', { min: '10', max: '20' });
    const rows = await shown(page, expected.total_count, 5);
    expect(rows).to.deep.equal(
      expected.results.map((r: any) => [
        r.date,
        String(r.delay),
        String(r.distance),
        r.origin,
        r.destination,
      ]),
    );
    const item = 'button[aria-label="Remove: Delay (minutes) from 10 to 20"]';
    await (await page.waitForSelector(item))!.click();
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('where.delay'));
    await shown(page, (await api('flights', { refine: 'origin:SFO', limit: '0' })).total_count, 1);
    await page.close();
  });

  it('date range, from the keyboard: the rows of the days from..to included; Escape gives the focus back', async () => {
    const expected = await api('flights', {
      where: "date >= date'2001-02-01' and date < date'2001-02-04'",
      limit: '5',
    });
    expect(expected.total_count).to.be.greaterThan(0);
    const page = await suite.browser.open(`${suite.server.base}${TABLE('flights')}`);
    await page.waitForSelector('table.records tbody tr');
    await page.focus('.filter-toggle[data-field="date"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.column-filter:popover-open');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).to.equal('from');
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.keyboard.press('Escape');
    await page.waitForSelector('.column-filter:popover-open', { hidden: true });
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.field)).to.equal('date');
    await filterColumn(page, 'date', { from: '02012001', to: '02032001' });
    expect(new URL(page.url()).searchParams.get('where.date')).to.equal(
      "`date` >= date'2001-02-01' and `date` <= date'2001-02-03'",
    );
    const rows = await shown(page, expected.total_count, 2);
    expect(rows).to.deep.equal(expected.results.map((r: any) => [r.date, String(r.delay)]));
    expect(await page.$eval('.filters li', (li) => li.textContent)).to.equal(
      'Departure from Feb 1, 2001 to Feb 3, 2001×',
    );
    await page.close();
  });

  it('equals on a facet field is a refine; on another field a where; quotes in the text stay text', async () => {
    const page = await suite.browser.open(`${suite.server.base}${TABLE('airports')}`);
    await page.waitForSelector('table.records tbody tr');
    await filterColumn(page, 'state', { op: 'equals', value: 'CA' });
    await page.waitForFunction(() => new URL(location.href).searchParams.get('refine.state') === 'CA');
    // The first control has the focus as the popover opens (in the click's own task): keys typed
    // at once land in the form, whatever the answers arriving meanwhile.
    const focused = await page.evaluate(() => {
      document.querySelector<HTMLButtonElement>('.filter-toggle[data-field="city"]')!.click();
      const name = (document.activeElement as HTMLSelectElement).name;
      document.querySelector<HTMLElement>('.column-filter:popover-open')!.hidePopover();
      return name;
    });
    expect(focused).to.equal('op');
    await filterColumn(page, 'city', { op: 'equals', value: 'San Francisco' });
    const both = await api('airports', { refine: 'state:CA', where: 'city = "San Francisco"', limit: '5' });
    expect(both.total_count).to.be.greaterThan(0);
    await shown(page, both.total_count, 1);
    expect(new URL(page.url()).searchParams.get('where.city')).to.equal('`city` = "San Francisco"');
    const hostile = 'O\'Hare "x" \\';
    await filterColumn(page, 'name', { op: 'contains', value: hostile });
    await shown(page, 0, 1);
    expect(await page.$('.records-region .notice')).to.equal(null);
    const condition = new URL(page.url()).searchParams.get('where.name')!;
    expect(condition).to.equal('`name` like "O\'Hare \\"x\\" \\\\"');
    const answer = await suite.server.json(
      `${V21}/airports/records?limit=0&where=${encodeURIComponent(condition)}`,
    );
    expect(answer.status).to.equal(200);
    await page.close();
  });
});
