// The export tab in a real browser, on the sample portal: one link per format of the dataset,
// Parquet and CSV first, each downloading exactly what the API exports for the same filters.
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { useBrowserSuite } from '../helpers/browser.js';

const DATASET = '/api/explore/v2.1/catalog/datasets/airports';
/** Zip containers hold the time they were written: compared by size and content, not bytes. */
const ZIPPED = new Set(['xlsx', 'shp']);

async function download(
  base: string,
  url: string,
): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(new URL(url, base));
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

describe('web: the export tab', function () {
  this.timeout(120_000);
  const suite = useBrowserSuite();

  it("links every export format, Parquet and CSV first, each downloading the API's export of the filtered rows", async () => {
    const formats = (await suite.server.json(`${DATASET}/exports`)).body.links
      .map((link: any) => link.rel)
      .filter((rel: string) => rel !== 'self');
    const filters = 'refine.state=CA&exclude.city=Los%20Angeles&where=latitude%20%3E%2036&sort=-name';
    const page = await suite.browser.open(`${suite.server.base}/explore/dataset/airports/export/?${filters}`);
    await page.waitForSelector('ul.exports a');
    const links = await page.$$eval('ul.exports a', (anchors) =>
      anchors.map((a) => [a.dataset.format!, a.getAttribute('href')!] as const),
    );
    expect(links.map(([format]) => format).slice(0, 2)).to.deep.equal(['parquet', 'csv']);
    expect(links.map(([format]) => format)).to.have.members(formats);
    const count = (
      await suite.server.json(
        `${DATASET}/records?limit=0&refine=state:CA&exclude=${encodeURIComponent('city:Los Angeles')}&where=latitude%20%3E%2036`,
      )
    ).body.total_count;
    expect(count).to.be.within(1, 204);
    for (const [format, href] of links) {
      const query = new URLSearchParams({
        where: 'latitude > 36',
        refine: 'state:CA',
        exclude: 'city:Los Angeles',
      });
      query.set('order_by', '`name` desc');
      const viaLink = await download(suite.server.base, href);
      const direct = await download(suite.server.base, `${DATASET}/exports/${format}?${query}`);
      expect(viaLink.status, format).to.equal(200);
      expect(viaLink.type, format).to.equal(direct.type);
      if (ZIPPED.has(format)) expect(viaLink.bytes.length, format).to.equal(direct.bytes.length);
      else expect(viaLink.bytes.equals(direct.bytes), format).to.equal(true);
      if (format === 'csv') expect(viaLink.bytes.toString().trimEnd().split('\n')).to.have.length(count + 1);
      if (format === 'xlsx') {
        const book = new ExcelJS.Workbook();
        await book.xlsx.load(viaLink.bytes as unknown as ArrayBuffer);
        expect(book.worksheets[0]!.actualRowCount).to.equal(count + 1);
      }
    }
    await page.close();
  });
});
