// Publishing from the account page in a real browser, as a portal administrator: a CSV built by
// the test is uploaded, the preview shows its fields and first rows, it is published with a
// title and a facet and answers through the API with the file's count of records; a changed file
// replaces it (the new count), then it is deleted after a confirmation (404 after). A non-admin
// sees no Datasets tab. axe-core finds no violation on the tab, the preview and the confirmation
// at 1280 and 390 px; screenshots of each go to /tmp. No request leaves the server's origin.
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { UserStore } from '../../src/auth/users.js';
import { launchBrowser, signIn, submit, type TestBrowser } from '../helpers/browser.js';
import { axeViolations } from '../helpers/axe.js';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';

/** A CSV of `rows` birds: name, count and a code with leading zeros. */
function birdsCsv(rows: number): string {
  const lines = Array.from({ length: rows }, (_, i) => `bird ${i},${i * 3},${String(i).padStart(4, '0')}`);
  return `name,count,code\n${lines.join('\n')}\n`;
}

describe('web: publishing a dataset from the account page (browser)', function () {
  this.timeout(120_000);
  let server: TestServer & { readonly dir: string };
  let browser: TestBrowser;
  let files: string;

  before(async () => {
    server = await startFixtureServer(async (dir) => {
      const users = new UserStore(dir);
      await users.add('ada', 'ada password', ['admin']);
      await users.add('bob', 'bob password', ['staff']);
    });
    browser = await launchBrowser();
    files = await mkdtemp(path.join(os.tmpdir(), 'duckportal-publish-'));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await rm(files, { recursive: true, force: true });
  });

  /** axe-core's violations at a desktop and a phone width, each width's screenshot taken. */
  async function checked(page: Page, name: string): Promise<string[]> {
    const found: string[] = [];
    for (const width of [1280, 390]) {
      await page.setViewport({ width, height: 900 });
      await page.screenshot({ path: `/tmp/publish-${name}-${width}.png`, fullPage: true });
      found.push(...(await axeViolations(page)).map((v) => `${name} at ${width} px: ${v}`));
    }
    await page.setViewport({ width: 1280, height: 900 });
    return found;
  }

  const records = async () =>
    (await server.json('/api/explore/v2.1/catalog/datasets/birds/records?limit=0')).body.total_count;

  /** Uploads `rows` birds as dataset birds and opens its preview. */
  async function upload(page: Page, rows: number): Promise<void> {
    const file = path.join(files, `birds-${rows}.csv`);
    await writeFile(file, birdsCsv(rows));
    await page.goto(`${server.base}/account/datasets/?id=birds`);
    const input = await page.$('input[type="file"]');
    await input!.uploadFile(file);
    await submit(page, 'Upload and preview');
  }

  it('uploads, previews, publishes, replaces and deletes a dataset as an administrator', async () => {
    const page = await browser.open(`${server.base}/account/`);
    await signIn(page, 'ada', 'ada password');
    await Promise.all([page.waitForNavigation(), page.click('a[href="/account/datasets/"]')]);
    expect(await checked(page, 'tab')).to.deep.equal([]);

    await upload(page, 12);
    expect(await page.$eval('#records-count', (e) => e.textContent)).to.equal('12');
    const fields = await page.$$eval('[aria-label="Detected fields"] tbody tr', (rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent)),
    );
    expect(fields).to.deep.equal([
      ['name', 'name', 'text'],
      ['count', 'count', 'int'],
      ['code', 'code', 'text'],
    ]);
    const first = await page.$$eval('[aria-label="The first records"] tbody tr', (rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent)),
    );
    expect(first).to.have.length(10);
    expect(first[1]).to.deep.equal(['bird 1', '3', '0001']);
    expect(await checked(page, 'preview')).to.deep.equal([]);
    // Staged, not yet published.
    expect((await server.get('/api/explore/v2.1/catalog/datasets/birds')).status).to.equal(404);

    await page.$eval('#title', (input) => ((input as HTMLInputElement).value = ''));
    await page.type('#title', 'Birds of the garden');
    await page.type('#keyword', 'birds, garden');
    await page.click('input[name="facet"][value="name"]');
    await submit(page, 'Publish birds');
    expect(await page.$eval('[role="status"]', (e) => e.textContent)).to.equal(
      'Published birds: 12 records.',
    );
    expect(await records()).to.equal(12);
    const { body } = await server.json('/api/explore/v2.1/catalog/datasets/birds');
    expect([body.metas.default.title, body.metas.default.keyword]).to.deep.equal([
      'Birds of the garden',
      ['birds', 'garden'],
    ]);
    expect(body.fields.find((f: { name: string }) => f.name === 'name').annotations.facet).to.deep.equal([]);

    await upload(page, 30);
    // The current version's settings are the form's.
    expect(await page.$eval('#title', (input) => (input as HTMLInputElement).value)).to.equal(
      'Birds of the garden',
    );
    await submit(page, 'Replace birds');
    expect(await records()).to.equal(30);

    await page.goto(`${server.base}/account/datasets/birds/delete`);
    expect(await checked(page, 'delete')).to.deep.equal([]);
    await submit(page, 'Delete birds');
    expect(await page.$eval('[role="status"]', (e) => e.textContent)).to.equal('Deleted birds.');
    expect((await server.get('/api/explore/v2.1/catalog/datasets/birds')).status).to.equal(404);
    expect(browser.foreign(server.base)).to.deep.equal([]);
    await page.close();
  });

  it('shows no Datasets tab to a user who is not an administrator', async () => {
    const context = await browser.browser.createBrowserContext();
    const page = await context.newPage();
    await page.goto(`${server.base}/account/`);
    await signIn(page, 'bob', 'bob password');
    expect(await page.$eval('nav.tabs', (nav) => nav.textContent)).to.equal('API keys');
    const answer = await page.goto(`${server.base}/account/datasets/`);
    expect(answer!.status()).to.equal(404);
    await context.close();
  });
});
