// A restricted dataset in a real browser: left out of the anonymous catalog page (its cards, its
// total and its facet counts) though the catalog API lists it with data_visible false, listed to a
// user who may open it; its page asked anonymously offers sign-in and comes back to it once signed
// in; a signed-in user without access gets the 404 page; the sign-in form goes back to a local
// page only. No axe-core violation at 1280 and 390 px; no request leaves the origin.
import { expect } from 'chai';
import type { BrowserContext, Page } from 'puppeteer-core';
import { UserStore } from '../../src/auth/users.js';
import { axeViolations } from '../helpers/axe.js';
import { restrictDataset, startFixtureServer } from '../helpers/fixture-portal.js';
import { useBrowserSuite } from '../helpers/browser.js';

const V21 = '/api/explore/v2.1';
const TABLE = '/explore/dataset/towns/table/?sort=name';

async function shownIds(page: Page): Promise<string[]> {
  return page.$$eval('.card h2 a', (links) =>
    links.map((a) => decodeURIComponent(a.getAttribute('href')!.split('/')[3]!)),
  );
}

async function themeCount(page: Page): Promise<string> {
  const value = 'xpath/.//section[h2="Theme"]//button[span[@class="facet-name"]="Transport"]';
  const button = await page.waitForSelector(value);
  return button!.evaluate((b) => b.querySelector('.count')?.textContent ?? '');
}

async function signIn(page: Page, username: string): Promise<void> {
  await page.type('input[name="username"]', username);
  await page.type('input[name="password"]', `${username} password`);
  const [button] = await page.$$('xpath/.//button[normalize-space()="Sign in"]');
  await Promise.all([page.waitForNavigation(), button!.click()]);
}

/** A tab of its own browser context (its own cookies), recording its requests with the suite's. */
async function visitor(context: BrowserContext, requests: string[]): Promise<Page> {
  const page = await context.newPage();
  page.on('request', (request) => requests.push(request.url()));
  return page;
}

describe('web: a restricted dataset in the catalog and on its page', function () {
  this.timeout(60_000);
  const suite = useBrowserSuite(() =>
    startFixtureServer(async (dir) => {
      await new UserStore(dir).add('alice', 'alice password', ['staff']);
      await new UserStore(dir).add('bob', 'bob password', []);
      await restrictDataset(dir, 'towns', [{ groups: ['staff'] }]);
    }),
  );

  async function apiCatalog(): Promise<{ ids: string[]; visible: boolean[] }> {
    const { body } = await suite.server.json(`${V21}/catalog/datasets?limit=100`);
    return {
      ids: body.results.map((d: { dataset_id: string }) => d.dataset_id),
      visible: body.results.map((d: { data_visible: boolean }) => d.data_visible),
    };
  }

  it('leaves it out of the anonymous catalog page: cards, total and facet counts', async () => {
    const api = await apiCatalog();
    expect(api.ids).to.include('towns');
    expect(api.visible[api.ids.indexOf('towns')]).to.equal(false);
    const open = api.ids.filter((id) => id !== 'towns');
    const page = await suite.browser.open(`${suite.server.base}/explore/`);
    await page.waitForSelector('.card h2 a');
    expect(await shownIds(page)).to.have.members(open);
    expect(await page.$eval('.total output', (o) => o.textContent)).to.equal(String(open.length));
    // Every fixture dataset has the theme Transport: its count is the datasets listed.
    expect(await themeCount(page)).to.equal(String(open.length));
    for (const width of [1280, 390]) {
      await page.setViewport({ width, height: 800 });
      expect(await axeViolations(page), `${width} px`).to.deep.equal([]);
      await page.screenshot({ path: `/tmp/restricted-catalog-${width}.png` });
    }
    await page.close();
  });

  it('offers sign-in on its page, and comes back to that page once signed in', async () => {
    const context = await suite.browser.browser.createBrowserContext();
    const page = await visitor(context, suite.browser.requests);
    const answer = await page.goto(`${suite.server.base}${TABLE}`);
    expect(answer!.status()).to.equal(401);
    expect(await page.$eval('h1', (h1) => h1.textContent)).to.equal('Sign in to see this dataset');
    for (const width of [1280, 390]) {
      await page.setViewport({ width, height: 800 });
      expect(await axeViolations(page), `${width} px`).to.deep.equal([]);
      await page.screenshot({ path: `/tmp/restricted-offer-${width}.png` });
    }
    const [link] = await page.$$('xpath/.//main//a[normalize-space()="Sign in"]');
    await Promise.all([page.waitForNavigation(), link!.click()]);
    expect(page.url()).to.equal(`${suite.server.base}/account/?next=${encodeURIComponent(TABLE)}`);
    await signIn(page, 'alice');
    expect(page.url()).to.equal(`${suite.server.base}${TABLE}`);
    await page.waitForSelector('table.records tbody tr');
    expect(await page.$$eval('table.records tbody tr', (rows) => rows.length)).to.equal(3);
    // Signed in with access: the catalog page lists it, as many as the API lists.
    await page.goto(`${suite.server.base}/explore/`);
    await page.waitForSelector('.card h2 a');
    const api = await apiCatalog();
    expect(await shownIds(page)).to.have.members(api.ids);
    expect(await page.$eval('.total output', (o) => o.textContent)).to.equal(String(api.ids.length));
    expect(await themeCount(page)).to.equal(String(api.ids.length));
    await context.close();
  });

  it('gives a signed-in user without access the 404 page, and leaves it out of their catalog', async () => {
    const context = await suite.browser.browser.createBrowserContext();
    const page = await visitor(context, suite.browser.requests);
    await page.goto(`${suite.server.base}/account/`);
    await signIn(page, 'bob');
    const answer = await page.goto(`${suite.server.base}${TABLE}`);
    expect(answer!.status()).to.equal(404);
    expect(await page.$eval('h1', (h1) => h1.textContent)).to.equal('Dataset not found or not allowed');
    await page.goto(`${suite.server.base}/explore/`);
    await page.waitForSelector('.card h2 a');
    expect(await shownIds(page)).not.to.include('towns');
    await context.close();
  });

  it('goes back after signing in to a page of this origin only', async () => {
    for (const hostile of ['//evil.example', 'https://evil.example/', '/\\evil.example']) {
      const context = await suite.browser.browser.createBrowserContext();
      const page = await visitor(context, suite.browser.requests);
      await page.goto(`${suite.server.base}/account/?next=${encodeURIComponent(hostile)}`);
      expect(await page.$('input[name="next"]'), hostile).to.equal(null);
      await signIn(page, 'alice');
      expect(page.url(), hostile).to.equal(`${suite.server.base}/account/`);
      await context.close();
    }
  });
});
