// The pages as HTTP answers (no browser): HTML shells in the portal's language, the bundle with
// immutable caching, HTML 404s outside /api/ and JSON ones inside, a restricted dataset's sign-in
// offer to anonymous visitors and the 404 of an unknown one to a signed-in outsider, the catalog
// page's scope, the sign-in form first on a private portal (not for /favicon.ico), 405 for
// methods other than GET/HEAD; scripts and stylesheets sent precompressed by Accept-Encoding.
import { expect } from 'chai';
import http from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decodedBody, rawGet } from '../helpers/raw-http.js';
import { KeyStore } from '../../src/auth/keys.js';
import { WEB_DIST, webManifest } from '../../src/web/manifest.js';
import { makePrivate, startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';

async function editJson(file: string, edit: (value: any) => void): Promise<void> {
  const value = JSON.parse(await readFile(file, 'utf8'));
  edit(value);
  await writeFile(file, JSON.stringify(value));
}

async function page(server: TestServer, url: string, init?: RequestInit) {
  const response = await server.get(url, init);
  return { status: response.status, type: response.headers.get('content-type'), html: await response.text() };
}

describe('web: pages over HTTP (fixture portal)', () => {
  let server: TestServer;
  let staffKey: string;
  let outsiderKey: string;

  before(async () => {
    server = await startFixtureServer(async (dir) => {
      staffKey = new KeyStore(dir).create('alice', ['staff']).key;
      outsiderKey = new KeyStore(dir).create('bob').key;
      await editJson(path.join(dir, 'portal.json'), (p) => (p.language = 'fr'));
      await editJson(path.join(dir, 'datasets', 'towns', 'dataset.json'), (d) => {
        d.visibility = 'restricted';
        d.access = [{ groups: ['staff'] }];
      });
    });
  });
  after(() => server.close());

  it('serves the catalog at / and /explore/ with the portal language, title and entry script', async () => {
    for (const url of ['/', '/explore/', '/explore']) {
      const answer = await page(server, url);
      expect(answer.status, url).to.equal(200);
      expect(answer.type).to.equal('text/html; charset=utf-8');
      expect(answer.html).to.include('<html lang="fr">');
      expect(answer.html).to.include('<title>Catalog · Fixture portal</title>');
      expect(answer.html).to.include(
        `<script type="module" src="/assets/${webManifest().entries.catalog!.script}">`,
      );
      expect(answer.html).to.include('data-api="/api/explore/v2.1"');
    }
  });

  it('serves every bundle file with immutable caching and its content type; nothing else', async () => {
    const { stylesheet, entries } = webManifest();
    for (const [file, type] of [
      [entries.catalog!.script, 'text/javascript; charset=utf-8'],
      [stylesheet, 'text/css; charset=utf-8'],
    ] as const) {
      const response = await server.get(`/assets/${file}`);
      expect(response.status, file).to.equal(200);
      expect(response.headers.get('content-type')).to.equal(type);
      expect(response.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      expect((await response.arrayBuffer()).byteLength).to.be.greaterThan(100);
    }
    for (const url of [
      '/assets/manifest.json',
      '/assets/nope-123.js',
      '/assets/..%2Fsrc%2Fserver.js',
      '/assets/',
    ]) {
      const response = await server.get(url);
      expect(response.status, url).to.equal(404);
      expect(response.headers.get('cache-control'), `${url}: an error is never stored`).to.equal('no-store');
    }
  });

  it('shows a dataset page with its tabs, the dataset id and tab as data attributes', async () => {
    const answer = await page(server, '/explore/dataset/words/');
    expect(answer.status).to.equal(200);
    expect(answer.html).to.include('<h1>Words</h1>');
    expect(answer.html).to.include('data-dataset="words" data-tab="information"');
    expect(answer.html).to.match(
      /<a data-carry href="\/explore\/dataset\/words\/information\/" aria-current="page">/,
    );
    expect((await page(server, '/explore/dataset/words/information/')).status).to.equal(200);
  });

  it('offers an anonymous visitor of a restricted dataset sign-in; to a signed-in outsider it is the 404 of an unknown one', async () => {
    const unknown = await page(server, '/explore/dataset/nope/information/');
    const anonymous = await page(server, '/explore/dataset/towns/table/?sort=name');
    expect(anonymous.status).to.equal(401);
    expect(anonymous.type).to.equal('text/html; charset=utf-8');
    expect(anonymous.html).to.include('Sign in to see this dataset');
    expect(anonymous.html).to.include(
      `<a href="/account/?next=${encodeURIComponent('/explore/dataset/towns/table/?sort=name')}">Sign in</a>`,
    );
    expect(anonymous.html, 'no more than the catalog API tells').not.to.include('Towns');
    const outsider = await page(server, '/explore/dataset/towns/information/', {
      headers: { Authorization: `Apikey ${outsiderKey}` },
    });
    for (const answer of [unknown, outsider]) {
      expect(answer.status).to.equal(404);
      expect(answer.type).to.equal('text/html; charset=utf-8');
      expect(answer.html).to.include('Dataset not found or not allowed');
    }
    expect(outsider.html.replace(/towns/g, 'nope')).to.equal(unknown.html);
    const withRights = await page(server, '/explore/dataset/towns/', {
      headers: { Authorization: `Apikey ${staffKey}` },
    });
    expect(withRights.status).to.equal(200);
    expect(withRights.html).to.include('<h1>Towns</h1>');
  });

  it("scopes the catalog page to the datasets its visitor can open, as the API's data_visible says", async () => {
    const scope = `data-scope="visibility = &#39;domain&#39;"`;
    expect((await page(server, '/explore/')).html).to.include(scope);
    const asOutsider = { headers: { Authorization: `Apikey ${outsiderKey}` } };
    expect((await page(server, '/explore/', asOutsider)).html).to.include(scope);
    const asStaff = { headers: { Authorization: `Apikey ${staffKey}` } };
    expect((await page(server, '/explore/', asStaff)).html).not.to.include('data-scope');
    const listed = await server.json('/api/explore/v2.1/catalog/datasets?select=dataset_id');
    const scoped = await server.json(
      `/api/explore/v2.1/catalog/datasets?select=dataset_id&where=${encodeURIComponent("visibility = 'domain'")}`,
    );
    const ids = (body: any) => body.results.map((r: { dataset_id: string }) => r.dataset_id);
    expect(ids(listed.body)).to.include('towns');
    expect(ids(scoped.body)).to.deep.equal(ids(listed.body).filter((id: string) => id !== 'towns'));
  });

  it('gives an HTML 404 outside /api/ and keeps the JSON 404 of the API', async () => {
    for (const url of [
      '/nothing-here',
      '/explore/dataset/words/no-such-tab/',
      '/explore/dataset/words/table/x',
    ]) {
      const answer = await page(server, url);
      expect(answer.status, url).to.equal(404);
      expect(answer.type, url).to.equal('text/html; charset=utf-8');
      expect(answer.html, url).to.include('<html lang="fr">');
    }
    const api = await server.json('/api/explore/v2.1/nothing');
    expect(api.status).to.equal(404);
    expect(api.body.error_code).to.equal('NotFoundResource');
  });

  it('escapes what the URL brings into a page', async () => {
    const answer = await page(server, `/explore/dataset/${encodeURIComponent('<b>"x')}/`);
    expect(answer.status).to.equal(404);
    expect(answer.html).to.include('<code>&#60;b&#62;&#34;x</code>');
    expect(answer.html).not.to.include('<b>"x');
  });
});

/** The headers of a HEAD request sent as written. */
function rawHead(base: string, route: string, headers: Record<string, string>) {
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const { hostname, port } = new URL(base);
    http
      .request({ method: 'HEAD', hostname, port, path: route, headers }, (response) => {
        response.resume();
        response.on('end', () => resolve(response));
      })
      .on('error', reject)
      .end();
  });
}

describe('web: precompressed assets', () => {
  let server: TestServer;
  before(async () => {
    server = await startFixtureServer();
  });
  after(() => server.close());

  const CASES = [
    ['br, gzip, deflate', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['identity', undefined],
    ['', undefined],
  ] as const;

  it('sends each script and stylesheet as brotli, gzip or itself by Accept-Encoding, every form the same file', async () => {
    const { stylesheet, entries } = webManifest();
    for (const file of [entries.catalog!.script, entries.analyze!.script, stylesheet]) {
      const original = readFileSync(path.join(WEB_DIST, file)).toString();
      const tags = new Set<string>();
      for (const [accept, coding] of CASES) {
        const route = `/assets/${file}`;
        const answer = await rawGet(server.base, route, accept ? { 'Accept-Encoding': accept } : {});
        const what = `${file}, Accept-Encoding "${accept}"`;
        expect(answer.status, what).to.equal(200);
        expect(answer.headers['content-encoding'], what).to.equal(coding);
        expect(answer.headers.vary, what).to.equal('Accept-Encoding');
        expect(Number(answer.headers['content-length']), what).to.equal(answer.body.length);
        expect(decodedBody(answer.headers, answer.body), what).to.equal(original);
        tags.add(answer.headers.etag!);
        const head = await rawHead(server.base, route, accept ? { 'Accept-Encoding': accept } : {});
        expect(head.statusCode, what).to.equal(200);
        expect(head.headers['content-length'], what).to.equal(answer.headers['content-length']);
        expect(head.headers['content-encoding'], what).to.equal(coding);
        expect(head.headers.etag, what).to.equal(answer.headers.etag);
      }
      expect([...tags], `${file}: one tag per coding`).to.have.length(3);
      const br = await rawGet(server.base, `/assets/${file}`, { 'Accept-Encoding': 'br' });
      expect(br.body.length, `${file}: brotli is smaller`).to.be.below(original.length / 2);
    }
  });

  it('answers 304 to a tag it gave, and leaves the source maps and images uncompressed', async () => {
    const { entries } = webManifest();
    const route = `/assets/${entries.catalog!.script}`;
    const first = await rawGet(server.base, route, { 'Accept-Encoding': 'gzip' });
    const again = await rawGet(server.base, route, {
      'Accept-Encoding': 'gzip',
      'If-None-Match': first.headers.etag!,
    });
    expect(again.status).to.equal(304);
    expect(again.body.length).to.equal(0);
    expect(again.headers.etag).to.equal(first.headers.etag);
    const map = await rawGet(server.base, `${route}.map`, { 'Accept-Encoding': 'br, gzip' });
    expect(map.status).to.equal(200);
    expect(map.headers['content-encoding']).to.equal(undefined);
    expect(map.body.toString()).to.equal(
      readFileSync(path.join(WEB_DIST, `${entries.catalog!.script}.map`), 'utf8'),
    );
    for (const suffix of ['.gz', '.br']) {
      expect((await rawGet(server.base, `${route}${suffix}`)).status, suffix).to.equal(404);
    }
  });
});

describe('web: pages of a private portal', () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startFixtureServer(async (dir) => {
      key = await makePrivate(dir);
    });
  });
  after(() => server.close());

  it('sends an anonymous visitor to the sign-in form and back, and shows the pages with a key', async () => {
    for (const url of ['/explore/dataset/words/?q=a%20b', '/', '/api/explore/v2.1/console']) {
      const anonymous = await server.get(url, { redirect: 'manual' });
      expect(anonymous.status, url).to.equal(303);
      expect(anonymous.headers.get('location'), url).to.equal(`/account/?next=${encodeURIComponent(url)}`);
      expect(await anonymous.text(), url).not.to.include('Words');
    }
    const signIn = await page(server, '/account/?next=%2Fexplore%2F');
    expect(signIn.status).to.equal(200);
    expect(signIn.html).to.include('<input type="hidden" name="next" value="/explore/">');
    const signed = await page(server, '/explore/dataset/words/', {
      headers: { Authorization: `Apikey ${key}` },
    });
    expect(signed.status).to.equal(200);
    expect((await server.json('/api/explore/v2.1/catalog/datasets')).status).to.equal(401);
  });

  it('answers /favicon.ico to anyone, signed in or not, with its type and a day of caching; pages link it', async () => {
    const icon = await rawGet(server.base, '/favicon.ico');
    expect(icon.status).to.equal(200);
    expect(icon.headers['content-type']).to.equal('image/vnd.microsoft.icon');
    expect(icon.headers['cache-control']).to.equal('public, max-age=86400');
    expect(icon.body).to.deep.equal(readFileSync(path.join(WEB_DIST, 'favicon.ico')));
    // An icon directory of one 32 x 32 image of 32 bits a pixel.
    expect([...icon.body.subarray(0, 8)]).to.deep.equal([0, 0, 1, 0, 1, 0, 32, 32]);
    expect(icon.body.readUInt16LE(12)).to.equal(32);
    const again = await rawGet(server.base, '/favicon.ico', { 'If-None-Match': icon.headers.etag! });
    expect(again.status).to.equal(304);
    expect(again.body.length).to.equal(0);
    const head = await server.get('/favicon.ico', { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(head.headers.get('etag')).to.equal(icon.headers.etag);
    const shell = await page(server, '/explore/dataset/words/', {
      headers: { Authorization: `Apikey ${key}` },
    });
    expect(shell.html).to.include('<link rel="icon" href="/favicon.ico" sizes="32x32">');
  });

  it('answers a method other than GET on a page with a 405 page, and keeps the API read-only', async () => {
    for (const url of ['/explore/', '/explore/dataset/words/', '/nothing-here']) {
      const answer = await page(server, url, { method: 'POST', headers: { Authorization: `Apikey ${key}` } });
      expect(answer.status, url).to.equal(405);
      expect(answer.type, url).to.equal('text/html; charset=utf-8');
    }
    const api = await server.get('/api/explore/v2.1/catalog/datasets', {
      method: 'POST',
      headers: { Authorization: `Apikey ${key}` },
    });
    expect(api.status).to.equal(405);
    expect((await api.json()).error_code).to.equal('MethodNotAllowed');
  });
});
