// The map tab above 5,000 records, in a real browser: it draws the server's geo_cluster groups,
// adding up to the API's total_count; each label is the API's count, written to fit its disc
// (`1,234`, `10.6K`, never cut to `,234`); a click zooms in on a cluster, and at the last zoom
// lists its records, or opens the one record of a cluster of one; axe-core finds no violation.
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { ingest } from '../../src/ingest/ingest.js';
import { launchBrowser, type TestBrowser } from '../helpers/browser.js';
import { axeViolations } from '../helpers/axe.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { drawnTotal, mapLocation, records, viewEdges, viewOf } from './map-helpers.js';

/** `count` points of `kind` spread over a square of `size` degrees centred on lat, lon. */
function square(kind: string, count: number, lat: number, lon: number, size: number): string[] {
  const side = Math.ceil(Math.sqrt(count));
  return Array.from({ length: count }, (_, i) => {
    const dy = ((i % side) / side - 0.5) * size;
    const dx = (Math.floor(i / side) / side - 0.5) * size;
    return `${kind}${i},${kind},${lat + dy},${lon + dx}`;
  });
}

/** A cluster drawn on the page: its label, its count, and whether the label lies inside its disc. */
interface DrawnCluster {
  readonly label: string;
  readonly count: number;
  readonly inside: boolean;
}

async function drawnClusters(page: Page): Promise<DrawnCluster[]> {
  return page.$$eval('.map-cluster', (markers) =>
    markers.map((marker) => {
      const span = marker.querySelector('span')!;
      const disc = marker.getBoundingClientRect();
      const text = span.getBoundingClientRect();
      // Inside: every corner of the label's box within the disc's circle, its 2 px border off.
      const radius = disc.width / 2 - 2;
      const [cx, cy] = [disc.left + disc.width / 2, disc.top + disc.height / 2];
      const corners = [text.left, text.right].flatMap((x) => [text.top, text.bottom].map((y) => [x, y]));
      return {
        label: span.textContent ?? '',
        count: Number(span.getAttribute('data-count')),
        inside: corners.every(([x, y]) => Math.hypot(x! - cx, y! - cy) <= radius),
      };
    }),
  );
}

describe('web: the map tab above 5,000 records', function () {
  this.timeout(120_000);
  let dir: string;
  let server: TestServer;
  let browser: TestBrowser;

  before(async () => {
    // 12,000 points on a spiral over the world, every other one of kind "a"; two dense squares
    // (clusters of thousands); five records at one place and one alone, 55 m away.
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-map-'));
    const lines = ['name,kind,lat,lon'];
    for (let i = 0; i < 12_000; i++) {
      const lat = ((i * 37) % 160) - 80 + (i % 7) / 10;
      const lon = ((i * 53) % 350) - 175 + (i % 11) / 10;
      lines.push(`p${i},${i % 2 ? 'b' : 'a'},${lat},${lon}`);
    }
    lines.push(...square('paris', 10_500, 48.85, 2.35, 0.4), ...square('tokyo', 1_013, 35.68, 139.69, 0.4));
    lines.push(...square('same', 5, 10.5, 20.5, 0), 'alone,alone,10.5005,20.5005');
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

  afterEach(() => expect(browser.foreign(server.base)).to.deep.equal([]));

  it("draws the server's clusters, never more than 5,000, adding up to the API's total_count", async () => {
    const expected = (await server.json(`${records('points')}?refine=kind:a&limit=0`)).body.total_count;
    expect(expected).to.equal(6000);
    const page = await browser.open(`${server.base}/explore/dataset/points/map/?refine.kind=a`);
    expect(await drawnTotal(page)).to.equal(expected);
    const counts = (await drawnClusters(page)).map((c) => c.count);
    expect(counts.length).to.be.within(2, 5000);
    expect(counts.reduce((a, b) => a + b, 0)).to.equal(expected);
    expect(await page.$$('.map svg path.map-point')).to.have.length(0);
    const asked = browser.requests.filter((url) => url.includes('/datasets/points/'));
    expect(asked.some((url) => url.includes('/exports/'))).to.equal(false);
    expect(asked.some((url) => decodeURIComponent(url).includes('geo_cluster(`geo_point_2d`'))).to.equal(
      true,
    );
    await page.close();
  });

  it("labels each cluster with the API's count, in full below 10,000 and compact above, inside its disc", async () => {
    const page = await browser.open(`${server.base}/explore/dataset/points/map/`);
    await drawnTotal(page);
    const asked = browser.requests.filter((url) => decodeURIComponent(url).includes('geo_cluster(')).pop()!;
    const answer = (await server.json(new URL(asked).pathname + new URL(asked).search)).body;
    const apiCounts = (answer.results as { c: { count: number } }[]).map((r) => r.c.count);
    const drawn = await drawnClusters(page);
    expect(drawn.map((c) => c.count).sort((a, b) => a - b)).to.deep.equal(apiCounts.sort((a, b) => a - b));
    const formatted = await page.evaluate(
      (counts) =>
        counts.map((n) =>
          n < 10_000
            ? n.toLocaleString()
            : new Intl.NumberFormat(undefined, { notation: 'compact', maximumSignificantDigits: 3 }).format(
                n,
              ),
        ),
      drawn.map((c) => c.count),
    );
    expect(drawn.map((c) => c.label)).to.deep.equal(formatted);
    // Both forms are there: a count of thousands with its separator, and a compact one.
    expect(drawn.some((c) => /^\d,\d{3}$/.test(c.label))).to.equal(true);
    expect(drawn.some((c) => /^\d+(\.\d)?K$/.test(c.label))).to.equal(true);
    expect(drawn.filter((c) => !c.inside)).to.deep.equal([]);
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.close();
  });

  it('zooms in on a clicked cluster: the URL and the clusters follow', async () => {
    const page = await browser.open(`${server.base}/explore/dataset/points/map/?location=3,40,60`);
    await drawnTotal(page);
    const before = viewOf(mapLocation(page));
    const largest = await page.$$eval('.map-cluster', (markers) => {
      const sized = markers.map((m) => ({
        m,
        n: Number(m.querySelector('span')?.getAttribute('data-count')),
      }));
      const { m } = sized.sort((a, b) => b.n - a.n)[0]!;
      const box = m.getBoundingClientRect();
      return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    });
    await page.mouse.click(largest.x, largest.y);
    await page.waitForFunction(
      (zoom) => Number(new URL(location.href).searchParams.get('location')?.split(',')[0]) > zoom,
      {},
      before.zoom,
    );
    await drawnTotal(page);
    // The largest cluster is Paris's square: the view now holds it, 2 zoom levels closer at least.
    const after = viewOf(mapLocation(page));
    expect(after.zoom).to.be.at.least(before.zoom + 2);
    const size = await page.$eval('.map', (m) => ({ width: m.clientWidth, height: m.clientHeight }));
    const edges = viewEdges(after, size);
    expect(48.85).to.be.within(edges.south, edges.north);
    expect(2.35).to.be.within(edges.west, edges.east);
    await page.close();
  });

  it('at the last zoom, lists the records of a cluster and opens the one record of a cluster of one', async () => {
    const page = await browser.open(`${server.base}/explore/dataset/points/map/?location=18,10.5,20.5`);
    await drawnTotal(page);
    const discs = () =>
      page.$$eval('.map-cluster', (markers) =>
        markers.map((m) => {
          const box = m.getBoundingClientRect();
          const count = Number(m.querySelector('span')?.getAttribute('data-count'));
          return { count, x: box.left + box.width / 2, y: box.top + box.height / 2 };
        }),
      );
    const five = (await discs()).find((d) => d.count === 5)!;
    await page.mouse.click(five.x, five.y);
    await page.waitForFunction(
      () => document.querySelector('.map-records h2')?.textContent === 'Records in this cluster',
    );
    await page.waitForFunction(() => document.querySelectorAll('.map-record-list button').length === 5);
    const names = await page.$$eval('.map-record-list button', (buttons) =>
      buttons.map((b) => b.textContent),
    );
    expect(names.sort()).to.deep.equal(['same0', 'same1', 'same2', 'same3', 'same4']);
    expect(mapLocation(page)).to.equal('18,10.5,20.5');
    // The list took the focus (and scrolled the page): the discs are read again.
    const one = (await discs()).find((d) => d.count === 1)!;
    await page.mouse.click(one.x, one.y);
    // The dialog opens busy, its record still on its way: wait for the record's fields.
    await page.waitForSelector('dialog.record[open] dl dd');
    const shown = await page.$$eval('dialog.record dd', (dds) => dds.map((dd) => dd.textContent));
    expect(shown.slice(0, 2)).to.deep.equal(['alone', 'alone']);
    await page.close();
  });
});
