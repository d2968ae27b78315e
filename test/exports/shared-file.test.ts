// The shared file of a whole export (docs/exports.md, Shared files), over the fixture portal:
// the same bytes as the computed export, ranges (one, several, past the end), HEAD, If-Range,
// If-None-Match, a resumed download byte-identical (raw HTTP and `curl -C -`), never for a
// filtered, restricted or non-default export, a new file after a re-ingest, and the lock.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { promisify } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { SHARED_EXPORT_HEADER } from '../../src/api/shared-export-response.js';
import { writeSharedExport } from '../../src/exports/shared-export.js';
import { MAX_RANGES } from '../../src/http/file-response.js';
import {
  addFixtureDataset,
  buildFixturePortal,
  editDatasetFile,
  restrictTowns,
  type TownsCallers,
} from '../helpers/fixture-portal.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { rawGet, type RawAnswer } from '../helpers/raw-http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const TOWNS = '/api/explore/v2.1/catalog/datasets/towns/exports';
const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const isShared = (answer: RawAnswer): boolean =>
  answer.headers[SHARED_EXPORT_HEADER.toLowerCase()] === 'shared-file';

/** GETs `route` until the shared file answers it (the first answers start its writing); the computed bytes of the first. */
async function untilShared(
  base: string,
  route: string,
  headers: Record<string, string> = {},
): Promise<{ computed: RawAnswer; shared: RawAnswer }> {
  const computed = await rawGet(base, route, headers);
  for (let tries = 0; tries < 600; tries++) {
    const answer = await rawGet(base, route, headers);
    if (isShared(answer)) return { computed, shared: answer };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${route} was never answered by its shared file`);
}

/** The parts of a multipart/byteranges body: each one's Content-Range and bytes. */
function partsOf(answer: RawAnswer): { range: string; bytes: Buffer }[] {
  const boundary = /boundary=(\S+)/.exec(String(answer.headers['content-type']))![1]!;
  const body = answer.body.toString('latin1');
  expect(body.endsWith(`\r\n--${boundary}--\r\n`)).to.equal(true);
  return body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const [head, bytes] = [
        part.slice(0, part.indexOf('\r\n\r\n')),
        part.slice(part.indexOf('\r\n\r\n') + 4),
      ];
      return {
        range: /Content-Range: (.*)/.exec(head)![1]!.trim(),
        bytes: Buffer.from(bytes.replace(/\r\n$/, ''), 'latin1'),
      };
    });
}

describe('shared export files (fixture portal)', function () {
  this.timeout(60_000);
  let dir: string;
  let server: TestServer;
  let callers: TownsCallers;
  let csv: Buffer;
  let tag: string;

  before(async () => {
    dir = await buildFixturePortal();
    callers = await restrictTowns(dir);
    server = await startTestServer(dir, { cacheBytes: 0, sharedExports: true });
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });
  const staff = (): Record<string, string> => ({ Authorization: `Apikey ${callers.staff}` });

  it('sends the same bytes as the computed export, in every shared format', async () => {
    for (const format of ['csv', 'parquet', 'json', 'jsonl', 'geojson']) {
      const { computed, shared } = await untilShared(server.base, `${TOWNS}/${format}`, staff());
      expect(computed.status, format).to.equal(200);
      expect(isShared(computed), format).to.equal(false);
      expect(sha(shared.body), format).to.equal(sha(computed.body));
      expect(shared.headers['content-type'], format).to.equal(computed.headers['content-type']);
      expect(shared.headers['content-disposition'], format).to.equal(
        `attachment; filename="towns.${format}"`,
      );
      expect(shared.headers['accept-ranges'], format).to.equal('bytes');
      expect(shared.headers['content-length'], format).to.equal(String(shared.body.length));
    }
    const { shared } = await untilShared(server.base, `${TOWNS}/csv`, staff());
    csv = shared.body;
    tag = String(shared.headers.etag);
    expect(tag).to.match(/^"[^"]+"$/);
    expect(shared.headers['last-modified']).to.equal(new Date('2024-03-01T10:00:00Z').toUTCString());
  });

  it('answers a range, a suffix, an open range and several ranges with 206', async () => {
    const one = await rawGet(server.base, `${TOWNS}/csv`, { ...staff(), Range: 'bytes=3-12' });
    expect(one.status).to.equal(206);
    expect(one.headers['content-range']).to.equal(`bytes 3-12/${csv.length}`);
    expect(one.headers.etag).to.equal(tag);
    expect(one.body.equals(csv.subarray(3, 13))).to.equal(true);
    const suffix = await rawGet(server.base, `${TOWNS}/csv`, { ...staff(), Range: 'bytes=-7' });
    expect(suffix.body.equals(csv.subarray(-7))).to.equal(true);
    const open = await rawGet(server.base, `${TOWNS}/csv`, { ...staff(), Range: 'bytes=20-' });
    expect(open.body.equals(csv.subarray(20))).to.equal(true);
    const several = await rawGet(server.base, `${TOWNS}/csv`, { ...staff(), Range: 'bytes=0-4,30-39,-3' });
    expect(several.status).to.equal(206);
    expect(several.headers['content-type']).to.match(/^multipart\/byteranges; boundary=/);
    expect(several.headers['content-length']).to.equal(String(several.body.length));
    const last = csv.length - 3;
    expect(partsOf(several)).to.deep.equal([
      { range: `bytes 0-4/${csv.length}`, bytes: csv.subarray(0, 5) },
      { range: `bytes 30-39/${csv.length}`, bytes: csv.subarray(30, 40) },
      { range: `bytes ${last}-${csv.length - 1}/${csv.length}`, bytes: csv.subarray(last) },
    ]);
    // Overlapping ranges are merged into one; too many get the whole file.
    const merged = await rawGet(server.base, `${TOWNS}/csv`, { ...staff(), Range: 'bytes=0-9,5-14' });
    expect(merged.headers['content-range']).to.equal(`bytes 0-14/${csv.length}`);
    // Too many ranges get the whole file (the Parquet file is larger than twice their count).
    const { shared: parquet } = await untilShared(server.base, `${TOWNS}/parquet`, staff());
    expect(parquet.body.length).to.be.above(2 * MAX_RANGES + 2);
    const many = Array.from({ length: MAX_RANGES + 1 }, (_, i) => `${i * 2}-${i * 2}`).join(',');
    const whole = await rawGet(server.base, `${TOWNS}/parquet`, { ...staff(), Range: `bytes=${many}` });
    expect(whole.status).to.equal(200);
    expect(whole.body.equals(parquet.body)).to.equal(true);
    const most = many.slice(0, many.lastIndexOf(','));
    const parts = await rawGet(server.base, `${TOWNS}/parquet`, { ...staff(), Range: `bytes=${most}` });
    expect(parts.status).to.equal(206);
    expect(partsOf(parts)).to.have.length(MAX_RANGES);
  });

  it('answers a range past the end with 416 and bytes */size, and ignores a malformed one', async () => {
    const past = await rawGet(server.base, `${TOWNS}/csv`, { ...staff(), Range: `bytes=${csv.length}-` });
    expect(past.status).to.equal(416);
    expect(past.headers['content-range']).to.equal(`bytes */${csv.length}`);
    expect(JSON.parse(past.body.toString())).to.include({ error_code: 'RangeNotSatisfiable' });
    const garbage = await rawGet(server.base, `${TOWNS}/csv`, { ...staff(), Range: 'lines=1-2' });
    expect(garbage.status).to.equal(200);
    expect(garbage.body.equals(csv)).to.equal(true);
  });

  it('answers HEAD with the headers of the whole file and no body', async () => {
    const head = await fetch(`${server.base}${TOWNS}/csv`, { method: 'HEAD', headers: staff() });
    expect(head.status).to.equal(200);
    expect(head.headers.get('content-length')).to.equal(String(csv.length));
    expect(head.headers.get('accept-ranges')).to.equal('bytes');
    expect(head.headers.get('etag')).to.equal(tag);
    expect((await head.arrayBuffer()).byteLength).to.equal(0);
    const part = await fetch(`${server.base}${TOWNS}/csv`, {
      method: 'HEAD',
      headers: { ...staff(), Range: 'bytes=0-1' },
    });
    expect(part.status).to.equal(206);
    expect(part.headers.get('content-length')).to.equal('2');
  });

  it('applies If-Range only for the current tag or date, and answers If-None-Match with 304', async () => {
    const range = { ...staff(), Range: 'bytes=0-9' };
    const same = await rawGet(server.base, `${TOWNS}/csv`, { ...range, 'If-Range': tag });
    expect(same.status).to.equal(206);
    const dated = await rawGet(server.base, `${TOWNS}/csv`, {
      ...range,
      'If-Range': 'Fri, 01 Mar 2024 10:00:00 GMT',
    });
    expect(dated.status).to.equal(206);
    for (const other of ['"an-older-tag"', `W/${tag}`, 'Sat, 02 Mar 2024 10:00:00 GMT']) {
      const changed = await rawGet(server.base, `${TOWNS}/csv`, { ...range, 'If-Range': other });
      expect(changed.status, other).to.equal(200);
      expect(changed.body.equals(csv), other).to.equal(true);
    }
    const held = await rawGet(server.base, `${TOWNS}/csv`, { ...staff(), 'If-None-Match': tag });
    expect(held.status).to.equal(304);
  });

  it('resumes a cut download byte for byte (raw HTTP and curl -C -)', async () => {
    const cut = Math.floor(csv.length * 0.6);
    const rest = await rawGet(server.base, `${TOWNS}/csv`, {
      ...staff(),
      Range: `bytes=${cut}-`,
      'If-Range': tag,
    });
    expect(sha(Buffer.concat([csv.subarray(0, cut), rest.body]))).to.equal(sha(csv));
    const file = path.join(dir, 'resumed.csv');
    await writeFile(file, csv.subarray(0, cut));
    const url = `${server.base}${TOWNS}/csv`;
    await promisify(execFile)('curl', [
      '-sf',
      '-C',
      '-',
      '-H',
      `Authorization: Apikey ${callers.staff}`,
      '-o',
      file,
      url,
    ]);
    expect(sha(await readFile(file))).to.equal(sha(csv));
  });

  it('never sends the shared file to a filtered, restricted or non-default export', async () => {
    const cases: [string, Record<string, string>][] = [
      ['?where=population > 1000000', staff()],
      ['?select=name', staff()],
      ['?limit=2', staff()],
      ['?delimiter=,', staff()],
      ['?with_bom=false', staff()],
      ['?use_labels=true', staff()],
      ['?compressed=true', staff()],
      ['', { Authorization: `Apikey ${callers.filtered}` }],
      ['', { Authorization: `Apikey ${callers.hidden}` }],
    ];
    for (const [query, headers] of cases) {
      const answer = await rawGet(server.base, `${TOWNS}/csv${query.replaceAll(' ', '%20')}`, headers);
      expect(answer.status, query).to.equal(200);
      expect(isShared(answer), `${query} ${headers.Authorization}`).to.equal(false);
      expect(answer.body.equals(csv), `${query} ${headers.Authorization}`).to.equal(false);
      // Asked twice, still computed: no file of its own was started.
      expect(
        isShared(await rawGet(server.base, `${TOWNS}/csv${query.replaceAll(' ', '%20')}`, headers)),
      ).to.equal(false);
    }
    // A parameter given its default value is the default form.
    expect(isShared(await rawGet(server.base, `${TOWNS}/csv?delimiter=%3B`, staff()))).to.equal(true);
  });

  it('writes a new file after a re-ingest: new bytes, new tag, the old file removed', async () => {
    const towns = path.join(dir, 'datasets', 'towns');
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const data = path.join(towns, 'data.parquet');
    await connection.run(
      `COPY (SELECT * FROM '${data}' UNION ALL SELECT 'a4', 'Nice', 340000, DATE '2022-02-02', {'lon': 7.26, 'lat': 43.7}) TO '${data}.new' (FORMAT parquet)`,
    );
    connection.closeSync();
    await promisify(execFile)('mv', [`${data}.new`, data]);
    const later = '2024-04-01T10:00:00+00:00';
    const file = JSON.parse(await readFile(path.join(towns, 'dataset.json'), 'utf8')) as { computed: object };
    await editDatasetFile(dir, 'towns', {
      computed: { ...file.computed, records_count: 4, data_processed: later },
    });
    await server.portal.reload();
    const { computed, shared } = await untilShared(server.base, `${TOWNS}/csv`, staff());
    expect(shared.body.toString()).to.include('Nice');
    expect(sha(shared.body)).to.equal(sha(computed.body));
    expect(shared.headers.etag).to.not.equal(tag);
    expect(shared.headers['last-modified']).to.equal(new Date(later).toUTCString());
    const files = await readdir(path.join(dir, '.exports', 'towns'));
    expect(files.filter((name) => name.endsWith('.v2.1.csv'))).to.have.length(1);
  });
});

describe('shared export files: the lock', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-shared-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));
  const bytes = (text: string) => (): Promise<Readable> =>
    Promise.resolve(Readable.from([Buffer.from(text)]));

  it("lets one writer among several write the file, and takes over a dead writer's lock", async () => {
    const file = path.join(dir, 'x', 'a.v2.1.csv');
    const slow = new PassThrough();
    const first = writeSharedExport(file, () => Promise.resolve(slow));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The same process asking again: busy. The lock held: another process would find it so.
    expect(await writeSharedExport(file, bytes('second'))).to.equal('busy');
    slow.end('first');
    expect(await first).to.equal('written');
    expect(await readFile(file, 'utf8')).to.equal('first');
    expect(await writeSharedExport(file, bytes('third'))).to.equal('present');
    const other = path.join(dir, 'x', 'b.v2.1.csv');
    await writeFile(`${other}.lock`, 'elsewhere 1\n');
    expect(await writeSharedExport(other, bytes('b'))).to.equal('locked');
    const old = new Date(Date.now() - 120_000);
    await utimes(`${other}.lock`, old, old);
    expect(await writeSharedExport(other, bytes('b'))).to.equal('written');
    // The older version of the same variant is gone, the lock released.
    expect((await readdir(path.join(dir, 'x'))).sort()).to.deep.equal(['b.v2.1.csv']);
  });

  it('leaves no file behind when the export fails', async () => {
    const file = path.join(dir, 'y', 'a.v2.1.csv');
    const failing = (): Promise<Readable> =>
      Promise.resolve(
        new Readable({
          read() {
            this.destroy(new Error('the engine went away'));
          },
        }),
      );
    let thrown: unknown = null;
    await writeSharedExport(file, failing).catch((error: unknown) => (thrown = error));
    expect(String(thrown)).to.include('the engine went away');
    expect(await readdir(path.join(dir, 'y'))).to.deep.equal([]);
  });
});

describe('shared export files: two server processes over one portal folder', function () {
  this.timeout(120_000);
  let dir: string;
  const serves: ServeProcess[] = [];
  before(async () => {
    dir = await buildFixturePortal();
    // Large enough that the two first requests overlap the writing (about 20 MB of CSV).
    await addFixtureDataset(
      dir,
      'big',
      `SELECT 'b' || i AS _recordid, i AS n, 'row ' || i AS t FROM range(1000000) r(i)`,
      [
        { name: 'n', label: 'N', type: 'int', description: null, annotations: {} },
        { name: 't', label: 'T', type: 'text', description: null, annotations: {} },
      ],
    );
    for (let i = 0; i < 2; i++) serves.push(await startServeProcess(dir, ['--threads', '1']));
  });
  after(async () => {
    for (const serve of serves) await serve.kill();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the file once when both are asked at once, and both send it', async () => {
    const route = '/api/explore/v2.1/catalog/datasets/big/exports/csv';
    const first = await Promise.all(serves.map((serve) => rawGet(serve.base, route)));
    expect(first.map(isShared)).to.deep.equal([false, false]);
    const shared = await Promise.all(serves.map((serve) => untilShared(serve.base, route)));
    for (const { shared: answer } of shared) expect(sha(answer.body)).to.equal(sha(first[0]!.body));
    const written = serves.map((serve) => serve.stdout().split('shared export written').length - 1);
    expect(written.reduce((a, b) => a + b)).to.equal(1);
    expect(await readdir(path.join(dir, '.exports', 'big'))).to.deep.equal(
      (await readdir(path.join(dir, '.exports', 'big'))).filter((name) => name.endsWith('.v2.1.csv')),
    );
  });
});
