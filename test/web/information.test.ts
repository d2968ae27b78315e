// The information tab in a real browser, on the sample portal: the metadata, field schema and
// attachments of the dataset lookup.
import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { useBrowserSuite } from '../helpers/browser.js';
import { markAttachments, restrictTowns, startFixtureServer } from '../helpers/fixture-portal.js';

/** A description trying every way to run a script or load from elsewhere, and a link to keep. */
const HOSTILE_DESCRIPTION = [
  '<p>Kept: <a href="https://example.org/source">the source</a>, <em>emphasis</em>.</p>',
  '<script>window.ran = "script"</script>',
  '<img src="x" onerror="window.ran = \'onerror\'">',
  '<a id="js" href="javascript:window.ran = \'href\'">click</a>',
  '<iframe src="https://example.org/"></iframe>',
  '<svg><script>window.ran = "svg"</script></svg>',
].join('');

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

describe('web: the information tab over a hostile description (fixture portal)', function () {
  this.timeout(60_000);
  const suite = useBrowserSuite(() =>
    startFixtureServer(async (dir) => {
      const file = path.join(dir, 'datasets', 'words', 'dataset.json');
      const dataset = JSON.parse(await readFile(file, 'utf8'));
      dataset.metas.default.description = HOSTILE_DESCRIPTION;
      await writeFile(file, JSON.stringify(dataset));
    }),
  );

  it('shows its text and links, runs none of its scripts and loads nothing it names', async () => {
    const page = await suite.browser.open(`${suite.server.base}/explore/dataset/words/`);
    await page.waitForSelector('.description');
    expect(await page.$eval('.description a', (a) => a.getAttribute('href'))).to.equal(
      'https://example.org/source',
    );
    expect(
      await page.$$eval('.description script, .description iframe, .description [onerror]', (e) => e.length),
    ).to.equal(0);
    expect(await page.$eval('.description', (d) => d.innerHTML)).not.to.include('javascript:');
    await page.$eval('.description', (d) =>
      d.querySelectorAll('a').forEach((a) => a.id === 'js' && a.click()),
    );
    expect(await page.evaluate(() => (window as unknown as { ran?: string }).ran ?? null)).to.equal(null);
    await page.close();
  });
});

describe('web: the attachment links of an audience under a row filter (fixture portal)', function () {
  this.timeout(60_000);
  let staff = '';
  const suite = useBrowserSuite(() =>
    startFixtureServer(async (dir) => {
      staff = (await restrictTowns(dir)).staff;
      await markAttachments(dir);
    }),
  );

  /** The attachment links of words' information tab, and what each serves, as `key` (or anonymous). */
  const links = async (key: string | null) => {
    const page = await suite.browser.browser.newPage();
    if (key) await page.setExtraHTTPHeaders({ Authorization: `Apikey ${key}` });
    await page.goto(`${suite.server.base}/explore/dataset/words/`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('table.schema');
    const hrefs = await page.$$eval('a[download]', (as) => as.map((a) => a.getAttribute('href')!));
    await page.close();
    const init = key ? { headers: { Authorization: `Apikey ${key}` } } : {};
    return Promise.all(hrefs.map(async (href) => [href, (await suite.server.get(href, init)).status]));
  };

  it('links the public audience only to the attachment marked for all audiences', async () => {
    const base = '/api/explore/v2.1/catalog/datasets/words/attachments';
    expect(await links(null)).to.deep.equal([[`${base}/readme_txt`, 200]]);
    expect(await links(staff)).to.deep.equal([
      [`${base}/readme_txt`, 200],
      [`${base}/words_csv`, 200],
    ]);
  });
});
