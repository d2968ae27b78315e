// HTTP caching over the fixture portal: ETag and 304 on every route family without a query run,
// Cache-Control per audience, tags equal across server processes and changed by a re-ingest only
// for the changed dataset, compressed answers equal to the plain ones, the response cache per audience.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { KeyStore } from '../../src/auth/keys.js';
import type { Engine } from '../../src/engine/engine.js';
import { buildFixturePortal } from '../helpers/fixture-portal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { rawGet } from '../helpers/raw-http.js';

const V21 = '/api/explore/v2.1';
const CLI = path.resolve('bin/duckportal.cjs');

/** Counts the engine's connections taken (every query and export takes one). */
function countQueries(engine: Engine): { count: number } {
  const counter = { count: 0 };
  const target = engine as unknown as Record<
    'withConnection' | 'withExportConnection',
    (...a: unknown[]) => unknown
  >;
  for (const method of ['withConnection', 'withExportConnection'] as const) {
    const original = target[method].bind(engine);
    target[method] = (...args: unknown[]) => {
      counter.count++;
      return original(...args);
    };
  }
  return counter;
}

const FAMILIES: [string, string, boolean][] = [
  ['catalog', `${V21}/catalog/datasets?limit=5&offset=0`, true],
  ['dataset', `${V21}/catalog/datasets/towns`, false],
  ['records', `${V21}/catalog/datasets/towns/records?order_by=name&limit=2`, true],
  ['record', `${V21}/catalog/datasets/towns/records/a1`, true],
  ['facets', `${V21}/catalog/datasets/towns/facets`, true],
  ['attachment list', `${V21}/catalog/datasets/towns/attachments`, false],
  ['attachment', `${V21}/catalog/datasets/towns/attachments/cities1000_zip`, false],
  ['export', `${V21}/catalog/datasets/towns/exports/csv`, true],
  ['v1 records', '/api/records/1.0/search?dataset=towns', true],
  ['v1 dataset', '/api/datasets/1.0/towns', false],
  ['v2.0', '/api/explore/v2.0/catalog/datasets/towns/records?limit=2', true],
];

describe('HTTP caching', () => {
  describe('validators (fixture portal, response cache off)', () => {
    let dir: string;
    let server: TestServer;
    let queries: { count: number };
    let key: string;
    before(async () => {
      dir = await buildFixturePortal();
      key = new KeyStore(dir).create('alice').key;
      // Shared export files off: their background write takes a connection after the first
      // answer, which this count would read as a query for the 304 (test/exports/shared-file.test.ts
      // covers the shared file's validators).
      server = await startTestServer(dir, { cacheBytes: 0, sharedExports: false });
      queries = countQueries(server.portal.services.engine);
    });
    after(async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    });

    for (const [family, route, queried] of FAMILIES) {
      it(`answers 304 to the ETag of the ${family} route, before any query`, async () => {
        const before = queries.count;
        const first = await rawGet(server.base, route);
        expect(first.status, route).to.equal(200);
        if (queried) expect(queries.count, 'the 200 ran a query').to.be.above(before);
        const tag = first.headers.etag!;
        expect(tag).to.match(/^"[\w-]{32}"$/);
        expect(first.headers['last-modified']).to.equal(new Date('2024-03-01T10:00:00Z').toUTCString());
        expect(first.headers['cache-control']).to.equal('public, max-age=60');
        const afterFirst = queries.count;
        const second = await rawGet(server.base, route, { 'If-None-Match': tag });
        expect(second.status).to.equal(304);
        expect(second.body.length).to.equal(0);
        expect(second.headers.etag).to.equal(tag);
        expect(queries.count, 'no query for a 304').to.equal(afterFirst);
      });
    }

    it('gives the same tag whatever the order of the parameters, and another for other values', async () => {
      const tagOf = async (route: string) => (await rawGet(server.base, route)).headers.etag;
      const records = `${V21}/catalog/datasets/towns/records`;
      const tag = await tagOf(`${records}?limit=2&order_by=name&refine=name:Paris&refine=name:Lyon`);
      expect(await tagOf(`${records}?refine=name:Paris&order_by=name&refine=name:Lyon&limit=2`)).to.equal(
        tag,
      );
      expect(await tagOf(`${records}/?limit=2&order_by=name&refine=name:Paris&refine=name:Lyon`)).to.equal(
        tag,
      );
      expect(await tagOf(`${records}?limit=3&order_by=name&refine=name:Paris&refine=name:Lyon`)).to.not.equal(
        tag,
      );
      expect(await tagOf(`${records}?limit=2&order_by=name&refine=name:Lyon&refine=name:Paris`)).to.not.equal(
        tag,
      );
    });

    it('treats a garbage If-None-Match as a miss, and accepts the weak and encoded forms of the tag', async () => {
      const route = `${V21}/catalog/datasets/towns`;
      const tag = (await rawGet(server.base, route)).headers.etag!;
      for (const garbage of [
        'garbage',
        '""',
        `${tag.slice(1, -1)}`,
        `"${'x'.repeat(5000)}"`,
        '"\u00e9", ,,',
        `W/${tag}x`,
        '*',
      ]) {
        const answer = await rawGet(server.base, route, { 'If-None-Match': garbage });
        expect(answer.status, garbage.slice(0, 40)).to.equal(200);
        expect(JSON.parse(String(answer.body)).dataset_id).to.equal('towns');
      }
      for (const held of [`W/${tag}`, `"other", ${tag}`, `${tag.slice(0, -1)}-gzip"`]) {
        expect((await rawGet(server.base, route, { 'If-None-Match': held })).status, held).to.equal(304);
      }
    });

    it('marks answers shaped by a key private, errors no-store, and varies on what identifies a caller', async () => {
      const route = `${V21}/catalog/datasets/towns/records`;
      const anonymous = await rawGet(server.base, route);
      const keyed = await rawGet(server.base, route, { Authorization: `Apikey ${key}` });
      expect(keyed.headers['cache-control']).to.equal('private, no-cache');
      expect(keyed.headers.etag).to.not.equal(anonymous.headers.etag);
      expect(String(keyed.body)).to.equal(String(anonymous.body));
      for (const answer of [anonymous, keyed]) {
        const vary = String(answer.headers.vary).split(/,\s*/);
        expect(vary).to.include.members(['Authorization', 'Cookie', 'Accept-Encoding']);
      }
      for (const bad of [
        `${V21}/catalog/datasets/nope/records`,
        `${route}?where=nope(`,
        `${route}?limit=1000`,
      ]) {
        const error = await rawGet(server.base, bad);
        expect(error.status, bad).to.be.within(400, 499);
        expect(error.headers['cache-control'], bad).to.equal('no-store');
        expect(error.headers.etag, bad).to.equal(undefined);
      }
      const refused = await rawGet(server.base, route, { Authorization: 'Apikey not-a-key' });
      expect([refused.status, refused.headers['cache-control']]).to.deep.equal([401, 'no-store']);
    });

    it('compresses JSON with gzip and br over 1 KB, decoded equal to the plain answer; exports stay plain', async () => {
      const route = `${V21}/catalog/datasets`;
      const plain = await rawGet(server.base, route);
      expect(plain.body.length).to.be.above(1024);
      expect(plain.headers['content-encoding']).to.equal(undefined);
      const gzip = await rawGet(server.base, route, { 'Accept-Encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).to.equal('gzip');
      expect(zlib.gunzipSync(gzip.body).equals(plain.body)).to.equal(true);
      const br = await rawGet(server.base, route, { 'Accept-Encoding': 'br, gzip' });
      expect(br.headers['content-encoding']).to.equal('br');
      expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).to.equal(true);
      expect(br.body.length).to.be.below(plain.body.length);
      expect(
        new Set([plain.headers.etag, gzip.headers.etag, br.headers.etag]).size,
        'one tag per coding',
      ).to.equal(3);
      expect(gzip.headers.etag).to.equal(`${plain.headers.etag!.slice(0, -1)}-gzip"`);
      const revalidated = await rawGet(server.base, route, {
        'Accept-Encoding': 'gzip',
        'If-None-Match': gzip.headers.etag!,
      });
      expect(revalidated.status).to.equal(304);
      const small = await rawGet(server.base, `${V21}/catalog/datasets/words/records?limit=1`, {
        'Accept-Encoding': 'gzip',
      });
      expect(small.headers['content-encoding'], 'under 1 KB').to.equal(undefined);
      const exported = await rawGet(server.base, `${V21}/catalog/datasets/towns/exports/csv`, {
        'Accept-Encoding': 'gzip, br',
      });
      expect(exported.headers['content-encoding']).to.equal(undefined);
      expect(String(exported.body)).to.contain('Paris');
    });
  });

  describe('on a private portal', () => {
    it('answers a key private and the anonymous 401 no-store', async () => {
      const dir = await buildFixturePortal();
      const key = new KeyStore(dir).create('alice').key;
      const file = path.join(dir, 'portal.json');
      await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), private: true }));
      const server = await startTestServer(dir);
      try {
        const route = `${V21}/catalog/datasets`;
        const refused = await rawGet(server.base, route);
        expect([refused.status, refused.headers['cache-control']]).to.deep.equal([401, 'no-store']);
        const keyed = await rawGet(server.base, route, { Authorization: `Apikey ${key}` });
        expect([keyed.status, keyed.headers['cache-control']]).to.deep.equal([200, 'private, no-cache']);
      } finally {
        await server.close();
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  describe('two server processes over the same folder', () => {
    let dir: string;
    const children: ChildProcess[] = [];
    before(async () => {
      dir = await buildFixturePortal();
    });
    after(async () => {
      for (const child of children) {
        child.kill('SIGTERM');
        if (child.exitCode === null) await once(child, 'exit');
      }
      await rm(dir, { recursive: true, force: true });
    });

    async function startProcess(): Promise<string> {
      const child = spawn(CLI, ['serve', '--portal', dir, '--port', '0', '--threads', '1'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      children.push(child);
      // stdout is read to its end (the log has a line per request).
      let output = '';
      child.stdout.on('data', (chunk) => (output += String(chunk)));
      const listening = (): RegExpExecArray | null => /datasets on (http:\/\/[\d.]+:\d+)\//.exec(output);
      while (!listening() && child.exitCode === null) await once(child.stdout, 'data');
      const found = listening();
      if (!found) throw new Error(`the server did not start: ${output}`);
      return found[1]!;
    }

    it('gives every answer the same ETag on both', async () => {
      const bases = await Promise.all([startProcess(), startProcess()]);
      for (const [family, route] of FAMILIES) {
        const headers = { Host: 'data.example.org', 'Accept-Encoding': 'gzip' };
        const [a, b] = await Promise.all(bases.map((base) => rawGet(base, route, headers)));
        expect(a!.status, family).to.equal(200);
        expect(a!.headers.etag, family).to.be.a('string');
        expect(a!.headers.etag, family).to.equal(b!.headers.etag);
      }
    });
  });
});
