// Every writer of a portal's datasets is seen by the next load (a reload): `ingest` of a new and of
// a replacing version, `attach-file`, `detach-file`, `refresh` with new bytes, a dataset deleted as
// the browser's publishing does, and a dataset.json edited in place by hand. Each shows as the one
// change of the load (added, replaced or removed) and as the one folder the stampers report, both
// the inline one of small portals and the worker threads of large ones.
import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from '../cli/run-cli.js';
import { cleanup, fixture, tempDir, useHttpServer } from '../ingest/helpers.js';
import { loadPortal, type Portal } from '../../src/catalog/portal.js';
import { FolderStamper } from '../../src/catalog/folder-stamps.js';
import { removeDatasetDirectory } from '../../src/ingest/staging.js';

const CHECKS = { rowFilter: () => null, engineKinds: new Set<string>() };

describe('a reload sees every writer', function () {
  this.timeout(120_000);
  const source = { body: 'name,n\nParis,1\n', etag: '"v1"' };
  const http = useHttpServer((request, response) => {
    if (request.headers['if-none-match'] === source.etag) response.writeHead(304).end();
    else response.writeHead(200, { ETag: source.etag }).end(source.body);
  });
  let dir: string;
  let portal: string;
  let loaded: Portal;
  const stampers: FolderStamper[] = [];

  before(async () => {
    dir = await tempDir('duckportal-writers-');
    portal = path.join(dir, 'portal');
    const towns = ['ingest', `${http.base}/towns.csv`, '--id', 'towns', '--refresh', '6h'];
    expect(await run(towns)).to.include({ code: 0 });
    expect(await run(['ingest', await fixture(dir, 'other.csv', 'a,b\n1,2\n'), '--id', 'other'])).to.include({
      code: 0,
    });
    loaded = await loadPortal(portal, CHECKS);
    expect([...loaded.datasets.keys()]).to.deep.equal(['other', 'towns']);
    // Workers from 0 folders, and never: the two ways a stamper works.
    stampers.push(new FolderStamper(path.join(portal, 'datasets'), 0));
    stampers.push(new FolderStamper(path.join(portal, 'datasets'), Infinity));
    for (const stamper of stampers) await stamper.changes();
  });
  after(async () => {
    for (const stamper of stampers) stamper.reset();
    await cleanup();
  });

  const run = (args: string[]) => runCli([...args, '--portal', portal, '--no-reload', '-q']);

  /** Loads again: `id` is the one change, of `kind`, and the one folder each stamper reports. */
  async function expectSeen(kind: 'added' | 'replaced' | 'removed', id: string): Promise<Portal> {
    loaded = await loadPortal(portal, CHECKS, '', loaded);
    const { changes, reread } = loaded.load!;
    expect(changes).to.deep.equal({ added: [], replaced: [], removed: [], [kind]: [id] });
    expect(reread).to.deep.equal(kind === 'removed' ? [] : [id]);
    for (const stamper of stampers) {
      const found = await stamper.changes();
      expect([...found.stamps.keys(), ...found.gone]).to.deep.equal([id]);
    }
    return loaded;
  }

  it('sees an ingest of a new dataset', async () => {
    expect(await run(['ingest', await fixture(dir, 'third.csv', 'x\n1\n'), '--id', 'third'])).to.include({
      code: 0,
    });
    const portalNow = await expectSeen('added', 'third');
    expect([...portalNow.datasets.keys()]).to.deep.equal(['other', 'third', 'towns']);
  });

  it('sees an ingest replacing a dataset', async () => {
    const csv = await fixture(dir, 'other.csv', 'a,b\n1,2\n3,4\n');
    expect(await run(['ingest', csv, '--id', 'other', '--replace'])).to.include({ code: 0 });
    const portalNow = await expectSeen('replaced', 'other');
    expect(portalNow.datasets.get('other')!.file.computed.records_count).to.equal(2);
  });

  it('sees attach-file and detach-file', async () => {
    const notes = await fixture(dir, 'notes.txt', 'notes\n');
    expect(await run(['attach-file', 'other', notes])).to.include({ code: 0 });
    let portalNow = await expectSeen('replaced', 'other');
    expect(portalNow.datasets.get('other')!.attachments.map((a) => a.fileName)).to.deep.equal(['notes.txt']);
    expect(await run(['detach-file', 'other', 'notes.txt'])).to.include({ code: 0 });
    portalNow = await expectSeen('replaced', 'other');
    expect(portalNow.datasets.get('other')!.attachments).to.deep.equal([]);
  });

  it('sees a refresh that found new bytes', async () => {
    Object.assign(source, { body: 'name,n\nParis,1\nLyon,2\nNantes,3\n', etag: '"v2"' });
    expect(await run(['refresh', '--all'])).to.include({ code: 0 });
    const portalNow = await expectSeen('replaced', 'towns');
    expect(portalNow.datasets.get('towns')!.file.computed.records_count).to.equal(3);
  });

  it('sees a dataset.json edited in place', async () => {
    const file = path.join(portal, 'datasets', 'third', 'dataset.json');
    const parsed = JSON.parse(await readFile(file, 'utf8')) as { metas: { default: { title: string } } };
    parsed.metas.default.title = 'Edited in place';
    await writeFile(file, JSON.stringify(parsed));
    const portalNow = await expectSeen('replaced', 'third');
    expect(portalNow.datasets.get('third')!.file.metas.default.title).to.equal('Edited in place');
  });

  it('sees a dataset deleted as the publishing pages delete one', async () => {
    expect(await removeDatasetDirectory(path.join(portal, 'datasets'), 'third')).to.equal(true);
    const portalNow = await expectSeen('removed', 'third');
    expect([...portalNow.datasets.keys()]).to.deep.equal(['other', 'towns']);
  });
});
