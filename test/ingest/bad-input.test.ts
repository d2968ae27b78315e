// Bad input, each case one clear error naming the file (and the line where one applies): the
// portal is left exactly as it was and no temporary file survives, in the system's temp folder
// or in the portal's staging.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { ingest, type IngestOptions } from '../../src/ingest/ingest.js';
import { expectError } from './csv.test.js';
import { fixture, ingestCommand, treeDigest, useHttpServer, useTempPortal } from './helpers.js';

/** Bytes that are no text: a PNG signature then random bytes (fixed seed would not matter: any NUL does). */
const GARBAGE = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  randomBytes(4096),
]);

describe('ingest: bad input', () => {
  const temp = useTempPortal();
  let tmpdir: string;
  const server = useHttpServer((request, response) => {
    if (request.url === '/stall.csv') response.write('a,b\n1,');
    else {
      response.statusCode = 404;
      response.end('not here');
    }
  });
  const savedTmp = process.env.TMPDIR;
  beforeEach(async () => {
    // The ingest's own temp folder, so that other tests' temp files cannot hide or fake a leak.
    tmpdir = path.join(temp.dir, 'tmp');
    await mkdir(tmpdir);
    process.env.TMPDIR = tmpdir;
    const good = await fixture(temp.dir, 'good.csv', 'a,b\n1,2\n');
    await ingest({ file: good, portal: temp.portal, id: 'kept' });
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
    const before = await treeDigest(temp.portal);
    for (const id of ['kept', 'fresh']) {
      await expectError(ingest({ ...options, portal: temp.portal, id }), pattern);
    }
    const error = await ingest({ ...options, portal: temp.portal, id: 'fresh' }).catch((e: Error) => e);
    expect((error as Error).message).to.not.include('\n');
    expect(await treeDigest(temp.portal)).to.deep.equal(before);
    expect(await readdir(path.join(temp.portal, 'datasets'))).to.deep.equal(['kept']);
    expect(await readdir(tmpdir)).to.deep.equal([]);
    // Into a portal folder that does not exist yet: still nothing.
    await expectError(
      ingest({ ...options, portal: path.join(temp.dir, 'new-portal'), id: 'fresh' }),
      pattern,
    );
    expect(await readdir(temp.dir)).to.not.include('new-portal');
  }

  it('an empty file, a blank one, a header alone, an empty JSON array', async () => {
    const at = (name: string, content: string | Buffer) => fixture(temp.dir, name, content);
    await expectRefused({ file: await at('empty.csv', '') }, /empty\.csv: the file is empty \(0 bytes\)$/);
    await expectRefused({ file: await at('blank.csv', '\n\n') }, /blank\.csv: no header line/);
    await expectRefused({ file: await at('header.csv', 'a,b\n') }, /header\.csv: no records: only a header$/);
    await expectRefused(
      { file: await at('none.json', '[]') },
      /none\.json: no JSON objects to read records from$/,
    );
  });

  it('binary garbage, as a .csv and with no extension', async () => {
    const csv = await fixture(temp.dir, 'garbage.csv', GARBAGE);
    await expectRefused({ file: csv }, /garbage\.csv: binary data, not text \(a NUL byte at character 9\)$/);
    const bare = await fixture(temp.dir, 'garbage', GARBAGE);
    await expectRefused({ file: bare }, /garbage: binary data, not text/);
  });

  it('ragged rows, with the line', async () => {
    const file = await fixture(temp.dir, 'ragged.csv', 'a,b,c\n1,2,3\n4,5\n');
    await expectRefused({ file }, /ragged\.csv: line 3: 2 columns where the header has 3$/);
  });

  it('a line longer than the reader holds, with the line; a header line over 1 MiB', async () => {
    const file = await fixture(temp.dir, 'long.csv', `a,b\n1,2\n3,${'x'.repeat(5000)}\n5,6\n`);
    await expectRefused(
      { file, maxLineBytes: 4096 },
      /long\.csv: line 3: longer than the 4,096 bytes a line may hold$/,
    );
    const header = await fixture(temp.dir, 'header-long.csv', `${'h'.repeat(2 ** 20 + 10)}\n1\n`);
    await expectRefused({ file: header }, /header-long\.csv: line 1: longer than 1 MiB, not a header$/);
  });

  it('a URL that answers 404, one that stalls', async () => {
    await expectRefused({ file: `${server.base}/missing.csv` }, /\/missing\.csv: HTTP 404 Not Found$/);
    await expectRefused(
      { file: `${server.base}/stall.csv`, downloadStallMs: 200 },
      /\/stall\.csv: the download stalled$/,
    );
  });

  it('through the CLI (-q): one line on stderr, exit 1, nothing on stdout', async () => {
    const file = await fixture(temp.dir, 'garbage.csv', GARBAGE);
    const failure = await ingestCommand(file, temp.portal, 'kept', '--replace', '-q').catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure).to.include({ code: 1, stdout: '' });
    expect((failure as { stderr: string }).stderr).to.equal(
      `duckportal: ${file}: binary data, not text (a NUL byte at character 9)\n`,
    );
  });
});
