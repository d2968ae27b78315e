// The engine keeps total_count answers by their SQL: the next pages and other sorts of one filter
// count once, a reload that redefines a view counts again, now() is never kept.
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CountCache } from '../../src/engine/count-cache.js';
import type { Engine } from '../../src/engine/engine.js';
import { ingest } from '../../src/ingest/ingest.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The count queries the engine runs from now on. */
function countQueriesRun(engine: Engine): string[] {
  const run: string[] = [];
  const target = engine as unknown as { queryJson: Engine['queryJson'] };
  const original = target.queryJson.bind(engine);
  target.queryJson = (sql, params, signal) => {
    if (/AS total_count/.test(sql)) run.push(sql);
    return original(sql, params, signal);
  };
  return run;
}

describe('engine: the count cache', () => {
  it('runs a count once per SQL, again after a clear, always with now() or when off', async () => {
    const cache = new CountCache(10);
    let runs = 0;
    const run = () => Promise.resolve(++runs);
    expect(await cache.count('SELECT count(*) FROM "a"', run)).to.equal(1);
    expect(await cache.count('SELECT count(*) FROM "a"', run)).to.equal(1);
    expect(await cache.count('SELECT count(*) FROM "b"', run)).to.equal(2);
    cache.clear();
    expect(await cache.count('SELECT count(*) FROM "a"', run)).to.equal(3);
    const moving = 'SELECT count(*) FROM "a" WHERE "d" < now()';
    expect(await cache.count(moving, run)).to.equal(4);
    expect(await cache.count(moving, run)).to.equal(5);
    const off = new CountCache(0);
    expect(await off.count('x', run)).to.equal(6);
    expect(await off.count('x', run)).to.equal(7);
  });

  it('does not keep a count begun before a clear: it may be of the old data', async () => {
    const cache = new CountCache(10);
    let finish: (n: number) => void = () => undefined;
    const slow = cache.count('q', () => new Promise<number>((resolve) => (finish = resolve)));
    cache.clear();
    finish(41);
    expect(await slow).to.equal(41);
    expect(await cache.count('q', () => Promise.resolve(42))).to.equal(42);
  });

  describe('over the API', () => {
    let dir: string;
    let server: TestServer;
    const records = '/api/explore/v2.1/catalog/datasets/towns/records';

    before(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-counts-'));
      const csv = path.join(dir, 'towns.csv');
      await writeFile(csv, 'name,people\nParis,2100000\nLyon,520000\nNice,340000\n');
      await ingest({ file: csv, portal: dir, id: 'towns' });
      server = await startTestServer(dir, { cacheBytes: 0, maxAge: 60 });
    });
    after(async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    });

    // The answers differ (pages, sorts), so the response cache keeps none of them for another.
    it('counts a filter once for its pages and sorts, and again after a reload of new data', async () => {
      const withCounts = await startTestServer(dir);
      try {
        const run = countQueriesRun(withCounts.portal.services.engine);
        const where = `where=${encodeURIComponent('people > 400000')}`;
        for (const page of [
          'limit=1',
          'limit=1&offset=1',
          'order_by=people&limit=1',
          'order_by=name desc&limit=2',
        ]) {
          const { body } = await withCounts.json(`${records}?${where}&${page}`);
          expect(body.total_count, page).to.equal(2);
        }
        expect(run, 'one count for four pages').to.have.length(1);
        await withCounts.json(`${records}?where=${encodeURIComponent('people > 100000')}`);
        expect(run).to.have.length(2);

        const csv = path.join(dir, 'towns.csv');
        await writeFile(csv, 'name,people\nParis,2100000\nLyon,520000\nNice,340000\nLille,1500000\n');
        await ingest({ file: csv, portal: dir, id: 'towns' });
        await withCounts.portal.reload();
        const { body } = await withCounts.json(`${records}?${where}&limit=1`);
        expect(body.total_count, 'counted again after the reload').to.equal(3);
        expect(run).to.have.length(3);
      } finally {
        await withCounts.close();
      }
    });

    it('keeps no count with --cache-size 0', async () => {
      const run = countQueriesRun(server.portal.services.engine);
      // Under a condition: the count of every record is records_count, with no query (query-context.ts).
      const where = `where=${encodeURIComponent('people > 0')}`;
      for (let i = 0; i < 3; i++) await server.json(`${records}?${where}&limit=1`);
      expect(run).to.have.length(3);
    });
  });
});
