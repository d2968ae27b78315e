// The information tab in a real browser, on the sample portal: the metadata, field schema and
// attachments of the dataset lookup.
import { expect } from 'chai';
import { useBrowserSuite } from '../helpers/browser.js';

describe('web: the information tab', function () {
  this.timeout(60_000);
  const suite = useBrowserSuite();

  it('shows the description, license, record count, every field and the attachments', async () => {
    const { body } = await suite.server.json('/api/explore/v2.1/catalog/datasets/airports');
    const page = await suite.browser.open(`${suite.server.base}/explore/dataset/airports/`);
    await page.waitForSelector('table.schema');
    expect(await page.title()).to.equal(
      `${body.metas.default.title} (Information) · duckportal sample portal`,
    );
    const facts = await page.$$eval('dl.facts dt', (dts) =>
      Object.fromEntries(dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])),
    );
    expect(facts.License).to.equal(body.metas.default.license);
    expect(Number(facts.Records?.replace(/\D/g, ''))).to.equal(body.metas.default.records_count);
    const rows = await page.$$eval('table.schema tbody tr', (trs) =>
      trs.map((tr) => [tr.querySelector('th')?.textContent, tr.querySelector('code')?.textContent]),
    );
    expect(rows).to.deep.equal(body.fields.map((f: any) => [f.label, f.name]));
    // The publisher's HTML description keeps its links.
    expect(await page.$$eval('.description a', (links) => links.length)).to.be.greaterThan(0);
    const attachment = await page.$eval('a[download]', (a) => a.getAttribute('href')!);
    const download = await suite.server.get(attachment);
    expect(download.status).to.equal(200);
    expect((await download.text()).split('\n')[0]).to.include('iata');
    await page.close();
  });
});
