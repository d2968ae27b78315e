// Attachments published from the command line: `ingest --attach FILE=Title --attach-source`,
// `attach-file` and `detach-file` on a portal a real `serve` process serves (reloaded by the
// SIGHUP each command sends): listed by the API with their titles and MIME types, downloadable,
// and under the dataset's access rules (a row-filtered audience and an outsider refused).
import { expect } from 'chai';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { KeyStore } from '../../src/auth/keys.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { cleanup, fixture, readDatasetFile, tempDir } from '../ingest/helpers.js';
import { runCli, type Ran } from './run-cli.js';

const V21 = '/api/explore/v2.1';

describe('attachments: ingest --attach, attach-file, detach-file', () => {
  let dir: string;
  let portal: string;
  let serve: ServeProcess;
  const keys = new Map<string, string>();

  before(async () => {
    dir = await tempDir('duckportal-attach-');
    portal = path.join(dir, 'portal');
    const csv = await fixture(dir, 'towns.csv', 'name,n\nParis,1\nLyon,2\nNantes,3\n');
    const guide = await fixture(dir, 'guide.pdf', '%PDF-1.4 guide\n');
    expect(
      await cli([
        'ingest',
        csv,
        '--portal',
        portal,
        '--id',
        'towns',
        '--attach',
        `${guide}=Field guide`,
        '--attach-source',
      ]),
    ).to.include({ code: 0 });
    const store = new KeyStore(portal);
    keys.set('staff', store.create('alice', ['staff']).key).set('filtered', store.create('carol').key);
    keys.set('outsider', store.create('erin').key);
    const file = path.join(portal, 'datasets', 'towns', 'dataset.json');
    const dataset = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    const access = [{ groups: ['staff'] }, { users: ['carol'], row_filter: "name = 'Lyon'" }];
    await writeFile(file, JSON.stringify({ ...dataset, visibility: 'restricted', access }));
    serve = await startServeProcess(portal);
  });
  after(async () => {
    await serve?.kill();
    await cleanup();
  });

  /** Runs a command; a command that signals the server returns once the server reloaded. */
  async function cli(args: string[]): Promise<Ran> {
    const before = serve?.stdout().length ?? 0;
    const ran = await runCli(args);
    if (serve && ran.code === 0) await serve.waitFor('reloaded: ', before);
    return ran;
  }
  const get = (route: string, caller: string) =>
    fetch(`${serve.base}${V21}/catalog/datasets/towns${route}`, {
      headers: { Authorization: `Apikey ${keys.get(caller)}` },
    });
  const listed = async (caller: string) => {
    const response = await get('/attachments', caller);
    expect(response.status).to.equal(200);
    const body = (await response.json()) as { attachments: { metas: Record<string, string> }[] };
    return body.attachments.map(({ metas }) => [metas.id, metas.title, metas['mime-type']]);
  };

  it('records the attachments of ingest with their titles and MIME types, and serves them', async () => {
    expect((await readDatasetFile(portal, 'towns')).attachments).to.deep.equal([
      { file: 'guide.pdf', title: 'Field guide', mime_type: 'application/pdf', all_audiences: false },
      { file: 'towns.csv', title: 'towns.csv', mime_type: 'text/csv', all_audiences: false },
    ]);
    expect(await listed('staff')).to.deep.equal([
      ['guide_pdf', 'Field guide', 'application/pdf'],
      ['towns_csv', 'towns.csv', 'text/csv'],
    ]);
    const lookup = (await (await get('', 'staff')).json()) as { attachments: { title: string }[] };
    expect(lookup.attachments.map((a) => a.title)).to.deep.equal(['Field guide', 'towns.csv']);
    const source = await get('/attachments/towns_csv', 'staff');
    expect(source.status).to.equal(200);
    expect(source.headers.get('content-type')).to.match(/^text\/csv/);
    expect(await source.text()).to.equal('name,n\nParis,1\nLyon,2\nNantes,3\n');
  });

  it('attach-file adds or replaces one; the access rules hold for it', async () => {
    const notes = await fixture(dir, 'notes.md', '# Notes\n');
    const added = await cli(['attach-file', '--portal', portal, 'towns', notes, '--title', 'Release notes']);
    expect(added).to.include({ code: 0, stdout: 'towns: attached notes.md\n' });
    expect(added.stderr).to.match(/reloading: SIGHUP sent to process \d+/);
    const public1 = await fixture(dir, 'readme.txt', 'public words\n');
    expect(await cli(['attach-file', '--portal', portal, 'towns', public1, '--all-audiences'])).to.include({
      code: 0,
    });
    expect(await listed('staff')).to.deep.equal([
      ['guide_pdf', 'Field guide', 'application/pdf'],
      ['notes_md', 'Release notes', 'text/markdown'],
      ['readme_txt', 'readme.txt', 'text/plain'],
      ['towns_csv', 'towns.csv', 'text/csv'],
    ]);
    expect(await (await get('/attachments/notes_md', 'staff')).text()).to.equal('# Notes\n');
    // Under a row filter: only the file marked for all audiences; outside every audience: nothing.
    expect(await listed('filtered')).to.deep.equal([['readme_txt', 'readme.txt', 'text/plain']]);
    expect((await get('/attachments/notes_md', 'filtered')).status).to.equal(404);
    expect((await get('/attachments/towns_csv', 'filtered')).status).to.equal(404);
    expect(await (await get('/attachments/readme_txt', 'filtered')).text()).to.equal('public words\n');
    for (const id of ['notes_md', 'readme_txt']) {
      const refused = await get(`/attachments/${id}`, 'outsider');
      expect([refused.status, ((await refused.json()) as { error_code: string }).error_code]).to.deep.equal([
        403,
        'ForbiddenAccess',
      ]);
    }
    // The same name again replaces the file and its title; the record of the dataset's data is untouched.
    await writeFile(notes, '# Notes, second edition\n');
    const uid = (await readDatasetFile(portal, 'towns')).dataset_uid;
    expect(await cli(['attach-file', '--portal', portal, 'towns', notes, '--title', 'Notes 2'])).to.include({
      code: 0,
    });
    expect(await (await get('/attachments/notes_md', 'staff')).text()).to.equal('# Notes, second edition\n');
    expect((await listed('staff'))[1]).to.deep.equal(['notes_md', 'Notes 2', 'text/markdown']);
    const after = await readDatasetFile(portal, 'towns');
    expect([after.dataset_uid, after.visibility, after.access.length]).to.deep.equal([uid, 'restricted', 2]);
  });

  it('detach-file removes one by file name or id; unknown names and files are refused', async () => {
    expect(await cli(['detach-file', '--portal', portal, 'towns', 'guide_pdf'])).to.include({
      code: 0,
      stdout: 'towns: detached guide.pdf\n',
    });
    expect(await cli(['detach-file', '--portal', portal, 'towns', 'readme.txt'])).to.include({ code: 0 });
    expect((await listed('staff')).map(([id]) => id)).to.deep.equal(['notes_md', 'towns_csv']);
    expect((await get('/attachments/guide_pdf', 'staff')).status).to.equal(404);
    expect((await readDatasetFile(portal, 'towns')).attachments.map((a) => a.file)).to.deep.equal([
      'towns.csv',
      'notes.md',
    ]);
    const missing = await runCli(['detach-file', '--portal', portal, 'towns', 'nothing']);
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.include('towns: no attachment "nothing" (attachments: notes.md, towns.csv)');
    const noFile = await runCli(['attach-file', '--portal', portal, 'towns', path.join(dir, 'none.txt')]);
    expect([noFile.code, noFile.stderr]).to.satisfy(
      ([code, err]: [number, string]) => code === 1 && err.includes('none.txt: no such file'),
    );
    const noDataset = await runCli(['attach-file', '--portal', portal, 'nope', path.join(dir, 'towns.csv')]);
    expect(noDataset.stderr).to.include('nope: no such dataset');
    const badType = await runCli([
      'attach-file',
      '--portal',
      portal,
      'towns',
      path.join(dir, 'towns.csv'),
      '--mime-type',
      'text',
    ]);
    expect(badType.stderr).to.include('mime_type: a MIME type such as text/csv');
    // Nothing refused left a staging folder behind.
    expect(await readdir(path.join(portal, 'datasets'))).to.deep.equal(['towns']);
  });
});
