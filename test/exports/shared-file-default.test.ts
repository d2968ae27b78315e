// Shared files on by default (docs/exports.md, Shared files): a server started without the option
// sends the file; one with it off (`--no-shared-exports`) computes every export and writes nothing;
// a portal folder that cannot be written is served computed, with one warning for all its exports.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SHARED_EXPORT_HEADER } from '../../src/api/shared-export-response.js';
import { settle } from '../helpers/downloads.js';
import { buildFixturePortal } from '../helpers/fixture-portal.js';
import { rawGet, type RawAnswer } from '../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const TOWNS = '/api/explore/v2.1/catalog/datasets/towns/exports';
const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const isShared = (answer: RawAnswer): boolean =>
  answer.headers[SHARED_EXPORT_HEADER.toLowerCase()] === 'shared-file';

describe('shared export files: on by default, off by flag, and a portal folder that cannot be written', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  const servers: TestServer[] = [];
  const serve = async (options: { sharedExports?: boolean }, prepare?: (dir: string) => Promise<void>) => {
    const dir = await buildFixturePortal();
    dirs.push(dir);
    await prepare?.(dir);
    const server = await startTestServer(dir, { cacheBytes: 0, ...options });
    servers.push(server);
    return { dir, server };
  };
  after(async () => {
    for (const server of servers) await server.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('sends the shared file from a server started without the option', async () => {
    const { server } = await serve({});
    const computed = await rawGet(server.base, `${TOWNS}/csv`);
    let shared = computed;
    for (let tries = 0; tries < 200 && !isShared(shared); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      shared = await rawGet(server.base, `${TOWNS}/csv`);
    }
    expect(isShared(shared)).to.equal(true);
    expect(sha(shared.body)).to.equal(sha(computed.body));
  });

  it('computes every export and writes no file with shared files off', async () => {
    const { dir, server } = await serve({ sharedExports: false });
    const answers = [];
    for (let i = 0; i < 3; i++) {
      answers.push(await rawGet(server.base, `${TOWNS}/csv`));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answers.map(isShared)).to.deep.equal([false, false, false]);
    expect(await readdir(dir)).to.not.include('.exports');
  });

  it('computes the exports of a portal whose .exports cannot be made, warning once', async () => {
    // A file where the folder would be: mkdir fails as on a read-only portal (the tests run as root,
    // whom permissions do not stop).
    const { server } = await serve({}, (dir) => writeFile(path.join(dir, '.exports'), 'not a folder'));
    const warned = () => server.logs.filter((line) => line.startsWith('shared exports off for')).length;
    const first = await rawGet(server.base, `${TOWNS}/csv`);
    await settle(() => warned() > 0);
    const answers = [first];
    for (const format of ['csv', 'parquet', 'csv', 'json'])
      answers.push(await rawGet(server.base, `${TOWNS}/${format}`));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200]);
    expect(answers.some(isShared)).to.equal(false);
    expect(sha(answers[1]!.body)).to.equal(sha(first.body));
    expect(warned()).to.equal(1);
    expect(server.logs.find((line) => line.startsWith('shared exports off for'))).to.include('.exports');
  });
});
