// A byte range of a file streamed into a response with its read buffers reused: the bytes a fast
// and a slow client receive equal the file's, at most a handful of buffers are allocated for 24
// MiB, a stream piped elsewhere allocates per read (and still sends the right bytes), and the file
// handle is closed once the stream ends or the client goes.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileRangeStream, READ_CHUNK } from '../../src/http/file-range-stream.js';
import { settle } from '../helpers/downloads.js';

const SIZE = 24 * 1024 * 1024 + 12_345;

interface Sent {
  readonly stream: FileRangeStream;
  readonly handle: FileHandle;
}

/** GETs `url`, reading each chunk after `pauseMs` (0: at once); the body. */
function download(url: string, pauseMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (response) => {
        const parts: Buffer[] = [];
        response.on('data', (chunk: Buffer) => {
          parts.push(chunk);
          if (pauseMs > 0) {
            response.pause();
            setTimeout(() => response.resume(), pauseMs);
          }
        });
        response.on('end', () => resolve(Buffer.concat(parts)));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

describe('FileRangeStream', function () {
  this.timeout(60_000);
  let dir: string;
  let file: string;
  let bytes: Buffer;
  let server: http.Server;
  let base: string;
  const sent: Sent[] = [];

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-range-'));
    file = path.join(dir, 'data.bin');
    bytes = randomBytes(SIZE);
    await writeFile(file, bytes);
    // `/<start>/<end>` sends those bytes; `/through/...` pipes them through a PassThrough first.
    server = http.createServer((request, response) => {
      void (async () => {
        const [, through, start, end] = /^\/(through\/)?(\d+)\/(\d+)$/.exec(request.url!)!;
        const handle = await open(file, 'r');
        const stream = new FileRangeStream(handle, { start: Number(start), end: Number(end) }, response);
        sent.push({ stream, handle });
        response.writeHead(200, { 'Content-Length': Number(end) - Number(start) + 1 });
        if (through) await pipeline(stream, new PassThrough(), response).catch(() => undefined);
        else await pipeline(stream, response).catch(() => undefined);
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the whole file to a fast client from a few buffers, and closes the file', async () => {
    const got = await download(`${base}/0/${SIZE - 1}`, 0);
    expect(got.equals(bytes)).to.equal(true);
    const { stream, handle } = sent.at(-1)!;
    expect(stream.allocated).to.be.at.most(5);
    await settle(() => handle.fd === -1);
    expect(handle.fd).to.equal(-1);
  });

  it('sends a range to a slow client byte for byte while reusing its buffers', async () => {
    const [start, end] = [777, SIZE - 4321];
    const got = await download(`${base}/${start}/${end}`, 2);
    expect(got.equals(bytes.subarray(start, end + 1))).to.equal(true);
    expect(sent.at(-1)!.stream.allocated).to.be.at.most(5);
  });

  it('allocates each read when piped into anything but its response, and sends the right bytes', async () => {
    const got = await download(`${base}/through/0/${SIZE - 1}`, 1);
    expect(got.equals(bytes)).to.equal(true);
    expect(sent.at(-1)!.stream.allocated).to.equal(Math.ceil(SIZE / READ_CHUNK));
  });

  it('closes the file when the client goes away part-way', async () => {
    await new Promise<void>((resolve, reject) => {
      const request = http.get(`${base}/0/${SIZE - 1}`, { agent: false }, (response) => {
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
    });
    const { stream, handle } = sent.at(-1)!;
    await settle(() => handle.fd === -1);
    expect(stream.destroyed).to.equal(true);
    expect(handle.fd).to.equal(-1);
  });
});
