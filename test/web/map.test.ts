// The map tab in a real browser: what it draws adds up to the API's total_count for the same
// filters (points, shapes; the server's clusters above 5,000 records are map-clusters.test.ts's),
// a click on a point or shape opens the API's record (the record view busy while it is fetched),
// the view is the URL's `location`,
// "Filter to this view" puts the view's in_bbox in the URL for every tab, axe-core finds no
// violation, and nothing is fetched from another origin.
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { useBrowserSuite } from '../helpers/browser.js';
import { axeViolations } from '../helpers/axe.js';
import {
  drawnTotal,
  mapLocation,
  records,
  screenPoint,
  viewEdges,
  viewOf,
  type View,
} from './map-helpers.js';

/** The record view's rows as [label, text] pairs, once it is open. */
async function dialogFields(page: Page): Promise<[string, string][]> {
  await page.waitForSelector('dialog.record[open] dl div');
  return page.$$eval('dialog.record dl div', (items) =>
    items.map((item) => [
      item.querySelector('dt')?.textContent ?? '',
      item.querySelector('dd')?.textContent ?? '',
    ]),
  ) as Promise<[string, string][]>;
}

/** The center of the first element matching `selector` that is on top at its own center. */
async function topmostCenter(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const at = await page.$$eval(selector, (elements) => {
    for (const element of elements) {
      const box = element.getBoundingClientRect();
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      if (document.elementFromPoint(x, y) === element) return { x, y };
    }
    return null;
  });
  if (!at) throw new Error(`no ${selector} is on top at its center`);
  return at;
}

describe('web: the map tab', function () {
  this.timeout(60_000);
  const suite = useBrowserSuite();
  const total = async (id: string, query: string) =>
    (await suite.server.json(`${records(id)}?${query}&limit=0`)).body.total_count as number;

  /** The record view shows the dataset's field labels in order, and the record's text values as they are. */
  const expectFieldsOf = async (id: string, record: any, shown: [string, string][]) => {
    const { fields } = (await suite.server.json(`/api/explore/v2.1/catalog/datasets/${id}`)).body;
    const labels = (fields as { name: string; label: string | null; type: string }[]).map((f) => ({
      ...f,
      label: f.label || f.name,
    }));
    expect(shown.map(([label]) => label)).to.deep.equal(labels.map((f) => f.label));
    const texts = labels.filter((f) => f.type === 'text' && typeof record[f.name] === 'string');
    expect(texts.length).to.be.greaterThan(3);
    for (const f of texts) expect(shown.find(([label]) => label === f.label)?.[1]).to.equal(record[f.name]);
  };

  /** "Filter to this view" puts in the URL the edges of `view` on a map of the page's size. */
  const expectViewShown = async (page: Page, view: View) => {
    const size = await page.$eval('.map', (m) => ({ width: m.clientWidth, height: m.clientHeight }));
    await page.click('.map-bar button');
    const where = await page.waitForFunction(
      () => new URL(location.href).searchParams.get('where')?.match(/^in_bbox\(`[^`]+`, (.*)\)$/)?.[1],
    );
    const [south, west, north, east] = String(await where.jsonValue())
      .split(', ')
      .map(Number);
    const edges = viewEdges(view, size);
    // Within a pixel: leaflet places the map on whole pixels.
    const pixel = 360 / (256 * 2 ** view.zoom);
    expect(south).to.be.closeTo(edges.south, pixel);
    expect(west).to.be.closeTo(edges.west, pixel);
    expect(north).to.be.closeTo(edges.north, pixel);
    expect(east).to.be.closeTo(edges.east, pixel);
  };

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
  it("opens a clicked point's record in the table's record view: the API's record, drawn under the click", async () => {
    const page = await suite.browser.open(
      `${suite.server.base}/explore/dataset/airports/map/?refine.state=CA`,
    );
    await drawnTotal(page);
    await page.waitForFunction(() => new URL(location.href).searchParams.has('location'));
    const view = viewOf(mapLocation(page));
    const at = await topmostCenter(page, '.map svg path.map-point');
    await page.mouse.click(at.x, at.y);
    const shown = await dialogFields(page);
    const iata = shown[0]![1];
    const record = (await suite.server.json(`${records('airports')}/${iata}`)).body;
    await expectFieldsOf('airports', record, shown);
    const box = (await (await page.$('.map'))!.boundingBox())!;
    const drawnAt = screenPoint(record.geo_point_2d, view, box);
    expect(Math.hypot(drawnAt.x - at.x, drawnAt.y - at.y)).to.be.below(6);
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog.record:not([open])');
    await page.close();
  });

  it("shows the clicked point's record view busy while its record is fetched, then the record", async () => {
    const page = await suite.browser.browser.newPage();
    page.on('request', (request) => suite.browser.requests.push(request.url()));
    await page.setViewport({ width: 1280, height: 800 });
    await page.setRequestInterception(true);
    // The record lookup is held until the busy state has been seen, then let through.
    let held: (() => void) | null = null;
    const asked = new Promise<void>((resolve) => {
      page.on('request', (request) => {
        if (/\/airports\/records\/[^/?]+$/.test(new URL(request.url()).pathname)) {
          held = () => void request.continue();
          resolve();
        } else void request.continue();
      });
    });
    await page.goto(`${suite.server.base}/explore/dataset/airports/map/?refine.state=CA`, {
      waitUntil: 'networkidle0',
    });
    await drawnTotal(page);
    const at = await topmostCenter(page, '.map svg path.map-point');
    await page.mouse.click(at.x, at.y);
    await asked;
    await page.waitForSelector('dialog.record[open] .record-body[aria-busy="true"]');
    // The indicator is a pseudo-element whose visibility an animation turns on after 150 ms.
    await page.waitForFunction(() => {
      const body = document.querySelector('dialog.record .record-body[aria-busy="true"]');
      return body !== null && getComputedStyle(body, '::after').visibility === 'visible';
    });
    expect(await page.$('dialog.record dl')).to.equal(null);
    for (const width of [1280, 390]) {
      await page.setViewport({ width, height: 800 });
      await page.screenshot({ path: `/tmp/map-record-busy-${width}.png` });
    }
    await page.setViewport({ width: 1280, height: 800 });
    held!();
    const shown = await dialogFields(page);
    expect(await page.$eval('dialog.record .record-body', (b) => b.getAttribute('aria-busy'))).to.equal(
      'false',
    );
    const record = (await suite.server.json(`${records('airports')}/${shown[0]![1]}`)).body;
    await expectFieldsOf('airports', record, shown);
    for (const width of [1280, 390]) {
      await page.setViewport({ width, height: 800 });
      expect(await axeViolations(page), `${width} px`).to.deep.equal([]);
      await page.screenshot({ path: `/tmp/map-record-filled-${width}.png` });
    }
    await page.close();
  });

  it("opens a clicked shape's record", async () => {
    const page = await suite.browser.open(
      `${suite.server.base}/explore/dataset/earthquakes/map/?refine.magtype=ml`,
    );
    await drawnTotal(page);
    const at = await topmostCenter(page, '.map svg path.map-shape');
    await page.mouse.click(at.x, at.y);
    const shown = await dialogFields(page);
    const where = encodeURIComponent(`id = "${shown[0]![1]}"`);
    const answer = (await suite.server.json(`${records('earthquakes')}?where=${where}&limit=1`)).body;
    expect(answer.total_count).to.equal(1);
    await expectFieldsOf('earthquakes', answer.results[0], shown);
    await page.close();
  });

  it('lists the records in view for the keyboard, each opening its record, the rest in the table', async () => {
    const page = await suite.browser.open(
      `${suite.server.base}/explore/dataset/airports/map/?refine.state=CA`,
    );
    const all = await drawnTotal(page);
    await page.waitForFunction(
      (n) => document.querySelector('.map-records[aria-busy=false] output')?.textContent === String(n),
      {},
      all,
    );
    expect(await page.$$('.map-record-list button')).to.have.length(10);
    const href = await page.$eval('.map-records a', (a) => a.href);
    const where = new URL(href).searchParams.get('where')!;
    expect(where).to.match(/^in_bbox\(`geo_point_2d`/);
    expect(await total('airports', `refine=state:CA&where=${encodeURIComponent(where)}`)).to.equal(all);
    const name = await page.$eval('.map-record-list button', (b) => b.textContent);
    await page.focus('.map-record-list button');
    await page.keyboard.press('Enter');
    const shown = await dialogFields(page);
    expect(shown.find(([label]) => label === 'Airport')?.[1]).to.equal(name);
    await page.close();
  });

  it("restores the URL's location, rewrites it in place after a move, and the tabs carry it", async () => {
    const map = `${suite.server.base}/explore/dataset/airports/map/?refine.state=CA`;
    // More digits than a tenth of a pixel at zoom 7: the map writes back the view it shows, rounded.
    const page = await suite.browser.open(`${map}&location=7,36.123456789,-119.987654321`);
    await drawnTotal(page);
    await page.waitForFunction(
      () => new URL(location.href).searchParams.get('location') === '7,36.123,-119.988',
    );
    expect(page.url()).to.include('location=7,36.123,-119.988');
    const entries = await page.evaluate(() => history.length);
    await page.focus('.map');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(
      () => new URL(location.href).searchParams.get('location') !== '7,36.123,-119.988',
    );
    const moved = viewOf(mapLocation(page));
    expect(moved.zoom).to.equal(7);
    expect(moved.lat).to.be.closeTo(36.123, 0.01); // a pixel at zoom 7: leaflet pans by whole pixels
    expect(moved.lon).to.be.above(-119.988);
    expect(await page.evaluate(() => history.length)).to.equal(entries);
    const tab = await page.$eval('nav.tabs a[href*="/table/"]', (a) => a.href);
    expect(new URL(tab).searchParams.get('location')).to.equal(mapLocation(page));
    expect(new URL(tab).searchParams.get('refine.state')).to.equal('CA');
    // To the table and back: the view is the one left.
    const left = mapLocation(page);
    await Promise.all([page.waitForNavigation(), page.click('nav.tabs a[href*="/table/"]')]);
    await Promise.all([page.waitForNavigation(), page.click('nav.tabs a[href*="/map/"]')]);
    await drawnTotal(page);
    expect(mapLocation(page)).to.equal(left);
    await expectViewShown(page, viewOf(left));
    await page.close();
  });
  it('shows again the view of a history entry on Back, without fitting the records', async () => {
    const view = '7,36.123,-119.988';
    const page = await suite.browser.open(
      `${suite.server.base}/explore/dataset/airports/map/?refine.state=CA&location=${view}`,
    );
    await drawnTotal(page);
    // "Filter to this view" is a new entry, where the map fits the records it filtered.
    await page.click('.map-bar button');
    const where = await page.waitForFunction(() => new URL(location.href).searchParams.get('where'));
    const filtered = await total(
      'airports',
      `refine=state:CA&where=${encodeURIComponent(String(await where.jsonValue()))}`,
    );
    await page.waitForFunction(
      (n) => document.querySelectorAll('.map svg path.map-point').length === n,
      {},
      filtered,
    );
    expect(await drawnTotal(page)).to.equal(filtered);
    await page.evaluate(() => history.back());
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('where'));
    await drawnTotal(page);
    expect(mapLocation(page)).to.equal(view);
    await expectViewShown(page, viewOf(view));
    await page.close();
  });
  it("shows the API's error in place of the drawing, once, with Retry", async () => {
    const where = encodeURIComponent('nosuchfield = 1');
    const answer = await suite.server.json(`${records('airports')}?where=${where}&limit=0`);
    expect(answer.status).to.equal(400);
    const page = await suite.browser.open(
      `${suite.server.base}/explore/dataset/airports/map/?where=${where}`,
    );
    await page.waitForSelector('.map-panel [role=alert] .api-message');
    const messages = await page.$$eval('[role=alert] .api-message', (shown) =>
      shown.map((m) => m.textContent),
    );
    expect(messages).to.deep.equal([answer.body.message]);
    expect(await page.$$('.map-panel [role=alert] button')).to.have.length(1);
    expect(await page.$('.map-records')).to.equal(null);
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.close();
  });
});
