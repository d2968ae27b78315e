// Two `serve` replicas over one portal folder behind HAProxy (deploy/haproxy.cfg), sharing their
// quotas through Redis: each quota enforced once, together; answers while Redis is down; a
// replica killed or drained without a failed request once HAProxy knows; a new dataset version
// published under load (ingest, then SIGHUP each replica) without a failed request.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { MAX_HOLD_MS } from '../../src/http/retry-pacing.js';
import { addFixtureDataset, buildFixturePortal } from '../helpers/fixture-portal.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { startHaProxy, startRedis, type Component, type HaProxy } from '../helpers/deploy-tools.js';

const V21 = '/api/explore/v2.1';
const WORDS = `${V21}/catalog/datasets/words/records?limit=0`;
const BIG_ROWS = 1_000_000;

/** The status of each of `count` GETs of `url`, `concurrency` at a time. */
async function statuses(url: string, count: number, concurrency = 8): Promise<number[]> {
  const results: number[] = [];
  let sent = 0;
  const worker = async (): Promise<void> => {
    while (sent < count) {
      sent++;
      const response = await fetch(url).catch(() => null);
      await response?.arrayBuffer();
      results.push(response?.status ?? 0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

/** Counts of each status. */
function tally(list: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of list) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** GETs `url` in a loop, 4 at a time, until stopped: the statuses and the bodies' total_count seen. */
function requestLoop(url: string): { stop(): Promise<{ statuses: number[]; counts: Set<number> }> } {
  let running = true;
  const seen: number[] = [];
  const counts = new Set<number>();
  const worker = async (): Promise<void> => {
    while (running) {
      const response = await fetch(url).catch(() => null);
      const body = (await response?.json().catch(() => null)) as { total_count?: number } | null;
      seen.push(response?.status ?? 0);
      if (body?.total_count !== undefined) counts.add(body.total_count);
    }
  };
  const workers = Promise.all(Array.from({ length: 4 }, worker));
  return {
    async stop() {
      running = false;
      await workers;
      return { statuses: seen, counts };
    },
  };
}

/** A GET whose body waits to be read. */
function pausedGet(url: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) =>
    http
      .get(url, (response) => {
        response.pause();
        resolve(response);
      })
      .on('error', reject),
  );
}

async function setQuotas(dir: string, quotas: Record<string, unknown>): Promise<void> {
  const file = path.join(dir, 'portal.json');
  const settings = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...settings, quotas }));
}

async function reload(replica: ServeProcess): Promise<void> {
  const from = replica.stdout().length;
  replica.child.kill('SIGHUP');
  await replica.waitFor('reloaded: ', from);
}

describe('replicas behind HAProxy with quotas in Redis', function () {
  this.timeout(120_000);
  let dir: string;
  let work: string;
  let redis: Component;
  let replicas: ServeProcess[] = [];
  let haproxy: HaProxy;

  before(async () => {
    dir = await buildFixturePortal();
    await addFixtureDataset(dir, 'big', `SELECT 'b' || i AS _recordid, i AS n FROM range(${BIG_ROWS}) r(i)`, [
      { name: 'n', label: 'N', type: 'int', description: null, annotations: {} },
    ]);
    await setQuotas(dir, { concurrent_exports: 1 });
    work = await mkdtemp(path.join(os.tmpdir(), 'duckportal-replicas-'));
    const store = await startRedis(work);
    redis = store;
    const flags = ['--trust-proxy', '--quota-store', store.url];
    replicas = [await startServeProcess(dir, flags), await startServeProcess(dir, flags)];
    haproxy = await startHaProxy(
      work,
      replicas.map((r) => r.port),
    );
    await haproxy.waitFor('UP');
  });

  after(async () => {
    await haproxy?.stop();
    for (const replica of replicas) await replica.kill();
    await redis?.stop();
    await rm(work, { recursive: true, force: true });
    await rm(dir, { recursive: true, force: true });
  });

  it('counts the export slots of a caller over both replicas', async () => {
    const exportPath = `${V21}/catalog/datasets/big/exports/csv`;
    const first = await pausedGet(replicas[0]!.base + exportPath);
    expect(first.statusCode).to.equal(200);
    const second = await fetch(replicas[1]!.base + exportPath);
    expect(second.status).to.equal(429);
    expect(((await second.json()) as { error_code: string }).error_code).to.equal('TooManyExports');
    first.destroy();
    // Its slot is given back once the first replica sees its client gone.
    const third = `${replicas[1]!.base}${exportPath}?limit=10`;
    let answer = await fetch(third);
    while (answer.status === 429) {
      await answer.arrayBuffer();
      await sleep(20);
      answer = await fetch(third);
    }
    expect(answer.status).to.equal(200);
    expect((await answer.text()).split('\n').filter((line) => line !== '')).to.have.length(11);
    await setQuotas(dir, { portal: 40 });
    for (const replica of replicas) await reload(replica);
  });

  it('enforces a portal quota of 40 calls once over both replicas, and answers while Redis is down', async () => {
    const counted = await statuses(haproxy.base + WORDS, 100);
    expect(tally(counted)).to.deep.equal({ 200: 40, 429: 60 });
    // Both replicas answered some of them.
    for (const replica of replicas) expect(replica.stdout()).to.include('"status":429');
    await redis.stop();
    // Each replica goes on from the counts Redis last gave it: the quota stays spent. (8 calls at
    // once: a connection is held to its 429's Retry-After, up to MAX_HOLD_MS, src/http/retry-pacing.ts.)
    const alone = await statuses(haproxy.base + WORDS, 8, 8);
    expect(tally(alone)).to.deep.equal({ 429: 8 });
    for (const replica of replicas) {
      expect(replica.stdout()).to.match(/quota store redis:\/\/127.0.0.1:\d+ does not answer/);
      const metrics = await (await fetch(`${replica.base}/metrics`)).text();
      expect(metrics).to.match(/^duckportal_quota_store_up 0$/m);
    }
    // The quota lifted for what follows, once HAProxy's connections told to wait may ask again.
    await setQuotas(dir, {});
    for (const replica of replicas) await reload(replica);
    await sleep(MAX_HOLD_MS);
  });

  it('publishes a new version under load without a failed request: ingest, then SIGHUP each replica', async () => {
    const csv = path.join(work, 'words.csv');
    await writeFile(csv, `word\n${Array.from({ length: 12 }, (_, i) => `new ${i}`).join('\n')}\n`);
    const loop = requestLoop(haproxy.base + WORDS);
    await promisify(execFile)(path.resolve('bin/duckportal.cjs'), [
      'ingest',
      csv,
      '--portal',
      dir,
      '--id',
      'words',
      '--replace',
      '--quiet',
    ]);
    for (const replica of replicas) await reload(replica);
    const after = await statuses(haproxy.base + WORDS, 20);
    const { statuses: during, counts } = await loop.stop();
    expect(tally(during)).to.deep.equal({ 200: during.length });
    expect(tally(after)).to.deep.equal({ 200: 20 });
    expect([...counts].sort()).to.deep.equal([12, 5]);
    const last = (await (await fetch(haproxy.base + WORDS)).json()) as { total_count: number };
    expect(last.total_count).to.equal(12);
  });

  it('loses no request once HAProxy has seen a replica killed; the other drains a slow export on SIGTERM', async () => {
    const loop = requestLoop(haproxy.base + WORDS);
    replicas[0]!.child.kill('SIGKILL');
    await replicas[0]!.exited;
    await haproxy.waitFor('DOWN', ['replica1']);
    const { statuses: during } = await loop.stop();
    expect(during.length).to.be.greaterThan(0);
    expect(tally(await statuses(haproxy.base + WORDS, 50))).to.deep.equal({ 200: 50 });

    const survivor = replicas[1]!;
    const download = await pausedGet(`${haproxy.base}${V21}/catalog/datasets/big/exports/csv`);
    expect(download.statusCode).to.equal(200);
    survivor.child.kill('SIGTERM');
    await survivor.waitFor('draining');
    let body = '';
    download.setEncoding('utf8');
    download.on('data', (chunk: string) => (body += chunk));
    download.resume();
    await new Promise((resolve, reject) => download.on('end', resolve).on('error', reject));
    expect(body.split('\n').filter((line) => line !== '').length).to.equal(BIG_ROWS + 1);
    expect(await survivor.exited).to.equal(0);
  });
});
