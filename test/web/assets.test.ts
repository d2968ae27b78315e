// The precompressed bundle in a real browser: chromium asks with its own Accept-Encoding, gets
// every script and stylesheet of the catalog and table pages as brotli (Vary: Accept-Encoding),
// and the pages work from them.
import { expect } from 'chai';
import type { HTTPResponse } from 'puppeteer-core';
import { useBrowserSuite } from '../helpers/browser.js';
import { startFixtureServer } from '../helpers/fixture-portal.js';

describe('web: precompressed assets in the browser', function () {
  this.timeout(60_000);
  const suite = useBrowserSuite(() => startFixtureServer());

  for (const [path, ready] of [
    ['/explore/', 'ul.cards li'],
    ['/explore/dataset/words/table/', 'table.records tbody tr'],
  ] as const) {
    it(`loads ${path} from brotli scripts and stylesheets, and the page works`, async () => {
      const { browser, server } = suite;
      const page = await browser.browser.newPage();
      const assets: HTTPResponse[] = [];
      page.on('response', (response) => {
        if (new URL(response.url()).pathname.startsWith('/assets/')) assets.push(response);
      });
      await page.goto(`${server.base}${path}`, { waitUntil: 'networkidle0' });
      await page.waitForSelector(ready);
      expect(assets.length).to.be.greaterThan(1);
      for (const response of assets) {
        expect(response.status(), response.url()).to.equal(200);
        expect(response.headers()['content-encoding'], response.url()).to.equal('br');
        expect(response.headers().vary, response.url()).to.equal('Accept-Encoding');
      }
      expect(await page.$$eval('script[type="module"]', (scripts) => scripts.length)).to.equal(1);
      await page.close();
    });
  }
});
