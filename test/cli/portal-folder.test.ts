// Which portal folder each command works on, through the real process: named on stderr (serve: in
// its start-up line), created by ingest and sample when new, refused when it is not a portal.
import { expect } from 'chai';
import { createServer } from 'node:net';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ensurePortalFile } from '../../src/ingest/portal-file.js';
import { freePort } from '../helpers/ports.js';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';
import { cleanup, fixture, tempDir } from '../ingest/helpers.js';
import { runCli, startServe } from './run-cli.js';

describe('the portal folder of each command', () => {
  after(cleanup);

  it('refuses a folder without portal.json, and serve a missing one, exit 1 in one line', async () => {
    const dir = await tempDir();
    const other = path.join(dir, 'other');
    await mkdir(other);
    await writeFile(path.join(other, 'notes.txt'), 'not a portal');
    const file = await fixture(dir, 'towns.csv', 'name\nParis\n');
    const refusals: string[][] = [
      ['serve', '--portal', other],
      ['ingest', file, '--portal', other, '--id', 'towns'],
      ['sample', '--portal', other],
      ['keys', 'list', '--portal', other],
      ['keys', 'create', '--user', 'alice', '--portal', other],
      ['users', 'list', '--portal', other],
    ];
    for (const args of refusals) {
      expect(await runCli(args), args.join(' ')).to.deep.equal({
        code: 1,
        stdout: '',
        stderr: `duckportal: ${other}: not a portal folder (no portal.json)\n`,
      });
    }
    expect(await readdir(other)).to.deep.equal(['notes.txt']);
    const missing = path.join(dir, 'missing');
    for (const args of [
      ['serve', '--portal', missing],
      ['keys', 'list', '--portal', missing],
    ]) {
      expect(await runCli(args), args.join(' ')).to.deep.equal({
        code: 1,
        stdout: '',
        stderr: `duckportal: ${missing}: no such portal folder\n`,
      });
    }
    expect(await readdir(dir)).to.deep.equal(['other', 'towns.csv']);
  });

  it('creates a portal for ingest in a new or empty folder, and names the folder every time', async () => {
    const dir = await tempDir();
    const file = await fixture(dir, 'towns.csv', 'name\nParis\n');
    const portal = path.join(dir, 'new');
    const first = await runCli(['ingest', file, '--portal', portal, '--id', 'towns']);
    expect(first.code, first.stderr).to.equal(0);
    expect(first.stderr.split('\n')[0]).to.equal(`portal: ${portal} (new portal)`);
    expect(await readdir(portal)).to.include('portal.json');
    const second = await runCli(['ingest', file, '--portal', portal, '--id', 'towns2']);
    expect(second.stderr.split('\n')[0]).to.equal(`portal: ${portal}`);
    const empty = path.join(dir, 'empty');
    await mkdir(empty);
    const quiet = await runCli(['ingest', file, '--portal', empty, '--id', 'towns', '-q']);
    expect(quiet).to.include({ code: 0, stderr: '' });
    expect(await readdir(path.join(empty, 'datasets'))).to.deep.equal(['towns']);
  });

  it('takes data/portal when --portal is left out, and says so', async () => {
    const dir = await tempDir();
    await ensurePortalFile(path.join(dir, 'data', 'portal'));
    const listed = await runCli(['keys', 'list'], { cwd: dir });
    expect(listed).to.deep.equal({
      code: 0,
      stdout: '',
      stderr: `portal: ${path.join(dir, 'data', 'portal')}\n`,
    });
    const elsewhere = await tempDir();
    expect(await runCli(['users', 'list'], { cwd: elsewhere })).to.deep.equal({
      code: 1,
      stdout: '',
      stderr: `duckportal: ${path.join(elsewhere, 'data', 'portal')}: no such portal folder\n`,
    });
  });

  it('serve names its folder in the start-up line, and refuses a busy port in one line, exit 1', async () => {
    const served = await startServe(['--portal', SAMPLE_PORTAL, '--port', '0']);
    try {
      const startUp = JSON.parse(served.output().stdout.split('\n')[0]!) as Record<string, unknown>;
      expect(startUp).to.include({ portal_dir: SAMPLE_PORTAL });
      expect(startUp.msg).to.match(/^\d+ datasets on http:\/\//);
    } finally {
      expect(await served.stop()).to.equal(0);
    }
    const port = await freePort();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      expect(await runCli(['serve', '--portal', SAMPLE_PORTAL, '--port', String(port)])).to.deep.equal({
        code: 1,
        stdout: '',
        stderr: `duckportal: port ${port} is in use on 127.0.0.1\n`,
      });
      const metrics = ['--port', '0', '--metrics-port', String(port)];
      expect(await runCli(['serve', '--portal', SAMPLE_PORTAL, ...metrics])).to.include({
        code: 1,
        stderr: `duckportal: port ${port} is in use on 127.0.0.1\n`,
      });
    } finally {
      taken.close();
    }
  });
});
