// The map tab in a real browser: what it draws adds up to the API's total_count for the same
// filters (points, shapes, or the server's clusters above 5,000 records), "Filter to this view"
// puts the view's in_bbox in the URL for every tab, and nothing is fetched from another origin.
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { ingest } from '../../src/ingest/ingest.js';
import { launchBrowser, useBrowserSuite, type TestBrowser } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const records = (id: string) => `/api/explore/v2.1/catalog/datasets/${id}/records`;

/**
 * The count the map tab shows once it has drawn, read in the same step as the wait: the panel may
 * draw again (and replace its output) between a wait and a later read.
 */
async function drawnTotal(page: Page): Promise<number> {
  const shown = await page.waitForFunction(() => {
    const output = document.querySelector('.map-panel[aria-busy=false] .total output');
    return output && /\d/.test(output.textContent ?? '') ? output.textContent : null;
  });
  return Number(String(await shown.jsonValue()).replace(/\D/g, ''));
}

describe('web: the map tab', function () {
  this.timeout(60_000);
  const suite = useBrowserSuite();
  const total = async (id: string, query: string) =>
    (await suite.server.json(`${records(id)}?${query}&limit=0`)).body.total_count as number;

  it("draws one point per record of a refine, as many as the API's total_count", async () => {
    const expected = await total('airports', 'refine=state:CA');
    expect(expected).to.be.greaterThan(100);
    const page = await suite.browser.open(
      `${suite.server.base}/explore/dataset/airports/map/?refine.state=CA`,
    );
    expect(await drawnTotal(page)).to.equal(expected);
    expect(await page.$$eval('.map svg path.map-point', (paths) => paths.length)).to.equal(expected);
    // The basemap is drawn too: the countries, from the bundle.
    expect(await page.$$eval('.map svg path:not(.map-point)', (paths) => paths.length)).to.be.greaterThan(
      100,
    );
    await page.close();
  });

  it('draws the geo_shape field as shapes', async () => {
    const expected = await total('earthquakes', 'refine=magtype:ml');
    expect(expected).to.be.greaterThan(0);
    const page = await suite.browser.open(
      `${suite.server.base}/explore/dataset/earthquakes/map/?refine.magtype=ml`,
    );
    expect(await drawnTotal(page)).to.equal(expected);
    expect(await page.$$eval('.map svg path.map-shape', (paths) => paths.length)).to.equal(expected);
    await page.close();
  });

  it('is a tab only of datasets with a geo field', async () => {
    const page = await suite.browser.open(`${suite.server.base}/explore/dataset/flights/table/`);
    expect(await page.$$eval('nav.tabs a', (links) => links.map((a) => a.textContent))).to.not.include('Map');
    const response = await page.goto(`${suite.server.base}/explore/dataset/flights/map/`);
    expect(response?.status()).to.equal(404);
    const airports = await suite.browser.open(`${suite.server.base}/explore/dataset/airports/table/`);
    expect(await airports.$$eval('nav.tabs a', (links) => links.map((a) => a.textContent))).to.include('Map');
    await Promise.all([page.close(), airports.close()]);
  });

  it("filters to the view: in_bbox in the URL's where, and the table tab counts what the API does", async () => {
    const page = await suite.browser.open(
      `${suite.server.base}/explore/dataset/airports/map/?refine.state=CA`,
      {
        width: 375,
        height: 800,
      },
    );
    const all = await drawnTotal(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(375);
    // Zoomed in with the keyboard, the view holds only part of California.
    // Leaflet starts the zoom's animation on the next frame: wait for its scale to change, then end.
    const before = await page.$eval('.leaflet-proxy', (proxy) => (proxy as HTMLElement).style.transform);
    await page.focus('.map');
    await page.keyboard.press('Equal');
    await page.waitForFunction(
      (was) =>
        !document.querySelector('.leaflet-zoom-anim') &&
        (document.querySelector('.leaflet-proxy') as HTMLElement).style.transform !== was,
      {},
      before,
    );
    await page.click('.map-bar button');
    await page.waitForFunction(() =>
      new URL(location.href).searchParams.get('where')?.startsWith('in_bbox('),
    );
    const where = new URL(page.url()).searchParams.get('where')!;
    expect(where).to.match(/^in_bbox\(`geo_point_2d`, -?[\d.]+, -?[\d.]+, -?[\d.]+, -?[\d.]+\)$/);
    const expected = await total('airports', `refine=state:CA&where=${encodeURIComponent(where)}`);
    expect(expected).to.be.greaterThan(0).and.below(all);
    await page.waitForFunction(
      (n) => document.querySelectorAll('.map svg path.map-point').length === n,
      {},
      expected,
    );
    expect(await drawnTotal(page)).to.equal(expected);
    // Again after the map fitted the filtered points: the new box replaces the one added before.
    await page.click('.map-bar button');
    await page.waitForFunction((w) => new URL(location.href).searchParams.get('where') !== w, {}, where);
    const again = new URL(page.url()).searchParams.get('where')!;
    expect(again.match(/in_bbox/g)).to.have.length(1);
    await drawnTotal(page);
    await Promise.all([page.waitForNavigation(), page.click('nav.tabs a[href*="/table/"]')]);
    await page.waitForFunction(() => /\d/.test(document.querySelector('.total output')?.textContent ?? ''));
    const shown = await page.$eval('.total output', (o) => Number(o.textContent?.replace(/\D/g, '')));
    expect(shown).to.equal(await total('airports', `refine=state:CA&where=${encodeURIComponent(again)}`));
    expect(new URL(page.url()).searchParams.get('where')).to.equal(again);
    await page.close();
  });
});

describe('web: the map tab above 5,000 records', function () {
  this.timeout(120_000);
  let dir: string;
  let server: TestServer;
  let browser: TestBrowser;

  before(async () => {
    // 12,000 points on a spiral over the world, every other one of kind "a".
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-map-'));
    const lines = ['name,kind,lat,lon'];
    for (let i = 0; i < 12_000; i++) {
      const lat = ((i * 37) % 160) - 80 + (i % 7) / 10;
      const lon = ((i * 53) % 350) - 175 + (i % 11) / 10;
      lines.push(`p${i},${i % 2 ? 'b' : 'a'},${lat},${lon}`);
    }
    const csv = path.join(dir, 'points.csv');
    await writeFile(csv, `${lines.join('\n')}\n`);
    const portal = path.join(dir, 'portal');
    await ingest({ file: csv, portal, id: 'points', geoPoint: { lat: 'lat', lon: 'lon' }, facets: ['kind'] });
    server = await startTestServer(portal);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("draws the server's clusters, never more than 5,000, adding up to the API's total_count", async () => {
    const expected = (await server.json(`${records('points')}?refine=kind:a&limit=0`)).body.total_count;
    expect(expected).to.equal(6000);
    const page = await browser.open(`${server.base}/explore/dataset/points/map/?refine.kind=a`);
    expect(await drawnTotal(page)).to.equal(expected);
    const counts = await page.$$eval('.map-cluster [data-count]', (spans) =>
      spans.map((s) => Number(s.getAttribute('data-count'))),
    );
    expect(counts.length).to.be.within(2, 5000);
    expect(counts.reduce((a, b) => a + b, 0)).to.equal(expected);
    expect(await page.$$('.map svg path.map-point')).to.have.length(0);
    const asked = browser.requests.filter((url) => url.includes('/datasets/points/'));
    expect(asked.some((url) => url.includes('/exports/'))).to.equal(false);
    expect(asked.some((url) => decodeURIComponent(url).includes('geo_cluster(`geo_point_2d`'))).to.equal(
      true,
    );
    expect(browser.foreign(server.base)).to.deep.equal([]);
    await page.close();
  });
});
