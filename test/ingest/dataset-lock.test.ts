// Writers of one dataset at once: N `attach-file` processes started together, beside an `ingest
// --replace` and a `detach-file`, each build on the version the one before swapped in (the
// dataset's lock), so that every change is there at the end; the same within one process; and a
// lock left by a process that died is taken over.
import { expect } from 'chai';
import { mkdir, readdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import { attachFile, detachFile } from '../../src/ingest/attach-file.js';
import { withDatasetLock } from '../../src/ingest/dataset-lock.js';
import { ingest } from '../../src/ingest/ingest.js';
import { runCli } from '../cli/run-cli.js';
import { cleanup, fixture, readDatasetFile, tempDir } from './helpers.js';

const N = 6;

describe('ingest: one writer of a dataset at a time', () => {
  let dir: string;
  after(cleanup);

  /** A portal with dataset towns (2 records) and one attachment, old.txt. */
  async function portalWithTowns(): Promise<string> {
    dir = await tempDir('duckportal-lock-');
    const portal = path.join(dir, 'portal');
    const csv = await fixture(dir, 'towns.csv', 'name,n\nParis,1\nLyon,2\n');
    const old = await fixture(dir, 'old.txt', 'old notes\n');
    await ingest({ file: csv, portal, id: 'towns', attachments: [{ file: old }] });
    return portal;
  }
  const attached = async (portal: string): Promise<string[]> =>
    (await readDatasetFile(portal, 'towns')).attachments.map((a) => a.file).sort();

  it(`${N} attach-file processes, an ingest --replace and a detach-file at once: every change kept`, async () => {
    const portal = await portalWithTowns();
    const files = await Promise.all(
      Array.from({ length: N }, (_, i) => fixture(dir, `note-${i}.txt`, `note ${i}\n`)),
    );
    const bigger = await fixture(dir, 'bigger.csv', 'name,n\nParis,1\nLyon,2\nNantes,3\n');
    const flags = ['--portal', portal, '--no-reload'];
    const ran = await Promise.all([
      ...files.map((file) => runCli(['attach-file', ...flags, 'towns', file])),
      runCli(['ingest', bigger, ...flags, '--id', 'towns', '--replace', '-q']),
      runCli(['detach-file', ...flags, 'towns', 'old.txt']),
    ]);
    expect(ran.map((r) => [r.code, r.stderr.replace(/^portal: .*\n/, '')])).to.deep.equal(
      ran.map(() => [0, '']),
    );
    expect(await attached(portal)).to.deep.equal(files.map((f) => path.basename(f)).sort());
    expect(await readdir(path.join(portal, 'datasets', 'towns', 'attachments'))).to.have.members(
      files.map((f) => path.basename(f)),
    );
    expect((await readDatasetFile(portal, 'towns')).computed.records_count).to.equal(3);
    expect(await readdir(path.join(portal, '.tmp', 'locks'))).to.deep.equal([]);
  });

  it('within one process too, and a writer holding the lock takes it again', async () => {
    const portal = await portalWithTowns();
    const files = await Promise.all(
      Array.from({ length: N }, (_, i) => fixture(dir, `same-${i}.txt`, `same ${i}\n`)),
    );
    await Promise.all([
      ...files.map((file) => attachFile(portal, 'towns', { file })),
      detachFile(portal, 'towns', 'old.txt'),
    ]);
    expect(await attached(portal)).to.deep.equal(files.map((f) => path.basename(f)).sort());
    const extra = await fixture(dir, 'extra.txt', 'extra\n');
    await withDatasetLock(portal, 'towns', () => attachFile(portal, 'towns', { file: extra }));
    expect(await attached(portal)).to.include('extra.txt');
  });

  it('takes over the lock of a process that died (not touched for 30 s); refuses an id that is no id', async () => {
    const portal = await portalWithTowns();
    const lock = path.join(portal, '.tmp', 'locks', 'towns.lock');
    await mkdir(lock, { recursive: true });
    const minuteAgo = new Date(Date.now() - 60_000);
    await utimes(lock, minuteAgo, minuteAgo);
    const file = await fixture(dir, 'after.txt', 'after\n');
    expect(await attachFile(portal, 'towns', { file })).to.equal('after.txt');
    expect(await attached(portal)).to.deep.equal(['after.txt', 'old.txt']);
    let error: unknown;
    await withDatasetLock(portal, '../towns', () => Promise.resolve()).catch((e: unknown) => (error = e));
    expect(String(error)).to.include('invalid dataset id "../towns"');
  });

  it('leaves no folder behind when the first ingest of a new portal fails', async () => {
    const base = await tempDir('duckportal-lock-new-');
    const portal = path.join(base, 'portal');
    const empty = await fixture(base, 'empty.csv', 'name,n\n');
    let error: unknown;
    await ingest({ file: empty, portal, id: 'towns' }).catch((e: unknown) => (error = e));
    expect(String(error)).to.include('no records');
    expect(await readdir(base)).to.deep.equal(['empty.csv']);
  });
});
