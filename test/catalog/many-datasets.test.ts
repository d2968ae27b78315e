// A portal of 20,000 datasets (copies of seattle-weather, test/helpers/catalog-copies.ts) built
// once for the file: it starts with none of them opened (beyond --max-open-datasets), answers the
// catalog's list and search, a cold dataset's records, and a reload after one dataset.json changed
// rereads that one folder only and answers its new title.
import { expect } from 'chai';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { copyId, writeCopies } from '../helpers/catalog-copies.js';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const COPIES = 20_000;
const BUDGET = 50;
const V21 = '/api/explore/v2.1';
const SAMPLE = path.join(SAMPLE_PORTAL, 'datasets', 'seattle-weather');

describe('a portal of 20,000 datasets', function () {
  // Building the copies and the first start (every folder read once) take minutes on a busy machine.
  this.timeout(600_000);
  let dir: string;
  let server: TestServer;
  let sampleCount: number;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-many-'));
    await writeCopies(dir, SAMPLE, COPIES);
    const sample = JSON.parse(await readFile(path.join(SAMPLE, 'dataset.json'), 'utf8')) as {
      computed: { records_count: number };
    };
    sampleCount = sample.computed.records_count;
    server = await startTestServer(dir, { maxOpenDatasets: BUDGET });
  });
  after(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('starts with every dataset in its catalog and none opened', () => {
    const portal = server.portal.services.portal();
    expect(portal.datasets.size).to.equal(COPIES);
    expect(portal.load?.reread.length).to.equal(COPIES);
    expect(server.portal.services.openDatasets?.size).to.equal(0);
  });

  it('answers the catalog list with total_count 20,000', async () => {
    const { status, body } = await server.json(`${V21}/catalog/datasets?limit=3&select=dataset_id`);
    expect(status).to.equal(200);
    expect(body.total_count).to.equal(COPIES);
    expect(body.results.map((r: { dataset_id: string }) => r.dataset_id)).to.deep.equal([
      copyId(0),
      copyId(1),
      copyId(2),
    ]);
  });

  it('answers a catalog search and a facet on the catalog', async () => {
    // Each copy's keywords hold `c<index>`: one copy has c12345; group7 is every hundredth.
    const one = await server.json(`${V21}/catalog/datasets?where=${encodeURIComponent('"c12345"')}`);
    expect(one.status).to.equal(200);
    expect(one.body.results.map((r: { dataset_id: string }) => r.dataset_id)).to.deep.equal([copyId(12345)]);
    const group = await server.json(
      `${V21}/catalog/datasets?limit=0&where=${encodeURIComponent("keyword = 'group7'")}`,
    );
    expect(group.body.total_count).to.equal(COPIES / 100);
    const facets = await server.json(`${V21}/catalog/facets?facet=theme`);
    const theme = facets.body.facets.find((f: { name: string }) => f.name === 'theme');
    const counts = theme.facets.map((f: { count: number }) => f.count);
    expect(counts.reduce((a: number, b: number) => a + b, 0)).to.equal(COPIES);
  });

  it("answers a cold dataset's records, opening it on first use within the budget", async () => {
    const open = server.portal.services.openDatasets!;
    for (let i = 0; i < BUDGET + 5; i++) {
      const { status, body } = await server.json(`${V21}/catalog/datasets/${copyId(i)}/records?limit=0`);
      expect(status, copyId(i)).to.equal(200);
      expect(body.total_count).to.equal(sampleCount);
    }
    expect(open.size).to.be.at.most(BUDGET);
    const cold = copyId(COPIES - 1);
    const { status, body } = await server.json(`${V21}/catalog/datasets/${cold}/records?limit=2&select=date`);
    expect(status).to.equal(200);
    expect(body.total_count).to.equal(sampleCount);
    expect(body.results).to.have.length(2);
    expect(open.size).to.be.at.most(BUDGET);
  });

  it('reloads after one dataset.json changed, rereading that folder only', async () => {
    const id = copyId(777);
    const file = path.join(dir, 'datasets', id, 'dataset.json');
    const parsed = JSON.parse(await readFile(file, 'utf8')) as { metas: { default: { title: string } } };
    parsed.metas.default.title = 'A new title for copy 777';
    await writeFile(`${file}.new`, JSON.stringify(parsed));
    await rename(`${file}.new`, file);
    const [portal] = await server.portal.reload();
    expect(portal!.load?.reread).to.deep.equal([id]);
    expect(portal!.datasets.size).to.equal(COPIES);
    const { body } = await server.json(`${V21}/catalog/datasets/${id}`);
    expect(body.metas.default.title).to.equal('A new title for copy 777');
    const search = await server.json(`${V21}/catalog/datasets?where=${encodeURIComponent('"new title"')}`);
    expect(search.body.results.map((r: { dataset_id: string }) => r.dataset_id)).to.deep.equal([id]);
    // Its row replaced in place (the table not defined again), the list still in the catalog's order.
    expect(portal!.load?.changes).to.deep.equal({ added: [], replaced: [id], removed: [] });
    expect(server.portal.services.catalog().unordered).to.equal(true);
    const around = await server.json(`${V21}/catalog/datasets?limit=3&offset=776&select=dataset_id`);
    expect(around.body.results.map((r: { dataset_id: string }) => r.dataset_id)).to.deep.equal([
      copyId(776),
      id,
      copyId(778),
    ]);
    // Another reload with nothing changed rereads none.
    const [again] = await server.portal.reload();
    expect(again!.load?.reread).to.deep.equal([]);
  });
});
