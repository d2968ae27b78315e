// API keys: shown once, stored as a salted hash only, checked exactly, revocable at once, labelled
// by their owner (files written before labels load as unlabelled).
import { expect } from 'chai';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createHmac } from 'node:crypto';
import {
  KeyStore,
  presentedKey,
  scrubKeys,
  KEYS_FILE,
  KEYS_USED_FILE,
  MAX_KEY_LABEL,
  type KeyHasher,
} from '../../src/auth/keys.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ensurePortalFile } from '../../src/ingest/portal-file.js';

const run = promisify(execFile);
const CLI = path.resolve('bin/duckportal.cjs');

describe('API keys', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-keys-'));
    await ensurePortalFile(dir);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('stores no secret: the key text appears nowhere in keys.json', async () => {
    const { key, entry } = new KeyStore(dir).create('alice', ['press']);
    const stored = await readFile(path.join(dir, KEYS_FILE), 'utf8');
    const secret = key.split('_').slice(2).join('_');
    expect(stored).to.not.include(secret);
    expect(stored).to.include(entry.hash);
    expect(JSON.parse(stored).keys[0]).to.include({ user: 'alice', id: entry.id, revoked: null });
  });

  it('keeps a label trimmed and bounded, and loads a key file written before labels', async () => {
    const store = new KeyStore(dir);
    const { key, entry } = store.create('alice', [], { label: '  CI nightly  ' });
    expect(entry.label).to.equal('CI nightly');
    expect(store.create('alice', [], { label: '' }).entry.label).to.equal(null);
    expect(store.create('alice').entry.label).to.equal(null);
    expect(() => store.create('alice', [], { label: 'x'.repeat(MAX_KEY_LABEL + 1) })).to.throw(
      `at most ${MAX_KEY_LABEL} characters`,
    );
    expect(() => store.create('alice', [], { label: 'a\tb' })).to.throw('without control characters');
    // The file as the release before labels wrote it: no label member.
    const file = path.join(dir, KEYS_FILE);
    const stored = JSON.parse(await readFile(file, 'utf8')) as { keys: Record<string, unknown>[] };
    for (const k of stored.keys) delete k.label;
    await writeFile(file, JSON.stringify(stored));
    const old = new KeyStore(dir);
    expect(old.list().map((k) => k.label)).to.deep.equal([null, null, null]);
    expect(old.verify(key)?.user).to.equal('alice');
  });

  it('verifies the exact key and nothing else', () => {
    const store = new KeyStore(dir);
    const { key } = store.create('alice', ['press']);
    expect(store.verify(key)).to.deep.include({ user: 'alice', groups: ['press'] });
    const last = key.at(-1) === 'A' ? 'B' : 'A';
    expect(store.verify(key.slice(0, -1) + last)).to.equal(null);
    expect(store.verify(key.slice(0, -1))).to.equal(null);
    expect(store.verify('')).to.equal(null);
    expect(store.verify(`${key} `)).to.equal(null);
  });

  it('does the same hashing work whether the key id exists, is revoked, unknown or malformed', () => {
    const calls: string[] = [];
    const counting: KeyHasher = (salt, secret) => {
      calls.push(salt);
      return createHmac('sha256', Buffer.from(salt, 'base64url')).update(secret).digest();
    };
    const store = new KeyStore(dir, counting);
    const { key, entry } = store.create('alice');
    const revoked = store.create('bob');
    store.revoke(revoked.entry.id);
    const wrongSecret = key.slice(0, -1) + (key.at(-1) === 'A' ? 'B' : 'A');
    const presented = [key, wrongSecret, revoked.key, `dpk_000000000000_${'y'.repeat(43)}`, 'nonsense'];
    calls.length = 0;
    const owners = presented.map((k) => store.verify(k)?.user ?? null);
    expect(owners).to.deep.equal(['alice', null, null, null, null]);
    expect(calls).to.have.length(presented.length);
    expect(calls[0]).to.equal(entry.salt);
    // An unusable key is hashed with a salt of the same length as a real one.
    expect(new Set(calls.map((salt) => salt.length))).to.deep.equal(new Set([entry.salt.length]));
  });

  it('gives two keys of one user different salts and hashes', () => {
    const store = new KeyStore(dir);
    const a = store.create('bob').entry;
    const b = store.create('bob').entry;
    expect(a.salt).to.not.equal(b.salt);
    expect(a.hash).to.not.equal(b.hash);
    expect(store.list()).to.have.length(2);
  });

  it('refuses a revoked key at once, also in a store that had read the file before', () => {
    const server = new KeyStore(dir);
    const { key, entry } = new KeyStore(dir).create('carol');
    expect(server.verify(key)).to.not.equal(null);
    expect(new KeyStore(dir).revoke(entry.id)).to.equal(true);
    expect(server.verify(key)).to.equal(null);
    expect(new KeyStore(dir).revoke('000000000000')).to.equal(false);
  });

  it('notes when a key was last used, writing keys-used.json at most once a minute per key', async () => {
    let clock = Date.UTC(2026, 0, 1, 12);
    const store = new KeyStore(dir, undefined, () => clock);
    const { key, entry } = store.create('alice');
    const other = store.create('bob');
    expect(store.lastUses().size).to.equal(0);
    store.verify(key);
    const used = path.join(dir, KEYS_USED_FILE);
    const first = await stat(used);
    expect(first.mode & 0o777).to.equal(0o600);
    expect(store.lastUses().get(entry.id)).to.equal('2026-01-01T12:00:00.000Z');
    clock += 59_000;
    store.verify(key);
    store.verify(key.slice(0, -1));
    expect((await stat(used)).ino).to.equal(first.ino);
    expect(store.lastUses().get(entry.id)).to.equal('2026-01-01T12:00:00.000Z');
    store.verify(other.key);
    clock += 1_000;
    store.verify(key);
    expect(Object.fromEntries(store.lastUses())).to.deep.equal({
      [entry.id]: '2026-01-01T12:01:00.000Z',
      [other.entry.id]: '2026-01-01T12:00:59.000Z',
    });
    // Noting a use never rewrites keys.json, where a revocation made meanwhile could be lost.
    expect(JSON.parse(await readFile(path.join(dir, KEYS_FILE), 'utf8')).keys[0]).to.not.have.property(
      'last_used',
    );
  });

  it('reads the key from the Authorization header (scheme in any case) or apikey=', () => {
    expect(presentedKey('Apikey k1', {})).to.equal('k1');
    expect(presentedKey('APIKEY   k2', {})).to.equal('k2');
    expect(presentedKey('ApiKey k3', { apikey: 'other' })).to.equal('k3');
    expect(presentedKey(undefined, { apikey: 'k4' })).to.equal('k4');
    expect(presentedKey('Bearer x', {})).to.equal(null);
    expect(presentedKey(undefined, { apikey: '' })).to.equal(null);
  });

  it('scrubs apikey values from anything logged', () => {
    expect(scrubKeys('GET /records?where=x&apikey=dpk_abc&limit=1 200')).to.equal(
      'GET /records?where=x&apikey=[redacted]&limit=1 200',
    );
    expect(scrubKeys('/x?APIKEY=secret')).to.equal('/x?APIKEY=[redacted]');
    // Named as the query parser reads it: percent-encoded, or with a + for nothing in particular.
    expect(scrubKeys('/x?%61pi%4Bey=secret&a=1')).to.equal('/x?%61pi%4Bey=[redacted]&a=1');
    expect(scrubKeys('/x?apikeys=kept&key=kept')).to.equal('/x?apikeys=kept&key=kept');
  });

  it('is driven by `duckportal keys create|list|revoke`', async () => {
    const created = await run(CLI, [
      'keys',
      'create',
      '--user',
      'dave',
      '--group',
      'a',
      '--label',
      'for the map',
      '--portal',
      dir,
    ]);
    const key = created.stdout.split('\n')[0]!;
    expect(new KeyStore(dir).verify(key)?.user).to.equal('dave');
    const id = new KeyStore(dir).list()[0]!.id;
    const listed = await run(CLI, ['keys', 'list', '--portal', dir]);
    expect(listed.stdout).to.match(new RegExp(`^${id}\\tdave\\ta\\tfor the map\\t.*\\tactive\n$`));
    expect((await run(CLI, ['keys', 'revoke', id, '--portal', dir])).stdout).to.equal(`revoked ${id}\n`);
    expect(new KeyStore(dir).verify(key)).to.equal(null);
    const unknown = await run(CLI, ['keys', 'revoke', 'nope', '--portal', dir]).catch(
      (error: unknown) => error,
    );
    expect(unknown).to.include({ code: 1, stderr: `portal: ${dir}\nduckportal: no key nope\n` });
  });
});
