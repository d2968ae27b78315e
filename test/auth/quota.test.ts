// Quotas: exact counting per key, per IP and per portal, a daily window, and export slots; in
// Redis, an outage that goes on from the counts Redis last gave (a real redis-server, stopped).
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ExportSlots, QuotaCounter } from '../../src/auth/quota.js';
import { QuotaStore } from '../../src/auth/quota-store.js';
import { DEFAULT_QUOTAS } from '../../src/catalog/schema.js';
import { ensurePortalFile } from '../../src/ingest/portal-file.js';
import { createLogger } from '../../src/log.js';
import { startRedis } from '../helpers/deploy-tools.js';
import { buildFixturePortal } from '../helpers/fixture-portal.js';
import { startTestServer } from '../helpers/server.js';

const anonymous = (ip: string) => ({ keyId: null, ip });
const keyed = (keyId: string) => ({ keyId, ip: '10.0.0.1' });

describe('quotas', () => {
  it('lets exactly `per_ip` calls through per address and day, then refuses without counting', () => {
    const counter = new QuotaCounter({ ...DEFAULT_QUOTAS, per_ip: 3 }, () => Date.UTC(2026, 0, 1, 12));
    const decisions = Array.from({ length: 5 }, () => counter.take(anonymous('1.2.3.4')));
    expect(decisions.map((d) => d.allowed)).to.deep.equal([true, true, true, false, false]);
    expect(decisions.map((d) => d.remaining)).to.deep.equal([2, 1, 0, 0, 0]);
    expect(decisions[0]!.limit).to.equal(3);
    expect(decisions[0]!.resetAt.toISOString()).to.equal('2026-01-02T00:00:00.000Z');
    expect(counter.take(anonymous('5.6.7.8')).allowed).to.equal(true);
  });

  it('counts keys apart from addresses, with their own limit', () => {
    const counter = new QuotaCounter({ ...DEFAULT_QUOTAS, per_ip: 1, per_key: 2 });
    expect(counter.take(anonymous('10.0.0.1')).allowed).to.equal(true);
    expect(counter.take(anonymous('10.0.0.1')).allowed).to.equal(false);
    expect([1, 2, 3].map(() => counter.take(keyed('k1')).allowed)).to.deep.equal([true, true, false]);
    expect(counter.take(keyed('k2')).allowed).to.equal(true);
  });

  it('refuses everyone once the portal quota is spent, and reports the tightest quota', () => {
    const counter = new QuotaCounter({ ...DEFAULT_QUOTAS, per_ip: 10, portal: 2 });
    expect(counter.take(anonymous('a')).remaining).to.equal(1);
    expect(counter.take(anonymous('b')).allowed).to.equal(true);
    const refused = counter.take(anonymous('c'));
    expect(refused).to.deep.include({ allowed: false, limit: 2, remaining: 0, refusedBy: 'portal' });
  });

  it('starts a new day at midnight UTC', () => {
    let now = Date.UTC(2026, 0, 1, 23, 59);
    const counter = new QuotaCounter({ ...DEFAULT_QUOTAS, per_ip: 1 }, () => now);
    expect(counter.take(anonymous('a'))).to.deep.include({ allowed: true, refusedBy: null });
    expect(counter.take(anonymous('a'))).to.deep.include({ allowed: false, refusedBy: 'ip' });
    now = Date.UTC(2026, 0, 2, 0, 0);
    expect(counter.take(anonymous('a')).allowed).to.equal(true);
  });

  it('reports no limit when none applies', () => {
    const unlimited = { ...DEFAULT_QUOTAS, per_ip: null, per_key: null, portal: null };
    expect(new QuotaCounter(unlimited).take(anonymous('a'))).to.deep.include({
      allowed: true,
      limit: null,
      remaining: null,
    });
  });

  it('caps concurrent exports per caller and frees a slot once, whatever calls release', () => {
    const slots = new ExportSlots(2);
    const first = slots.acquire(keyed('k'))!;
    const second = slots.acquire(keyed('k'))!;
    expect(slots.acquire(keyed('k'))).to.equal(null);
    expect(slots.acquire(anonymous('x'))).to.not.equal(null);
    first();
    first();
    expect(slots.size).to.equal(2);
    expect(slots.acquire(keyed('k'))).to.not.equal(null);
    second();
  });
});

describe('quotas in Redis, and Redis stopped', function () {
  this.timeout(60_000);

  it('goes on from the counts Redis gave: 20 calls through Redis, then 10 of 30 while it is down', async () => {
    const dir = await buildFixturePortal();
    const work = await mkdtemp(path.join(os.tmpdir(), 'duckportal-quota-redis-'));
    await ensurePortalFile(dir, { quotas: { ...DEFAULT_QUOTAS, per_ip: 30 } });
    const redis = await startRedis(work);
    const quotaStore = await QuotaStore.connect(redis.url, createLogger('silent'));
    const server = await startTestServer(dir, { quotaStore });
    try {
      // A connection of its own per call: a 429's connection is held to its Retry-After (src/http/retry-pacing.ts).
      const call = () =>
        new Promise<{ status: number; remaining: unknown }>((resolve, reject) => {
          http
            .get(`${server.base}/api/explore/v2.1/catalog/datasets?limit=0`, { agent: false }, (answer) => {
              answer.resume();
              resolve({ status: answer.statusCode!, remaining: answer.headers['x-ratelimit-remaining'] });
            })
            .on('error', reject);
        });
      for (let i = 0; i < 20; i++)
        expect(await call()).to.deep.equal({ status: 200, remaining: String(29 - i) });
      await redis.stop();
      const during = [];
      for (let i = 0; i < 30; i++) during.push(await call());
      expect(during.filter((a) => a.status === 200)).to.have.length(10);
      expect(during.slice(0, 10).map((a) => a.remaining)).to.deep.equal([
        '9',
        '8',
        '7',
        '6',
        '5',
        '4',
        '3',
        '2',
        '1',
        '0',
      ]);
      expect(during.slice(10).every((a) => a.status === 429 && a.remaining === '0')).to.equal(true);
      const metrics = await (await server.get('/metrics')).text();
      expect(metrics).to.match(/^duckportal_quota_store_up 0$/m);
    } finally {
      await server.close();
      quotaStore.close();
      await redis.stop();
      await rm(work, { recursive: true, force: true });
      await rm(dir, { recursive: true, force: true });
    }
  });
});
