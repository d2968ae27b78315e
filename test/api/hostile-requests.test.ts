// Inputs anyone can send that once made the server answer 500 or misread a name: each now gets
// the right 4xx (or 503 for a full disk), in the v2.1 error shape, and one log line.
import { execFileSync } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import { useSampleSuite } from '../helpers/sample-portal.js';
import type { TestServer } from '../helpers/server.js';

const V21 = '/api/explore/v2.1';

/**
 * Fetches `url` and checks it is a clean error: status, the error shape of the API generation
 * of the path (v1 `{errorcode, error}`, else v2.1's), no DuckDB or stack text.
 */
async function expectError(
  server: TestServer,
  url: string,
  status: number,
): Promise<{ error_code: string; message: string }> {
  const response = await server.get(url);
  const text = await response.text();
  expect(response.status, `${url}: ${text}`).to.equal(status);
  const body = JSON.parse(text) as Record<string, unknown>;
  const v1 = url.startsWith('/api/records/1.0') || url.startsWith('/api/datasets/1.0');
  expect(Object.keys(body).sort()).to.deep.equal(v1 ? ['error', 'errorcode'] : ['error_code', 'message']);
  const message = String(v1 ? body.error : body.message);
  expect(message).not.to.match(/Error:|\n\s+at |duckdb|\.parquet|\/tmp\//i);
  return { error_code: String(body.error_code ?? body.errorcode), message };
}

describe('hostile requests (sample portal)', () => {
  const suite = useSampleSuite();

  it('a NUL character in the path is a 404: no id holds one', async () => {
    const body = await expectError(suite.server, `${V21}/catalog/datasets/airports/records/SFO%00`, 404);
    expect(body.message).to.include('NUL');
  });

  describe('a NUL character in a parameter is a 400 naming the parameter', () => {
    for (const [url, where] of [
      ['/api/records/1.0/search/?dataset=airports&q=%00', /q API parameter/],
      [`${V21}/catalog/datasets/airports/records?where=name%3D%22a%00b%22`, /where API parameter/],
      [`${V21}/catalog/exports/csv?list_separator=%00`, /list_separator API parameter/],
      [`${V21}/catalog/datasets/airports/exports/csv?delimiter=%00`, /delimiter API parameter/],
    ] as const) {
      it(url, async () => {
        const body = await expectError(suite.server, url, 400);
        expect(body.message).to.match(where).and.to.include('NUL');
      });
    }
  });

  it('ifnull() of a multivalued field is a 400 naming the field, in every clause', async () => {
    for (const query of [
      "where=ifnull(theme,'x')='x'",
      'select=ifnull(title,theme)',
      "group_by=ifnull(theme,'x')",
      "order_by=ifnull(theme,'x')",
    ]) {
      const body = await expectError(suite.server, `${V21}/catalog/datasets?${query}`, 400);
      expect(body.message, query).to.include('theme').and.to.include('multivalued');
    }
  });

  describe('__proto__, constructor and valueOf are plain names', () => {
    for (const name of ['__proto__', 'constructor', 'valueOf', 'hasOwnProperty']) {
      it(`${name}: a label keeps its column, a format or dataset of that name does not exist`, async () => {
        const labeled = await suite.server.json(
          `${V21}/catalog/datasets/airports/records?select=iata as \`${name}\`&order_by=iata&limit=1`,
        );
        expect(labeled.status).to.equal(200);
        expect(Object.entries(labeled.body.results[0])).to.deep.equal([[name, '00M']]);
        const grouped = await suite.server.json(
          `${V21}/catalog/datasets/airports/records?select=count(*) as \`${name}\`&group_by=state as s&order_by=s&limit=1`,
        );
        expect(Object.keys(grouped.body.results[0])).to.deep.equal(['s', name]);
        await expectError(suite.server, `${V21}/catalog/exports/${name}`, 400);
        await expectError(suite.server, `${V21}/catalog/datasets/airports/exports/${name}`, 400);
        await expectError(suite.server, `${V21}/catalog/datasets/${name}/records`, 404);
        await expectError(suite.server, `${V21}/catalog/datasets/airports/records?refine=${name}:x`, 400);
        await expectError(suite.server, `${V21}/catalog/datasets/airports/facets?facet=${name}`, 400);
      });
    }
  });

  it('a search of more than 16 terms is a 400 naming the cap; 1,000 words too (was a 500)', async () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    expect(
      (await suite.server.json(`${V21}/catalog/datasets/flights/records?where="${words(16)}"&limit=0`))
        .status,
    ).to.equal(200);
    for (const where of [`"${words(17)}"`, `search(origin, "${words(40)}")`, `"${words(1000)}"`]) {
      const body = await expectError(
        suite.server,
        `${V21}/catalog/datasets/flights/records?where=${where}`,
        400,
      );
      expect(body.message).to.match(/Too many search terms: \d+ \(at most 16 per search\)/);
    }
    const v1 = await suite.server.get(`/api/records/1.0/search/?dataset=flights&q=${words(1000)}`);
    expect(v1.status).to.equal(400);
  });
});

describe('a dataset removed while serving, a full disk (fixture portal)', () => {
  let server: TestServer & { readonly dir: string };
  let tmp: string;
  before(async function () {
    server = await startFixtureServer();
    // A 4 KiB tmpfs over the server's spill folder once it runs (the catalog index and the pinned
    // data files beside it stay as they are): one page, so the second file of a shapefile fails
    // with ENOSPC (mounting needs root, as the tests run in CI).
    const root = path.join(server.dir, '.tmp');
    const folder = (await readdir(root, { withFileTypes: true })).find((e) => e.isDirectory())!;
    tmp = path.join(root, folder.name, 'spill');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'duckportal-test-full', tmp]);
  });
  after(async () => {
    execFileSync('umount', [tmp]);
    await server?.close();
  });

  it('a dataset whose folder vanished is served from its pinned files until a reload, then answers 404; the rest still answers', async () => {
    await rm(path.join(server.dir, 'datasets', 'words'), { recursive: true });
    // The server's hard links keep the version it loaded (src/server/process-folder.ts).
    expect((await server.get(`${V21}/catalog/datasets/words/records`)).status).to.equal(200);
    await server.portal.reload();
    await expectError(server, `${V21}/catalog/datasets/words/records`, 404);
    await expectError(server, `${V21}/catalog/datasets/words/exports/csv`, 404);
    expect((await server.get(`${V21}/catalog/datasets/towns/records`)).status).to.equal(200);
  });

  it('an export that finds the disk full is a 503 DiskFull with Retry-After, logged in one line', async () => {
    const response = await server.get(`${V21}/catalog/datasets/towns/exports/shp`);
    expect(response.status).to.equal(503);
    expect(response.headers.get('retry-after')).to.equal('60');
    expect((await response.json()).error_code).to.equal('DiskFull');
    const lines = server.logs.filter((line) => line.includes('/exports/shp'));
    expect(lines).to.have.length(1);
    expect(lines[0])
      .to.match(/503 DiskFull/)
      .and.not.to.include('\n');
  });
});
