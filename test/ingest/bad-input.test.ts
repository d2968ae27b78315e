// Bad input, each case one clear error naming the file (and the line where one applies): the
// portal is left exactly as it was and no temporary file survives, in the system's temp folder
// or in the portal's staging.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { ingest, type IngestOptions } from '../../src/ingest/ingest.js';
import { expectError } from './csv.test.js';
import { cleanup, fixture, tempDir, treeDigest } from './helpers.js';

const run = promisify(execFile);
const CLI = path.resolve('bin/duckportal.cjs');

/** Bytes that are no text: a PNG signature then random bytes (fixed seed would not matter: any NUL does). */
const GARBAGE = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  randomBytes(4096),
]);

describe('ingest: bad input', () => {
  let dir: string;
  let portal: string;
  let temp: string;
  let server: http.Server;
  let base: string;
  const savedTmp = process.env.TMPDIR;

  before(async () => {
    server = http.createServer((request, response) => {
      if (request.url === '/stall.csv') response.write('a,b\n1,');
      else {
        response.statusCode = 404;
        response.end('not here');
      }
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await cleanup();
  });
  beforeEach(async () => {
    dir = await tempDir();
    portal = path.join(dir, 'portal');
    // The ingest's own temp folder, so that other tests' temp files cannot hide or fake a leak.
    temp = path.join(dir, 'tmp');
    await mkdir(temp);
    process.env.TMPDIR = temp;
    const good = await fixture(dir, 'good.csv', 'a,b\n1,2\n');
    await ingest({ file: good, portal, id: 'kept' });
  });
  afterEach(() => {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
  });

  /** Ingests `options` as dataset `kept` (and as a new one): the error, and nothing changed or left over. */
  async function expectRefused(
    options: Omit<IngestOptions, 'portal' | 'id'>,
    pattern: RegExp,
  ): Promise<void> {
    const before = await treeDigest(portal);
    for (const id of ['kept', 'fresh']) {
      await expectError(ingest({ ...options, portal, id }), pattern);
    }
    const error = await ingest({ ...options, portal, id: 'fresh' }).catch((e: Error) => e);
    expect((error as Error).message).to.not.include('\n');
    expect(await treeDigest(portal)).to.deep.equal(before);
    expect(await readdir(path.join(portal, 'datasets'))).to.deep.equal(['kept']);
    expect(await readdir(temp)).to.deep.equal([]);
    // Into a portal folder that does not exist yet: still nothing.
    await expectError(ingest({ ...options, portal: path.join(dir, 'new-portal'), id: 'fresh' }), pattern);
    expect(await readdir(dir)).to.not.include('new-portal');
  }

  it('an empty file, a blank one, a header alone, an empty JSON array', async () => {
    const at = (name: string, content: string | Buffer) => fixture(dir, name, content);
    await expectRefused({ file: await at('empty.csv', '') }, /empty\.csv: the file is empty \(0 bytes\)$/);
    await expectRefused({ file: await at('blank.csv', '\n\n') }, /blank\.csv: no header line/);
    await expectRefused({ file: await at('header.csv', 'a,b\n') }, /header\.csv: no records: only a header$/);
    await expectRefused(
      { file: await at('none.json', '[]') },
      /none\.json: no JSON objects to read records from$/,
    );
  });

  it('binary garbage, as a .csv and with no extension', async () => {
    const csv = await fixture(dir, 'garbage.csv', GARBAGE);
    await expectRefused({ file: csv }, /garbage\.csv: binary data, not text \(a NUL byte at character 9\)$/);
    const bare = await fixture(dir, 'garbage', GARBAGE);
    await expectRefused({ file: bare }, /garbage: binary data, not text/);
  });

  it('ragged rows, with the line', async () => {
    const file = await fixture(dir, 'ragged.csv', 'a,b,c\n1,2,3\n4,5\n');
    await expectRefused({ file }, /ragged\.csv: line 3: 2 columns where the header has 3$/);
  });

  it('a line longer than the reader holds, with the line; a header line over 1 MiB', async () => {
    const file = await fixture(dir, 'long.csv', `a,b\n1,2\n3,${'x'.repeat(5000)}\n5,6\n`);
    await expectRefused(
      { file, maxLineBytes: 4096 },
      /long\.csv: line 3: longer than the 4,096 bytes a line may hold$/,
    );
    const header = await fixture(dir, 'header-long.csv', `${'h'.repeat(2 ** 20 + 10)}\n1\n`);
    await expectRefused({ file: header }, /header-long\.csv: line 1: longer than 1 MiB, not a header$/);
  });

  it('a URL that answers 404, one that stalls', async () => {
    await expectRefused({ file: `${base}/missing.csv` }, /\/missing\.csv: HTTP 404 Not Found$/);
    await expectRefused(
      { file: `${base}/stall.csv`, downloadStallMs: 200 },
      /\/stall\.csv: the download stalled$/,
    );
  });

  it('through the CLI (-q): one line on stderr, exit 1, nothing on stdout', async () => {
    const file = await fixture(dir, 'garbage.csv', GARBAGE);
    const failure = await run(CLI, [
      'ingest',
      file,
      '--portal',
      portal,
      '--id',
      'kept',
      '--replace',
      '-q',
    ]).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(failure).to.include({ code: 1, stdout: '' });
    expect((failure as { stderr: string }).stderr).to.equal(
      `duckportal: ${file}: binary data, not text (a NUL byte at character 9)\n`,
    );
  });
});
