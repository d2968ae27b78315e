// The response cache: answers kept per audience (a restricted dataset with hidden fields and a
// row filter), dropped for the dataset a re-ingest changed, bounded in bytes, one run per miss.
import { expect } from 'chai';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { KeyStore } from '../../src/auth/keys.js';
import type { Engine } from '../../src/engine/engine.js';
import { ResponseCache, type CachedAnswer } from '../../src/http/response-cache.js';
import { ingest } from '../../src/ingest/ingest.js';
import { buildFixturePortal, restrictTowns } from '../helpers/fixture-portal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const V21 = '/api/explore/v2.1';

/** Counts the engine's connections taken (every query takes one). */
function countQueries(engine: Engine): { count: number } {
  const counter = { count: 0 };
  const target = engine as unknown as Record<'withConnection', (...a: unknown[]) => unknown>;
  const original = target.withConnection.bind(engine);
  target.withConnection = (...args: unknown[]) => {
    counter.count++;
    return original(...args);
  };
  return counter;
}

const answer = (bytes: number, scope: string | null = 'towns', version = 'v1'): CachedAnswer => ({
  body: Buffer.alloc(bytes, 'x'),
  type: 'application/json; charset=utf-8',
  scope,
  version,
});

describe('response cache', () => {
  it('evicts the least recently used answers and never grows past its bound', () => {
    const cache = new ResponseCache(8192);
    for (let i = 0; i < 20; i++) {
      cache.share(`"k${i}"`, Promise.resolve(answer(1000)));
    }
    return new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => {
        expect(cache.usage().bytes).to.be.at.most(8192);
        expect(cache.usage().answers).to.be.within(1, 7);
        expect(cache.get('"k0"'), 'oldest evicted').to.equal(undefined);
        expect(cache.get('"k19"'), 'newest kept').to.not.equal(undefined);
        cache.share('"huge"', Promise.resolve(answer(10_000)));
      })
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => {
        expect(cache.get('"huge"'), 'larger than the whole cache').to.equal(undefined);
        expect(cache.get('"k19"')).to.not.equal(undefined);
      });
  });

  it('shares one computation between concurrent misses, and a failure with none', async () => {
    const cache = new ResponseCache(0);
    let release!: (value: CachedAnswer) => void;
    cache.share('"a"', new Promise((resolve) => (release = resolve)));
    const waiting = cache.inFlight('"a"');
    expect(waiting).to.not.equal(undefined);
    release(answer(10));
    expect((await waiting)!.body.length).to.equal(10);
    expect(cache.get('"a"'), 'size 0 keeps nothing').to.equal(undefined);
    cache.share('"b"', Promise.reject(new Error('query failed')));
    expect(await cache.inFlight('"b"')).to.equal(null);
  });

  describe('over HTTP', () => {
    let dir: string;
    let server: TestServer;
    let queries: { count: number };
    const keys = new Map<string, string | null>([['anonymous', null]]);

    before(async () => {
      dir = await buildFixturePortal();
      const callers = await restrictTowns(dir);
      keys.set('staff', callers.staff);
      keys.set('filtered', callers.filtered);
      keys.set('no geo', callers.hidden);
      keys.set('staff too', new KeyStore(dir).create('erin', ['staff']).key);
      for (const id of ['alpha', 'beta']) {
        const csv = path.join(dir, `${id}.csv`);
        await writeFile(csv, 'name,n\none,1\ntwo,2\n');
        await ingest({ file: csv, portal: dir, id });
      }
      server = await startTestServer(dir);
      queries = countQueries(server.portal.services.engine);
    });
    after(async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    });

    const get = async (route: string, caller = 'anonymous') => {
      const key = keys.get(caller);
      const response = await server.get(route, key ? { headers: { Authorization: `Apikey ${key}` } } : {});
      return { status: response.status, etag: response.headers.get('etag'), body: await response.text() };
    };

    it('never serves one audience the answer of another', async () => {
      const routes = [
        `${V21}/catalog/datasets/towns/records?order_by=name`,
        `${V21}/catalog/datasets/towns`,
        `${V21}/catalog/datasets?where=dataset_id='towns'`,
        `${V21}/catalog/datasets/towns/facets`,
      ];
      const callers = ['staff', 'filtered', 'no geo'];
      const first = new Map<string, { etag: string | null; body: string }>();
      for (const route of routes) {
        for (const caller of callers) {
          const answer = await get(route, caller);
          expect(answer.status, `${route} as ${caller}`).to.equal(200);
          first.set(`${route} ${caller}`, answer);
        }
        const [staff, filtered, noGeo] = callers.map((caller) => first.get(`${route} ${caller}`)!);
        expect(filtered!.body, `${route}: the row filter shapes the answer`).to.not.equal(staff!.body);
        expect(
          new Set([staff!.etag, filtered!.etag, noGeo!.etag]).size,
          `${route}: one tag per audience`,
        ).to.equal(3);
      }
      const records = JSON.parse(first.get(`${routes[0]} filtered`)!.body);
      expect(records.results.map((r: { name: string }) => r.name)).to.deep.equal(['Lyon']);
      expect(first.get(`${routes[0]} no geo`)!.body).to.not.equal(first.get(`${routes[0]} staff`)!.body);
      const hidden = JSON.parse(first.get(`${routes[0]} no geo`)!.body);
      expect(Object.keys(hidden.results[0])).to.not.include.members(['geo_point_2d', 'founded']);
      expect((await get(routes[0]!)).status, 'anonymous').to.equal(403);

      const before = queries.count;
      for (const route of routes) {
        for (const caller of [...callers].reverse()) {
          const again = await get(route, caller);
          expect(again, `${route} as ${caller}, from the cache`).to.deep.equal({
            status: 200,
            ...first.get(`${route} ${caller}`),
          });
        }
        const sameRights = await get(route, 'staff too');
        expect(sameRights.body, 'the same rights share the answer').to.equal(
          first.get(`${route} staff`)!.body,
        );
      }
      expect(queries.count, 'every answer came from the cache').to.equal(before);
      expect((await get(routes[0]!)).status, 'anonymous, still').to.equal(403);
    });

    it('changes the ETags of a re-ingested dataset and the catalog after a reload, and no other', async () => {
      const routes = {
        alphaRecords: `${V21}/catalog/datasets/alpha/records`,
        alphaDataset: `${V21}/catalog/datasets/alpha`,
        alphaV1: '/api/records/1.0/search?dataset=alpha',
        betaRecords: `${V21}/catalog/datasets/beta/records`,
        betaDataset: `${V21}/catalog/datasets/beta`,
        words: `${V21}/catalog/datasets/words/records`,
        catalog: `${V21}/catalog/datasets`,
      };
      const answers = async () =>
        Object.fromEntries(
          await Promise.all(Object.entries(routes).map(async ([name, route]) => [name, await get(route)])),
        );
      const before = await answers();
      expect(JSON.parse(before.alphaRecords.body).total_count).to.equal(2);
      const cached = server.portal.services.http.responses.usage().answers;

      const csv = path.join(dir, 'alpha.csv');
      await writeFile(csv, 'name,n\none,1\ntwo,2\nthree,3\n');
      await ingest({ file: csv, portal: dir, id: 'alpha' });
      const stale = await get(routes.betaRecords);
      expect(stale.etag, 'before the reload nothing changes').to.equal(before.betaRecords.etag);
      await server.portal.reload();
      expect(
        server.portal.services.http.responses.usage().answers,
        'alpha and catalog answers dropped',
      ).to.be.below(cached);

      const after = await answers();
      for (const name of ['alphaRecords', 'alphaDataset', 'alphaV1', 'catalog']) {
        expect(after[name].etag, name).to.not.equal(before[name].etag);
      }
      for (const name of ['betaRecords', 'betaDataset', 'words']) {
        expect(after[name].etag, name).to.equal(before[name].etag);
      }
      expect(JSON.parse(after.alphaRecords.body).total_count, 'not the cached answer').to.equal(3);
      const revalidated = await server.get(routes.alphaRecords, {
        headers: { 'If-None-Match': before.alphaRecords.etag! },
      });
      expect(revalidated.status, 'the old tag is a miss').to.equal(200);
    });
  });
});
