// Every answer the server can give to a hostile Accept-Encoding, and every 5xx it can give:
// an acceptable coding or a JSON 406; a 500 with the JSON error body, its request id, CORS
// headers and its stack in the log, wherever it starts (a route, a stream, a middleware above the
// error middleware); a stream that fails after its first bytes cuts the connection and is logged.
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import Koa from 'koa';
import { answerEscapedErrors, errorMiddleware, REQUEST_ID } from '../../src/http/error-middleware.js';
import { cors } from '../../src/http/cors.js';
import { createLogger } from '../../src/log.js';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import { decodedBody, rawGet, type RawAnswer } from '../helpers/raw-http.js';
import type { TestServer } from '../helpers/server.js';

const V21 = '/api/explore/v2.1';
const TOWNS = `${V21}/catalog/datasets/towns`;

/** The body of an answer, decoded as its Content-Encoding says. */
const decoded = (answer: RawAnswer): string => decodedBody(answer.headers, answer.body);

/** Checks an error answer: status, JSON error body with `code`, request id, CORS, no-store. */
function expectErrorAnswer(answer: RawAnswer, status: number, code: string): { message: string } {
  expect(answer.status).to.equal(status);
  expect(answer.headers['content-type']).to.match(/^application\/json/);
  expect(answer.headers['x-request-id']).to.be.a('string').and.not.equal('');
  expect(answer.headers['access-control-allow-origin']).to.equal('*');
  expect(answer.headers['cache-control']).to.equal('no-store');
  const body = JSON.parse(decoded(answer)) as { error_code: string; message: string };
  expect(Object.keys(body).sort()).to.deep.equal(['error_code', 'message']);
  expect(body.error_code).to.equal(code);
  return body;
}

describe('Accept-Encoding: an acceptable coding or a JSON 406, never a 500 (fixture portal)', () => {
  let server: TestServer & { readonly dir: string };
  before(async () => {
    server = await startFixtureServer();
  });
  after(() => server.close());

  // JSON (large and small), a page, an error, an attachment (a file sent as it is).
  const ROUTES = [`${V21}/catalog/datasets`, `${TOWNS}/records?limit=1`, '/explore/', `${V21}/nope`];
  const ATTACHMENT = `${TOWNS}/attachments/notes_ete_txt`;

  for (const header of ['identity;q=0', '*;q=0', 'gzip;q=0, identity;q=0, *;q=0', 'br;q=0, identity;q=0']) {
    it(`${header}: 406 NotAcceptable in JSON on every route, before any work (was a text/plain 500)`, async () => {
      for (const route of [...ROUTES, ATTACHMENT]) {
        const answer = await rawGet(server.base, route, { 'Accept-Encoding': header });
        const { message } = expectErrorAnswer(answer, 406, 'NotAcceptable');
        expect(message, route).to.include(header).and.include('identity');
      }
    });
  }

  for (const [header, coding] of [
    ['identity;q=0, gzip', 'gzip'],
    ['identity;q=0, br', 'br'],
    ['*;q=0, gzip;q=0.5', 'gzip'],
  ] as const) {
    it(`${header}: every compressible answer in ${coding}, however small; a file is a 406`, async () => {
      for (const route of ROUTES) {
        const answer = await rawGet(server.base, route, { 'Accept-Encoding': header });
        // The error answer goes as it is: the error middleware stands above the compression.
        if (route.endsWith('/nope')) expect(answer.status).to.equal(404);
        else expect([route, answer.headers['content-encoding']]).to.deep.equal([route, coding]);
        expect(decoded(answer)).to.not.equal('');
      }
      const file = await rawGet(server.base, ATTACHMENT, { 'Accept-Encoding': header });
      expect(expectErrorAnswer(file, 406, 'NotAcceptable').message).to.include('file sent as it is');
    });
  }

  for (const header of ['br;q=0, gzip;q=0', 'garbage', '', 'identity', ';;;,q=x', 'compress, deflate']) {
    it(`"${header}": identity stays acceptable, answers as they are`, async () => {
      for (const route of [...ROUTES, ATTACHMENT]) {
        const answer = await rawGet(server.base, route, { 'Accept-Encoding': header });
        expect(answer.status, route).to.be.below(500).and.not.equal(406);
        expect(answer.headers['content-encoding'], route).to.equal(undefined);
      }
    });
  }
});

describe('a 5xx of the server: JSON body, request id, CORS, stack in the log', () => {
  let server: TestServer & { readonly dir: string };
  before(async () => {
    server = await startFixtureServer();
  });
  after(() => server.close());

  it('an attachment whose file cannot be read is a JSON 500, logged with its stack (was a connection reset, logged nowhere)', async () => {
    const file = path.join(server.dir, 'datasets', 'towns', 'attachments', 'cities1000.zip');
    await rm(file);
    await mkdir(file);
    const answer = await rawGet(server.base, `${TOWNS}/attachments/cities1000_zip`);
    expectErrorAnswer(answer, 500, 'InternalError');
    // Nothing of the file it was to be: neither its name nor its validators.
    expect(answer.headers).to.not.have.any.keys('content-disposition', 'etag', 'last-modified');
    const id = answer.headers['x-request-id'];
    const logged = server.records.filter((record) => record.req_id === id && record.msg !== 'request');
    expect(logged).to.have.length(1);
    expect(logged[0]).to.include({ level: 50, status: 500 });
    // The whole stack of an error of the file system is its message.
    expect(logged[0]!.msg).to.equal(
      `GET ${TOWNS}/attachments/cities1000_zip: Error: EISDIR: illegal operation on a directory, read`,
    );
    const access = server.records.find((record) => record.req_id === id && record.msg === 'request');
    expect(access).to.include({ status: 500 });
  });
});

describe('what escapes the error middleware (an application of its own)', () => {
  const lines: Record<string, unknown>[] = [];
  let base: string;
  let server: http.Server;
  before(async () => {
    const log = createLogger('info', 'json', { write: (line: string) => lines.push(JSON.parse(line)) });
    const app = new Koa();
    app.silent = true;
    answerEscapedErrors(app, log);
    app.use(async (ctx, next) => {
      (ctx.state as Record<string, string>)[REQUEST_ID] = 'id-1';
      ctx.set('X-Request-Id', 'id-1');
      await next();
    });
    app.use(cors());
    // Above the error middleware, as the compression once was.
    app.use(async (ctx, next) => {
      if (ctx.path === '/above') throw new TypeError('a failure above the error middleware');
      await next();
    });
    app.use(errorMiddleware(log));
    app.use((ctx) => {
      ctx.type = 'text/csv';
      ctx.set('Content-Disposition', 'attachment; filename="x.csv"');
      ctx.body = Readable.from(
        (async function* () {
          yield 'a,b\n';
          await new Promise((resolve) => setTimeout(resolve, 20));
          throw new RangeError('a failure after the first bytes');
        })(),
      );
    });
    const handle = app.callback();
    server = http.createServer((request, response) => void handle(request, response)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it('a failure above the error middleware is the same JSON 500 (was text/plain, no id, no CORS, no log)', async () => {
    const answer = await rawGet(base, '/above');
    expectErrorAnswer(answer, 500, 'InternalError');
    expect(answer.headers['x-request-id']).to.equal('id-1');
    const line = lines.find((record) => String(record.msg).startsWith('GET /above'));
    expect(line).to.include({ level: 50, req_id: 'id-1', status: 500 });
    expect(String(line!.msg)).to.match(/TypeError: a failure above the error middleware\n\s+at /);
  });

  it('a stream failing after its first bytes cuts the connection and is logged with its stack (was logged nowhere)', async () => {
    const error = await rawGet(base, '/stream').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.an('error');
    const line = lines.find((record) => String(record.msg).startsWith('GET /stream: answer cut'));
    expect(line).to.include({ level: 50, req_id: 'id-1' });
    expect(String(line!.msg)).to.match(/RangeError: a failure after the first bytes\n\s+at /);
  });
});
