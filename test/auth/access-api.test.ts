// Access control over HTTP on the fixture portal: restricted datasets, audiences, private
// portals, revoked keys and quotas, as a client sees them.
import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { KeyStore } from '../../src/auth/keys.js';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';

const V21 = '/api/explore/v2.1';

async function editJson(file: string, edit: (value: any) => void): Promise<void> {
  const value = JSON.parse(await readFile(file, 'utf8'));
  edit(value);
  await writeFile(file, JSON.stringify(value));
}

const DATA_ROUTES = ['/records', '/records/a1', '/attachments', '/attachments/cities1000_zip'];

describe('access control (fixture portal)', () => {
  let dir: string;
  let server: TestServer;
  let alice: string;
  let bob: string;
  let carol: string;

  before(async () => {
    server = await startFixtureServer(async (portal) => {
      dir = portal;
      await restrictTowns(portal);
    });
  });
  after(() => server.close());

  async function restrictTowns(portal: string): Promise<void> {
    const keys = new KeyStore(portal);
    alice = keys.create('alice', ['staff']).key;
    bob = keys.create('bob').key;
    carol = keys.create('carol').key;
    await editJson(path.join(portal, 'datasets', 'towns', 'dataset.json'), (d) => {
      d.visibility = 'restricted';
      d.access = [
        { groups: ['staff'] },
        { users: ['carol'], hidden_fields: ['population'], row_filter: "name = 'Lyon'" },
      ];
    });
    await editJson(path.join(portal, 'portal.json'), (p) => {
      p.quotas = { per_ip: 100 };
    });
  }

  const as = (key: string | null) => async (route: string) => {
    const response = await server.get(
      `${V21}${route}`,
      key ? { headers: { Authorization: `Apikey ${key}` } } : {},
    );
    return {
      status: response.status,
      body: response.headers.get('content-type')?.includes('json') ? await response.json() : null,
    };
  };

  it('lists a restricted dataset with data_visible false for others, true for its audience', async () => {
    const anonymous = await as(null)('/catalog/datasets/towns');
    expect(anonymous.status).to.equal(200);
    expect(anonymous.body.data_visible).to.equal(false);
    expect((await as(alice)('/catalog/datasets/towns')).body.data_visible).to.equal(true);
  });

  it('answers 403 ForbiddenAccess on every data route for the wrong key or none, 200 for the right one', async () => {
    for (const tail of DATA_ROUTES) {
      const route = `/catalog/datasets/towns${tail}`;
      for (const key of [null, bob]) {
        const { status, body } = await as(key)(route);
        expect(status, `${route} as ${key ? 'bob' : 'anonymous'}`).to.equal(403);
        expect(body.error_code).to.equal('ForbiddenAccess');
      }
      expect((await as(alice)(route)).status, `${route} as alice`).to.equal(200);
    }
  });

  it("hides an audience's hidden fields: unknown to its queries, absent from records and schema", async () => {
    const unknown = await as(carol)(`/catalog/datasets/towns/records?select=population`);
    expect(unknown.status).to.equal(400);
    expect(unknown.body.message).to.equal(
      'Unknown field: population. Clause(s) containing the error(s): select.',
    );
    const records = await as(carol)('/catalog/datasets/towns/records');
    expect(records.body.results.every((r: any) => !('population' in r))).to.equal(true);
    const lookup = await as(carol)('/catalog/datasets/towns');
    expect(lookup.body.fields.map((f: any) => f.name)).to.not.include('population');
  });

  it("applies the audience's row filter before the caller's query", async () => {
    const records = await as(carol)('/catalog/datasets/towns/records?select=name');
    expect(records.body).to.deep.equal({ total_count: 1, results: [{ name: 'Lyon' }] });
    const all = await as(alice)('/catalog/datasets/towns/records?limit=0');
    expect(all.body.total_count).to.equal(3);
  });

  it('refuses an unknown or revoked key with 401, never as anonymous', async () => {
    const revoked = new KeyStore(dir).create('dave').key;
    expect((await as(revoked)('/catalog/datasets')).status).to.equal(200);
    new KeyStore(dir).revoke(revoked);
    const refused = await as(revoked)('/catalog/datasets');
    expect(refused.status).to.equal(401);
    expect(refused.body.error_code).to.equal('InvalidAPIKey');
    expect((await as('dpk_000000000000_' + 'x'.repeat(43))('/catalog/datasets')).status).to.equal(401);
  });

  it('lets exactly 100 of 200 parallel anonymous calls through a quota of 100, with consistent headers', async () => {
    // Other tests of this suite spent some of the quota: count what is left first.
    const probe = await server.get(`${V21}/catalog/datasets?limit=0`);
    const left = Number(probe.headers.get('x-ratelimit-remaining'));
    expect(probe.headers.get('x-ratelimit-limit')).to.equal('100');
    const responses = await Promise.all(
      Array.from({ length: 200 }, () => server.get(`${V21}/catalog/datasets?limit=0`)),
    );
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(ok).to.have.length(left);
    expect(limited).to.have.length(200 - left);
    const remaining = ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
    expect(remaining).to.deep.equal(Array.from({ length: left }, (_, i) => i));
    const body = await limited[0]!.json();
    expect(body).to.include({ errorcode: 10002, limit_time_unit: 'day', call_limit: 100 });
    expect(Number(limited[0]!.headers.get('retry-after'))).to.be.greaterThan(0);
    expect(limited[0]!.headers.get('x-ratelimit-remaining')).to.equal('0');
    // A key has its own quota.
    expect((await as(alice)('/catalog/datasets?limit=0')).status).to.equal(200);
  });
});

describe('failed authentications', () => {
  let server: TestServer;
  before(async () => {
    server = await startFixtureServer(async (dir) => {
      await editJson(path.join(dir, 'portal.json'), (p) => {
        p.quotas = { per_ip: 5 };
      });
    });
  });
  after(() => server.close());

  it("count against the address's quota: 5 bad keys spend a per_ip of 5, the 6th is 429", async () => {
    const statuses: [number, string | null][] = [];
    for (let i = 0; i < 7; i++) {
      const guess = `dpk_${i.toString(16).padStart(12, '0')}_${'z'.repeat(43)}`;
      const response = await server.get(`${V21}/catalog/datasets`, {
        headers: { Authorization: `Apikey ${guess}` },
      });
      statuses.push([response.status, response.headers.get('x-ratelimit-remaining')]);
      await response.arrayBuffer();
    }
    expect(statuses).to.deep.equal([
      [401, '4'],
      [401, '3'],
      [401, '2'],
      [401, '1'],
      [401, '0'],
      [429, '0'],
      [429, '0'],
    ]);
    // Anonymous calls from that address share the spent quota.
    expect((await server.get(`${V21}/catalog/datasets`)).status).to.equal(429);
  });
});

describe('private portal', () => {
  let server: TestServer;
  let key: string;

  before(async () => {
    server = await startFixtureServer(async (dir) => {
      key = new KeyStore(dir).create('alice').key;
      await editJson(path.join(dir, 'portal.json'), (p) => {
        p.private = true;
      });
    });
  });
  after(() => server.close());

  const ROUTES = [
    '/catalog/datasets',
    '/catalog/datasets/towns',
    '/catalog/datasets/towns/records',
    '/catalog/datasets/towns/records/a1',
    '/catalog/datasets/towns/attachments',
    '/catalog/datasets/towns/attachments/cities1000_zip',
    '/catalog/datasets/towns/exports',
    '/catalog/exports',
    '/catalog/datasets/nope',
    '/no/such/path',
  ];

  it('answers 401 on every route without a key', async () => {
    for (const route of ROUTES) {
      const response = await server.get(`${V21}${route}`);
      expect(response.status, route).to.equal(401);
      expect((await response.json()).error_code, route).to.equal('AuthenticationRequired');
    }
  });

  it('serves every route to a valid key, in the header or as apikey=', async () => {
    for (const route of ROUTES.slice(0, 8)) {
      expect(
        (await server.get(`${V21}${route}`, { headers: { Authorization: `ApiKey ${key}` } })).status,
        route,
      ).to.equal(200);
    }
    expect((await server.get(`${V21}/catalog/datasets?apikey=${key}`)).status).to.equal(200);
  });

  it('carries the X-RateLimit headers on every answer, refusals and errors included', async () => {
    const valid = { Authorization: `Apikey ${key}` };
    const bad = { Authorization: `Apikey dpk_000000000000_${'x'.repeat(43)}` };
    const cases: [string, number, RequestInit?][] = [
      [`${V21}/catalog/datasets`, 401],
      ['/api/records/1.0/search?dataset=towns', 401],
      [`${V21}/catalog/datasets/towns/exports/csv`, 401, { headers: bad }],
      [`${V21}/catalog/datasets/towns/records`, 200, { headers: valid }],
      [`${V21}/catalog/datasets/nope/records`, 404, { headers: valid }],
      [`${V21}/catalog/datasets/towns/records?limit=1000`, 400, { headers: valid }],
      [`${V21}/catalog/datasets/towns/records?where=nope=1`, 400, { headers: valid }],
      [`${V21}/catalog/datasets/towns/exports/nope`, 400, { headers: valid }],
      ['/api/records/1.0/search?dataset=nope', 404, { headers: valid }],
      ['/no/such/path', 404, { headers: valid }],
      [`${V21}/catalog/datasets`, 405, { method: 'DELETE', headers: valid }],
      [`${V21}/catalog/datasets?where=${'x'.repeat(40_000)}`, 414, { headers: valid }],
    ];
    for (const [route, status, init] of cases) {
      const response = await server.get(route, init);
      const label = `${init?.method ?? 'GET'} ${route.slice(0, 60)}`;
      expect(response.status, label).to.equal(status);
      expect(response.headers.get('x-ratelimit-limit'), label).to.match(/^\d+$/);
      expect(response.headers.get('x-ratelimit-remaining'), label).to.match(/^\d+$/);
      expect(response.headers.get('x-ratelimit-reset'), label).to.match(/^\d+$/);
      await response.arrayBuffer();
    }
  });
});

describe('request size limits', () => {
  let server: TestServer;
  before(async () => {
    server = await startFixtureServer();
  });
  after(() => server.close());

  it('refuses a URL past 32 KiB with a JSON 414, and still serves the next request', async () => {
    const response = await server.get(`${V21}/catalog/datasets?where=${'x'.repeat(40_000)}`);
    expect(response.status).to.equal(414);
    expect((await response.json()).error_code).to.equal('URITooLong');
    expect((await server.get(`${V21}/catalog/datasets`)).status).to.equal(200);
  });

  it('answers the same JSON 414 for URLs past what Node parses (64 KiB to 1 MB), never a reset', async () => {
    for (const length of [70_000, 130_000, 200_000, 1_000_000]) {
      const response = await server.get(`${V21}/catalog/datasets?where=${'x'.repeat(length)}`);
      expect(response.status, `${length}`).to.equal(414);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      expect((await response.json()).error_code).to.equal('URITooLong');
    }
    expect((await server.get(`${V21}/catalog/datasets`)).status).to.equal(200);
  });
});
