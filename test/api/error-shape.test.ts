// One error object per API generation, produced in one place (src/http/errors.ts): every route
// family answers {error_code, message} on v2.1 and v2.0 paths and {errorcode, error} on v1 paths,
// with the status its error class maps to; the quota's 429 is the public service's body everywhere.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';

/** A request, the status and error code it must answer (v1 answers the status as its code). */
type Case = [path: string, status: number, code: string, init?: RequestInit];

const V21 = '/api/explore/v2.1';
const V20 = '/api/explore/v2.0';
const TOWNS = 'catalog/datasets/towns';

const CASES: Case[] = [
  // v2.1 records, catalog, facets, exports, attachments
  [`${V21}/${TOWNS}/records?where=population%20%3E`, 400, 'QueryLangError'],
  [`${V21}/${TOWNS}/records?limit=abc`, 400, 'InvalidRESTParameterError'],
  [`${V21}/${TOWNS}/records/nope`, 404, 'NotFoundResource'],
  [`${V21}/catalog/datasets/nope/records`, 404, 'NotFoundResource'],
  [`${V21}/catalog/datasets?where=nope%20%3D%201`, 400, 'QueryLangError'],
  [`${V21}/catalog/datasets/towns?select=nope`, 400, 'QueryLangError'],
  [`${V21}/${TOWNS}/facets?facet=nope`, 400, 'QueryLangError'],
  [`${V21}/catalog/facets?where=%28`, 400, 'QueryLangError'],
  [`${V21}/${TOWNS}/exports/csv?where=nope%20%3D%201`, 400, 'QueryLangError'],
  [`${V21}/${TOWNS}/exports/nope`, 400, 'InvalidRESTParameterError'],
  [`${V21}/catalog/exports/csv?order_by=nope`, 400, 'QueryLangError'],
  [`${V21}/${TOWNS}/attachments/nope`, 404, 'NotFoundResource'],
  [`${V21}/nope`, 404, 'NotFoundResource'],
  [`${V21}/${TOWNS}/records`, 405, 'MethodNotAllowed', { method: 'POST' }],
  [`${V21}/${TOWNS}/records?where=${'x'.repeat(40_000)}`, 414, 'URITooLong'],
  // v2.0 aliases
  [`${V20}/${TOWNS}/records?where=population%20%3E`, 400, 'QueryLangError'],
  [`${V20}/${TOWNS}/exports/json?group_by=nope`, 400, 'QueryLangError'],
  [`${V20}/catalog/datasets/nope`, 404, 'NotFoundResource'],
  // v1 search, lookup, download
  ['/api/records/1.0/search?dataset=towns&q=population%3E%3D', 400, '400'],
  ['/api/records/1.0/search?dataset=towns&facet=nope', 400, '400'],
  ['/api/records/1.0/download?dataset=towns&format=xls', 400, '400'],
  ['/api/datasets/1.0/towns/records/nope', 404, '404'],
  ['/api/datasets/1.0/search?rows=-5', 400, '400'],
];

/** The keys and code of an error body, in the form of the path's API generation. */
function errorShape(route: string, body: Record<string, unknown>): { keys: string[]; code: string } {
  const v1 = route.startsWith('/api/records/1.0') || route.startsWith('/api/datasets/1.0');
  return {
    keys: Object.keys(body).sort(),
    code: String(v1 ? body.errorcode : body.error_code),
  };
}

const keysOf = (route: string): string[] =>
  route.includes('/1.0/') ? ['error', 'errorcode'] : ['error_code', 'message'];

describe('the error object of every route family (fixture portal)', () => {
  let server: TestServer;
  before(async () => {
    server = await startFixtureServer();
  });
  after(() => server.close());

  for (const [route, status, code, init] of CASES) {
    it(`${init?.method ?? 'GET'} ${route.slice(0, 70)} answers ${status} ${code}`, async () => {
      const response = await server.get(route, init);
      expect(response.status).to.equal(status);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      const body = (await response.json()) as Record<string, unknown>;
      expect(errorShape(route, body)).to.deep.equal({ keys: keysOf(route), code });
      const text = route.includes('/1.0/') ? body.error : body.message;
      expect(text).to.be.a('string').and.not.equal('');
    });
  }

  describe('past the quota', () => {
    let limited: TestServer;
    before(async () => {
      limited = await startFixtureServer(async (dir) => {
        const file = path.join(dir, 'portal.json');
        const portal = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
        await writeFile(file, JSON.stringify({ ...portal, quotas: { per_ip: 1 } }));
      });
      expect((await limited.get(`${V21}/${TOWNS}/records`)).status).to.equal(200);
    });
    after(() => limited.close());

    // The quota's 429 is the public service's own body on every generation (supplement, quotas).
    for (const route of [
      `${V21}/${TOWNS}/records`,
      `${V20}/${TOWNS}/records`,
      '/api/records/1.0/search?dataset=towns',
    ]) {
      it(`${route} answers 429 in the quota's form`, async () => {
        const response = await limited.get(route);
        expect(response.status).to.equal(429);
        const body = (await response.json()) as Record<string, unknown>;
        expect(Object.keys(body).sort()).to.deep.equal([
          'call_limit',
          'error',
          'errorcode',
          'limit_time_unit',
          'reset_time',
        ]);
        expect(body).to.include({ errorcode: 10002, call_limit: 1, limit_time_unit: 'day' });
      });
    }
  });
});
