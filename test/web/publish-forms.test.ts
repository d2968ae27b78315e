// The account page's Datasets tab over HTTP (no browser): only a portal administrator sees it (a
// non-admin gets no tab and 404 on every path, a signed-out visitor is sent to sign in); every form
// is refused without its CSRF token, and an upload whose token does not come first writes nothing;
// an upload past --max-upload-size is a 413, by its Content-Length and by its bytes; a hostile file
// name or dataset id reaches no folder outside the draft's; URLs of other schemes and of loopback
// addresses are refused unless --allow-private-urls; publish, replace and delete through a URL.
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { UserStore } from '../../src/auth/users.js';
import { isForbiddenAddress } from '../../src/web/publish-fetch.js';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';
import { Visitor } from '../helpers/account-visitor.js';

const CSV = 'name,count\nrobin,3\nwren,5\n';
const LIMIT = 4096;

async function users(dir: string): Promise<void> {
  const store = new UserStore(dir);
  await store.add('ada', 'ada password', ['admin']);
  await store.add('bob', 'bob password', ['staff']);
}

/** The upload form: its token first, as a browser sends it. */
function uploadForm(token: string | null, id: string, file?: { body: string; name: string }, url?: string) {
  const form = new FormData();
  if (token !== null) form.append('_csrf', token);
  form.append('id', id);
  if (url !== undefined) form.append('url', url);
  if (file) form.append('file', new Blob([file.body]), file.name);
  return form;
}

async function signedIn(server: TestServer, name: string): Promise<Visitor> {
  const visitor = new Visitor(server);
  expect((await visitor.signIn(name, `${name} password`)).status).to.equal(303);
  return visitor;
}

describe('web: publishing from the account page over HTTP (fixture portal)', function () {
  this.timeout(60_000);
  let server: TestServer & { readonly dir: string };
  let source: http.Server;
  let sourceBase: string;
  before(async () => {
    server = await startFixtureServer(users, { maxUploadBytes: LIMIT });
    source = http.createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/csv' }).end(CSV);
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    sourceBase = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  });
  after(async () => {
    source.close();
    await server.close();
  });
  const drafts = async () => {
    const root = path.join(server.dir, '.tmp');
    const folders = await readdir(root);
    return (
      await Promise.all(folders.map((f) => readdir(path.join(root, f, 'drafts')).catch(() => [])))
    ).flat();
  };

  it('shows the tab and its paths to an administrator only', async () => {
    const ada = await signedIn(server, 'ada');
    expect((await ada.get('/account/')).html).to.include('<a href="/account/datasets/">Datasets</a>');
    expect((await ada.get('/account/datasets/')).status).to.equal(200);
    const bob = await signedIn(server, 'bob');
    expect((await bob.get('/account/')).html).to.not.include('Datasets');
    const token = await bob.token();
    for (const page of [
      '/account/datasets/',
      '/account/datasets/towns/delete',
      `/account/datasets/drafts/${'a'.repeat(32)}`,
    ])
      expect((await bob.get(page)).status, page).to.equal(404);
    expect((await bob.post('/account/datasets/towns/delete', { _csrf: token })).status).to.equal(404);
    const upload = await bob.postMultipart(
      '/account/datasets/drafts',
      uploadForm(token, 'birds', { body: CSV, name: 'b.csv' }),
    );
    expect(upload.status).to.equal(404);
    expect(await drafts()).to.deep.equal([]);
    const visitor = new Visitor(server);
    const away = await visitor.get('/account/datasets/');
    expect([away.status, away.response.headers.get('location')]).to.deep.equal([
      302,
      '/account/?next=%2Faccount%2Fdatasets%2F',
    ]);
    expect(
      (await visitor.post('/account/datasets/towns/delete', { _csrf: await visitor.token() })).status,
    ).to.equal(403);
    expect((await server.get('/api/explore/v2.1/catalog/datasets/towns')).status).to.equal(200);
  });

  it('refuses every form without its token, writing nothing', async () => {
    const ada = await signedIn(server, 'ada');
    const other = await new Visitor(server).token();
    for (const token of [null, 'x', other]) {
      const answer = await ada.postMultipart(
        '/account/datasets/drafts',
        uploadForm(token, 'birds', { body: CSV, name: 'b.csv' }),
      );
      expect(answer.status).to.equal(403);
      expect(answer.html).to.include('This form has expired');
    }
    // The token after the file: the file is refused before a byte of it is written.
    const late = new FormData();
    late.append('id', 'birds');
    late.append('file', new Blob([CSV]), 'b.csv');
    late.append('_csrf', await ada.token());
    expect((await ada.postMultipart('/account/datasets/drafts', late)).status).to.equal(403);
    expect(await drafts()).to.deep.equal([]);
    expect((await ada.post('/account/datasets/towns/delete', { _csrf: other })).status).to.equal(403);
    expect((await server.get('/api/explore/v2.1/catalog/datasets/towns')).status).to.equal(200);
  });

  it('answers 413 past --max-upload-size, by Content-Length and by the bytes sent', async () => {
    const ada = await signedIn(server, 'ada');
    const token = await ada.token();
    const big = `name\n${'x'.repeat(LIMIT)}\n`;
    const declared = await ada.postMultipart(
      '/account/datasets/drafts',
      uploadForm(token, 'big', { body: big.repeat(20), name: 'b.csv' }),
    );
    expect(declared.status).to.equal(413);
    expect(declared.html).to.include(`larger than the limit of ${LIMIT} bytes`);
    // Just over the limit, within the form's allowance: only the bytes tell.
    const counted = await ada.postMultipart(
      '/account/datasets/drafts',
      uploadForm(token, 'big', { body: big, name: 'b.csv' }),
    );
    expect(counted.status).to.equal(413);
    expect(await drafts()).to.deep.equal([]);
    expect((await server.get('/api/explore/v2.1/catalog/datasets/big')).status).to.equal(404);
  });

  it('keeps hostile file names and ids inside the draft folder', async () => {
    const ada = await signedIn(server, 'ada');
    const token = await ada.token();
    const bad = await ada.postMultipart(
      '/account/datasets/drafts',
      uploadForm(token, '../../etc', { body: CSV, name: 'b.csv' }),
    );
    expect(bad.status).to.equal(400);
    expect(bad.html).to.include('is not a dataset id');
    const named = await ada.postMultipart(
      '/account/datasets/drafts',
      uploadForm(token, 'birds', { body: CSV, name: '../../../datasets/towns/data.parquet.csv' }),
    );
    expect(
      named.status,
      named.html.slice(named.html.indexOf('role="alert"'), named.html.indexOf('role="alert"') + 300),
    ).to.equal(303);
    const preview = await ada.get(named.response.headers.get('location')!);
    expect(preview.html).to.include('From <strong>data.parquet.csv</strong>');
    expect((await readdir(path.join(server.dir, 'datasets'))).sort()).to.deep.equal([
      'broken',
      'towns',
      'words',
    ]);
    for (const token of ['..%2F..%2Fdatasets', '0'.repeat(31)])
      expect((await ada.get(`/account/datasets/drafts/${token}`)).status).to.equal(404);
    expect((await ada.get('/account/datasets/..%2Ftowns/delete')).status).to.equal(404);
  });

  it('refuses URLs of other schemes and of this machine unless allowed', async () => {
    const ada = await signedIn(server, 'ada');
    const token = await ada.token();
    for (const [url, message] of [
      ['file:///etc/passwd', 'Only http and https URLs'],
      ['ftp://example.org/a.csv', 'Only http and https URLs'],
      [`${sourceBase}/a.csv`, 'loopback, private or reserved address'],
      [`http://localhost:${new URL(sourceBase).port}/a.csv`, 'loopback, private or reserved address'],
      ['http://[::ffff:127.0.0.1]/a.csv', 'loopback, private or reserved address'],
    ]) {
      const answer = await ada.postMultipart(
        '/account/datasets/drafts',
        uploadForm(token, 'birds', undefined, url),
      );
      expect(answer.status, url).to.equal(400);
      expect(answer.html, url).to.include(message);
    }
    expect(
      ['10.1.2.3', '169.254.169.254', '192.168.0.1', 'fd00::1', '::1'].map(isForbiddenAddress),
    ).to.deep.equal([true, true, true, true, true]);
    expect(['93.184.216.34', '2606:4700::1'].map(isForbiddenAddress)).to.deep.equal([false, false]);
  });
});

describe('web: publishing a URL, replacing and deleting over HTTP (--allow-private-urls)', function () {
  this.timeout(60_000);
  let server: TestServer & { readonly dir: string };
  let source: http.Server;
  let rows = 2;
  before(async () => {
    server = await startFixtureServer(users, { allowPrivateUrls: true });
    source = http.createServer((_request, response) => {
      const lines = Array.from({ length: rows }, (_, i) => `bird ${i},${i}`);
      response.writeHead(200, { 'Content-Type': 'text/csv' }).end(`name,count\n${lines.join('\n')}\n`);
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    source.close();
    await server.close();
  });

  const count = async () =>
    (await server.json('/api/explore/v2.1/catalog/datasets/birds/records?limit=0')).body.total_count;

  it('publishes, replaces and deletes a dataset fetched from a URL', async () => {
    const ada = await signedIn(server, 'ada');
    const url = `http://127.0.0.1:${(source.address() as AddressInfo).port}/birds.csv`;
    const publish = async (replace: boolean) => {
      const staged = await ada.postMultipart(
        '/account/datasets/drafts',
        uploadForm(await ada.token(), 'birds', undefined, url),
      );
      expect(staged.status).to.equal(303);
      const draft = staged.response.headers.get('location')!;
      expect((await ada.get(draft)).html).to.include(replace ? 'Replace birds' : 'Publish birds');
      const fields = {
        _csrf: await ada.token(),
        title: 'Birds',
        visibility: 'public',
        facet: 'name',
        keyword: 'a, b',
      };
      const published = await ada.post(`${draft}/publish`, fields);
      expect([published.status, published.response.headers.get('location')]).to.deep.equal([
        303,
        '/account/datasets/?published=birds',
      ]);
    };
    await publish(false);
    expect(await count()).to.equal(2);
    const metas = (await server.json('/api/explore/v2.1/catalog/datasets/birds')).body.metas.default;
    expect([metas.title, metas.keyword]).to.deep.equal(['Birds', ['a', 'b']]);
    rows = 7;
    await publish(true);
    expect(await count()).to.equal(7);
    const confirm = await ada.get('/account/datasets/birds/delete');
    expect(confirm.html).to.include('This cannot be undone.');
    const deleted = await ada.post('/account/datasets/birds/delete', { _csrf: await ada.token() });
    expect(deleted.status).to.equal(303);
    expect((await server.get('/api/explore/v2.1/catalog/datasets/birds')).status).to.equal(404);
    expect((await readdir(path.join(server.dir, 'datasets'))).sort()).to.deep.equal([
      'broken',
      'towns',
      'words',
    ]);
  });
});
