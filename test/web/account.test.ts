// The account page and the API console in a real browser: sign in, create a labelled key (read
// from its <output>; listed with its label, creation and last use), the key opens a restricted
// dataset through the API, revoke it and it is refused; no axe-core violation on the sign-in and
// account pages at 1280 and 390 px; the
// session shows the restricted dataset's pages; the console lists the API's operations and its
// "try it" answers with the session's rights; a private portal sends a visitor to sign in and
// back. No request leaves the server's origin.
import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { UserStore } from '../../src/auth/users.js';
import { launchBrowser, signIn, submit, type TestBrowser } from '../helpers/browser.js';
import { axeViolations } from '../helpers/axe.js';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';

const RECORDS = '/api/explore/v2.1/catalog/datasets/towns/records';

async function editJson(file: string, edit: (value: any) => void): Promise<void> {
  const value = JSON.parse(await readFile(file, 'utf8'));
  edit(value);
  await writeFile(file, JSON.stringify(value));
}

describe('web: the account page and the API console', function () {
  this.timeout(60_000);
  let server: TestServer & { readonly dir: string };
  let browser: TestBrowser;

  before(async () => {
    server = await startFixtureServer(async (dir) => {
      await new UserStore(dir).add('alice', 'alice password', ['staff']);
      await editJson(path.join(dir, 'datasets', 'towns', 'dataset.json'), (d) => {
        d.visibility = 'restricted';
        d.access = [{ groups: ['staff'] }];
      });
    });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const statusWith = async (key: string | null) =>
    (await server.get(RECORDS, key ? { headers: { Authorization: `Apikey ${key}` } } : {})).status;

  /** The account page's axe-core violations at a desktop and a phone width. */
  async function violationsAtWidths(page: Page): Promise<string[]> {
    const found: string[] = [];
    for (const width of [1280, 390]) {
      await page.setViewport({ width, height: 800 });
      found.push(...(await axeViolations(page)).map((v) => `${width} px: ${v}`));
    }
    return found;
  }

  it('signs in, creates a labelled key that opens a restricted dataset, lists it, revokes it', async () => {
    const page = await browser.open(`${server.base}/account/`);
    expect(await violationsAtWidths(page), 'the sign-in page').to.deep.equal([]);
    await signIn(page, 'alice', 'alice password');
    expect(await page.$eval('main', (main) => main.textContent)).to.include('Signed in as alice');
    await page.type('input[name="label"]', 'Map <notebook> & co');
    await submit(page, 'Create API key');
    const key = await page.$eval('output', (output) => output.textContent ?? '');
    expect(key).to.match(/^dpk_[0-9a-f]{12}_[\w-]{43}$/);
    expect(await statusWith(null)).to.equal(403);
    expect(await statusWith(key)).to.equal(200);
    await page.goto(`${server.base}/account/`);
    const id = key.split('_')[1]!;
    const rows = await page.$$eval('tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
    const headings = await page.$$eval('thead th', (ths) => ths.map((th) => th.textContent));
    expect(headings).to.deep.equal(['Label', 'Key id', 'Created', 'Last used', 'Status']);
    expect(rows).to.have.length(1);
    const [label, shownId, created, lastUsed] = rows[0]!;
    expect([label, shownId]).to.deep.equal(['Map <notebook> & co', id]);
    expect(created).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    // The key was used once (above): its last use is shown.
    expect(lastUsed).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    expect(await violationsAtWidths(page), 'the account page').to.deep.equal([]);
    expect(await page.content()).to.not.include(key);
    await submit(page, 'Revoke');
    expect(await statusWith(key)).to.equal(401);
    expect(await page.$eval('tbody tr', (r) => r.textContent)).to.include('revoked');
    expect(await violationsAtWidths(page), 'the account page, a key revoked').to.deep.equal([]);
    expect(browser.foreign(server.base)).to.deep.equal([]);
    await page.close();
  });

  it('shows a signed-in user the restricted dataset pages their session may read', async () => {
    // Signed in (the first test) as alice, whose group may read towns; a fresh context is anonymous.
    const page = await browser.open(`${server.base}/explore/dataset/towns/table/`);
    await page.waitForSelector('table.records tbody tr');
    expect(await page.$$eval('table.records tbody tr', (rows) => rows.length)).to.equal(3);
    const anonymous = await browser.browser.createBrowserContext();
    const other = await anonymous.newPage();
    const answer = await other.goto(`${server.base}/explore/dataset/towns/table/`);
    expect(answer!.status()).to.equal(401);
    expect(await other.$eval('h1', (h1) => h1.textContent)).to.equal('Sign in to see this dataset');
    expect(browser.foreign(server.base)).to.deep.equal([]);
    await anonymous.close();
    await page.close();
  });

  it("lists the API's operations in the console, whose try-it answers with the session's rights", async () => {
    const { body: document } = await server.json('/api/explore/v2.1/swagger.json');
    const page = await browser.open(`${server.base}/api/explore/v2.1/console`);
    await page.waitForSelector('.opblock');
    const shown = await page.$$eval('.opblock-summary-path', (paths) =>
      paths.map((p) => p.getAttribute('data-path')),
    );
    expect(shown).to.have.members(Object.keys(document.paths));
    const records = await page.$(
      `.opblock-summary-path[data-path="/api/explore/v2.1/catalog/datasets/{dataset_id}/records"]`,
    );
    await records!.click();
    const block = 'div.opblock.is-open';
    await page.waitForSelector(`${block} .try-out__btn`);
    await page.click(`${block} .try-out__btn`);
    await page.type(`${block} tr[data-param-name="dataset_id"] input`, 'towns');
    await page.click(`${block} .execute`);
    const status = `${block} .live-responses-table tbody .response-col_status`;
    await page.waitForSelector(status);
    // Signed in (the first test) as alice, whose group may read towns.
    expect(await page.$eval(status, (cell) => cell.textContent?.trim())).to.equal('200');
    expect(browser.foreign(server.base)).to.deep.equal([]);
    await page.close();
  });

  it('sends a visitor of a private portal to sign in, then back to the page asked for', async () => {
    await editJson(path.join(server.dir, 'portal.json'), (p) => (p.private = true));
    await server.portal.reload();
    const fresh = await browser.browser.createBrowserContext();
    const page = await fresh.newPage();
    page.on('request', (request) => browser.requests.push(request.url()));
    await page.goto(`${server.base}/explore/dataset/words/`);
    expect(page.url()).to.equal(
      `${server.base}/account/?next=${encodeURIComponent('/explore/dataset/words/')}`,
    );
    await signIn(page, 'alice', 'alice password');
    expect(page.url()).to.equal(`${server.base}/explore/dataset/words/`);
    expect(await page.$eval('h1', (h1) => h1.textContent)).to.equal('Words');
    expect(browser.foreign(server.base)).to.deep.equal([]);
    await fresh.close();
  });
});
