// The server's answer to a request Node's parser refused or timed out: a JSON 400, 408 or 414; but
// a kept-alive connection that timed out idle is closed without an answer (a browser retries on a
// closed connection, where it would read a late 400 as the answer to its next request).
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { answerClientError } from '../../src/api/request-guards.js';

/** A connection that has written `bytesWritten` bytes so far; `written()` is what the listener wrote. */
function connection(bytesWritten: number) {
  const socket = Object.assign(new PassThrough(), { bytesWritten });
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { socket, written: () => Buffer.concat(chunks).toString('latin1') };
}

const failure = (code: string) => Object.assign(new Error(code), { code });

describe('api: client errors of the HTTP parser', () => {
  it('answers a fresh connection 400, 408 or 414 in the API error shape', async () => {
    for (const [code, status] of [
      ['HPE_INVALID_METHOD', '400 Bad Request'],
      ['ERR_HTTP_REQUEST_TIMEOUT', '408 Request Timeout'],
      ['HPE_HEADER_OVERFLOW', '414 URI Too Long'],
    ] as const) {
      const { socket, written } = connection(0);
      answerClientError(failure(code), socket);
      await new Promise((resolve) => setImmediate(resolve));
      expect(written(), code).to.match(new RegExp(`^HTTP/1\\.1 ${status}\\r\\n`));
      expect(JSON.parse(written().slice(written().indexOf('\r\n\r\n') + 4)).message, code).to.be.a('string');
    }
  });

  it('closes a kept-alive connection that timed out idle without writing to it', async () => {
    const { socket, written } = connection(512);
    answerClientError(failure('ERR_HTTP_REQUEST_TIMEOUT'), socket);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written()).to.equal('');
    expect(socket.destroyed).to.equal(true);
  });

  it('still answers a malformed request on a kept-alive connection (the client waits for it)', async () => {
    const { socket, written } = connection(512);
    answerClientError(failure('HPE_HEADER_OVERFLOW'), socket);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written()).to.match(/^HTTP\/1\.1 414 URI Too Long\r\n/);
  });
});
