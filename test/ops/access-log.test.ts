// The access log of the real process: one JSON line per request on stdout, and no trace of an
// API key anywhere in its output, given in `apikey=` or in the Authorization header.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { KeyStore } from '../../src/auth/keys.js';
import { buildFixturePortal } from '../helpers/fixture-portal.js';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';
import { freePort } from '../helpers/ports.js';

const CLI = path.resolve('bin/duckportal.cjs');
const V21 = '/api/explore/v2.1';

describe('the access log', () => {
  it('writes one JSON line per request with its status, and never a key', async () => {
    const dir = await buildFixturePortal();
    const key = new KeyStore(dir).create('alice').key;
    // dpk_<id>_<secret>: the secret is base64url, which may hold '_' too.
    const [, keyId, ...secretParts] = key.split('_');
    const secret = secretParts.join('_');
    const port = await freePort();
    const child = spawn(CLI, ['serve', '--portal', dir, '--port', String(port)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    try {
      while (!stdout.includes('datasets on http://') && child.exitCode === null)
        await once(child.stdout, 'data');
      const base = `http://127.0.0.1:${port}`;
      const sent: [string, RequestInit, number][] = [
        [`${V21}/catalog/datasets/towns/records?limit=1&apikey=${key}`, {}, 200],
        [`${V21}/catalog/datasets/towns/records?%61pikey=${key}&limit=2`, {}, 200],
        [`${V21}/catalog/datasets/towns/records`, { headers: { Authorization: `Apikey ${key}` } }, 200],
        [`${V21}/catalog/datasets/towns/records?apikey=${key}x`, {}, 401],
        [
          `${V21}/catalog/datasets/nowhere/records?apikey=${key}`,
          { headers: { 'User-Agent': 'probe/1' } },
          404,
        ],
      ];
      for (const [url, init, status] of sent) {
        const response = await fetch(base + url, init);
        await response.arrayBuffer();
        expect(response.status, url).to.equal(status);
      }
      child.kill('SIGTERM');
      await once(child, 'exit');
      for (const output of [stdout, stderr]) {
        expect(output).to.not.include(secret);
        expect(output).to.not.include(key);
      }
      const records = stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const requests = records.filter((record) => record.msg === 'request');
      expect(requests.map((r) => r.status)).to.deep.equal(sent.map(([, , status]) => status));
      expect(requests.map((r) => r.key_id)).to.deep.equal([keyId, keyId, keyId, undefined, keyId]);
      expect(requests[0]).to.deep.include({
        level: 30,
        method: 'GET',
        path: `${V21}/catalog/datasets/towns/records?limit=1&apikey=[redacted]`,
        client: '127.0.0.1',
        portal: path.basename(dir),
      });
      expect(requests[1]!.path).to.equal(`${V21}/catalog/datasets/towns/records?%61pikey=[redacted]&limit=2`);
      expect(requests[4]!.user_agent).to.equal('probe/1');
      for (const request of requests) {
        expect(request.time).to.be.a('string');
        expect(request.req_id).to.match(/^[0-9a-f-]{36}$/);
        expect(request.bytes).to.be.a('number').and.greaterThan(0);
        expect(request.duration_ms).to.be.a('number');
      }
      // The two error answers are logged once each, with their request's id.
      const errors = records.filter(
        (record) => record.msg !== 'request' && typeof record.req_id === 'string',
      );
      expect(errors.map((e) => e.req_id)).to.deep.equal([requests[3]!.req_id, requests[4]!.req_id]);
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('--log-level warn leaves the access log out, --log-format pretty writes lines for a person', async () => {
    const port = await freePort();
    const child = spawn(
      CLI,
      [
        'serve',
        '--portal',
        SAMPLE_PORTAL,
        '--port',
        String(port),
        '--log-level',
        'warn',
        '--log-format',
        'pretty',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.resume();
    try {
      const base = `http://127.0.0.1:${port}`;
      // Nothing is logged at start-up at this level: wait for the listener itself.
      while (
        !(await fetch(`${base}/livez`).then(
          (r) => r.ok,
          () => false,
        ))
      ) {
        if (child.exitCode !== null) throw new Error('the server exited');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await fetch(`${base}${V21}/catalog/datasets/airports/records?limit=1`)).status).to.equal(200);
      expect((await fetch(`${base}${V21}/catalog/datasets/nowhere/records`)).status).to.equal(404);
      child.kill('SIGTERM');
      await once(child, 'exit');
      const lines = stdout.split('\n').filter((line) => line.trim() !== '');
      const warning = lines.find((line) => line.includes('NotFoundResource'));
      expect(warning).to.match(/WARN/);
      expect(() => JSON.parse(warning!)).to.throw();
      expect(stdout).to.not.include('airports/records');
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    }
  });
});
