// Every failing v1 request answers v1's error object `{errorcode, error}` and nothing else, the
// 401 of a private portal and of a bad key included (issue 30, item 6).
import { expect } from 'chai';
import { makePrivate, startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';

/** A request, the key it presents ('valid', 'none' or 'bad'), and the status it must answer. */
type Case = [path: string, key: 'valid' | 'none' | 'bad', status: number, init?: RequestInit];

const CASES: Case[] = [
  ['/api/records/1.0/search?dataset=nope', 'valid', 404],
  ['/api/records/1.0/search?dataset=towns&rows=abc', 'valid', 400],
  ['/api/records/1.0/search?dataset=towns&q=population%3E%3D', 'valid', 400],
  ['/api/records/1.0/search?dataset=towns&sort=nope', 'valid', 400],
  ['/api/records/1.0/search?rows=1', 'valid', 400],
  ['/api/datasets/1.0/nope', 'valid', 404],
  ['/api/datasets/1.0/search?rows=-5', 'valid', 400],
  ['/api/datasets/1.0/towns/records/zzz', 'valid', 404],
  ['/api/records/1.0/download?dataset=towns&format=xls', 'valid', 400],
  ['/api/records/1.0/analyze?dataset=towns', 'valid', 404],
  ['/api/records/1.0/geocluster?dataset=towns', 'valid', 404],
  ['/api/records/1.0/search?dataset=towns', 'valid', 405, { method: 'POST' }],
  [`/api/records/1.0/search?dataset=towns&q=${'x'.repeat(40_000)}`, 'valid', 414],
  ['/api/records/1.0/search?dataset=towns', 'none', 401],
  ['/api/datasets/1.0/search', 'none', 401],
  ['/api/datasets/1.0/towns', 'none', 401],
  ['/api/records/1.0/download?dataset=towns', 'none', 401],
  ['/api/records/1.0/analyze?dataset=towns', 'none', 401],
  ['/api/records/1.0/search?dataset=towns', 'bad', 401],
  ['/api/datasets/1.0/towns/', 'bad', 401],
];

describe('v1 errors (private fixture portal)', () => {
  let server: TestServer;
  let key: string;

  before(async () => {
    server = await startFixtureServer(async (dir) => {
      key = await makePrivate(dir);
    });
  });
  after(() => server.close());

  const authorization = (kind: Case[1]): Record<string, string> =>
    kind === 'none'
      ? {}
      : { Authorization: `Apikey ${kind === 'valid' ? key : 'dpk_000000000000_' + 'x'.repeat(43)}` };

  for (const [route, kind, status, init] of CASES) {
    it(`${init?.method ?? 'GET'} ${route.slice(0, 80)} (${kind} key) answers ${status} {errorcode, error}`, async () => {
      const response = await server.get(route, { ...init, headers: authorization(kind) });
      expect(response.status).to.equal(status);
      const body = await response.json();
      expect(Object.keys(body).sort()).to.deep.equal(['error', 'errorcode']);
      expect(body.errorcode).to.equal(status);
      expect(body.error).to.be.a('string').and.not.equal('');
    });
  }

  it('names the problem in the error text', async () => {
    const none = await server.json('/api/records/1.0/search?dataset=towns');
    expect(none.body.error).to.equal('This portal is private: an API key is required.');
    const unknown = await server.get('/api/records/1.0/search?dataset=nope', {
      headers: authorization('valid'),
    });
    expect((await unknown.json()).error).to.equal('The requested dataset nope does not exist.');
  });

  it('keeps the v2.1 error object on v2.1 paths', async () => {
    const { status, body } = await server.json('/api/explore/v2.1/catalog/datasets');
    expect(status).to.equal(401);
    expect(body).to.deep.equal({
      error_code: 'AuthenticationRequired',
      message: 'This portal is private: an API key is required.',
    });
  });
});
