// The catalog page in a real browser, on the sample portal.
import { expect } from 'chai';
import { useBrowserSuite } from '../helpers/browser.js';

describe('web: the catalog page', function () {
  this.timeout(60_000);
  const suite = useBrowserSuite();

  it('lists the datasets of the catalog API, and asks nothing from another origin', async () => {
    const { body } = await suite.server.json('/api/explore/v2.1/catalog/datasets?limit=100');
    const titles: string[] = body.results.map((d: any) => d.metas.default.title);
    expect(titles.length).to.be.greaterThan(1);
    const page = await suite.browser.open(`${suite.server.base}/`);
    await page.waitForSelector('.card h2 a');
    const shown = await page.$$eval('.card h2 a', (links) => links.map((a) => a.textContent));
    expect(shown).to.have.members(titles);
    expect(await page.$eval('.total output', (o) => o.textContent)).to.equal(String(titles.length));
    expect(await page.$eval('html', (html) => html.lang)).to.equal('en');
    expect(suite.browser.foreign(suite.server.base)).to.deep.equal([]);
    await page.close();
  });
});
