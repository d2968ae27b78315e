// Two portals made from one folder (`cp -a`) hold the same secret.key: a session of one must be
// nobody on the other, and `serve` refuses to serve both at once.
import { expect } from 'chai';
import { copyFile, cp, link, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { KeyStore } from '../../src/auth/keys.js';
import { SECRET_FILE } from '../../src/auth/portal-secret.js';
import { UserStore } from '../../src/auth/users.js';
import { runCli } from '../cli/run-cli.js';
import { Visitor } from '../helpers/account-visitor.js';
import { buildFixturePortal, restrictDataset } from '../helpers/fixture-portal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const RECORDS = '/api/explore/v2.1/catalog/datasets/towns/records';

/** A copy of portal folder `dir` (as `cp -a` makes it) answering `domain`. */
async function copyPortal(dir: string, domain: string): Promise<string> {
  const copy = path.join(os.tmpdir(), `${path.basename(dir)}-copy`);
  await cp(dir, copy, { recursive: true, preserveTimestamps: true });
  const file = path.join(copy, 'portal.json');
  const settings = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...settings, domain }));
  return copy;
}

describe('portals that share secret.key', function () {
  this.timeout(120_000);
  let dirA: string;
  let dirB: string;
  before(async () => {
    dirA = await buildFixturePortal();
    await new UserStore(dirA).add('alice', 'alice password', ['staff']);
    await restrictDataset(dirA, 'towns', [{ groups: ['staff'] }]);
    // The folder's secret.key exists once it has been served.
    await (await startTestServer(dirA)).close();
    dirB = await copyPortal(dirA, 'b.example.org');
    // On the copy, alice is another person, in no group that reads towns.
    new UserStore(dirB).remove('alice');
    await new UserStore(dirB).add('alice', 'another password', ['visitors']);
  });
  after(async () => {
    await rm(dirA, { recursive: true, force: true });
    await rm(dirB, { recursive: true, force: true });
  });

  it('takes a session of one portal for nobody on the other, which keeps its keys', async () => {
    const a: TestServer = await startTestServer(dirA);
    const b: TestServer = await startTestServer(dirB);
    try {
      const onA = new Visitor(a);
      expect((await onA.signIn('alice', 'alice password')).status).to.equal(303);
      const { html } = await onA.get('/account/');
      expect(html).to.include('Signed in as <strong>alice</strong>');
      const token = /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
      // The same cookie and form token, replayed on the other portal.
      const onB = new Visitor(b);
      onB.cookie = onA.cookie;
      const created = await onB.post('/account/keys', { _csrf: token });
      expect(new KeyStore(dirB).list()).to.deep.equal([]);
      expect(created.status).to.equal(303);
      expect((await onB.get('/account/')).html).to.not.include('Signed in as <strong>alice</strong>');
      const cookie = { headers: { Cookie: `duckportal_session=${onA.cookie}` } };
      expect((await a.get(RECORDS, cookie)).status).to.equal(200);
      expect((await b.get(RECORDS, cookie)).status).to.equal(403);
      // API keys are the portal's own keys.json: one made on A after the copy is unknown on B.
      const key = new KeyStore(dirA).create('alice', ['staff']).key;
      const withKey = { headers: { Authorization: `Apikey ${key}` } };
      expect((await a.get(RECORDS, withKey)).status).to.equal(200);
      expect((await b.get(RECORDS, withKey)).status).to.equal(401);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('refuses to serve them together, whether secret.key is one file or a copy of its bytes', async () => {
    const secretB = path.join(dirB, SECRET_FILE);
    for (const share of [link, copyFile]) {
      await unlink(secretB);
      await share(path.join(dirA, SECRET_FILE), secretB);
      const ran = await runCli(['serve', '--portal', dirA, '--portal', dirB, '--port', '0'], {
        timeoutMs: 30_000,
      });
      expect(ran.code, ran.stderr).to.equal(1);
      expect(ran.stdout).to.not.include('datasets on');
      expect(ran.stderr).to.include(dirA).and.include(dirB).and.include(SECRET_FILE);
      expect(ran.stderr).to.include(share === link ? 'the same file' : 'the same bytes');
      expect(ran.stderr.trim().split('\n')).to.have.length(1);
    }
    // Given a secret of its own, the copy is served beside the original.
    await unlink(secretB);
    const both = await startTestServer([dirA, dirB]);
    await both.close();
  });
});
