// The API takes a signed-in session's cookie as the caller's identity, exactly as the user's key
// would be (a key in the request wins), and stays read-only.
import { expect } from 'chai';
import { KeyStore } from '../../src/auth/keys.js';
import { portalSecret } from '../../src/auth/portal-secret.js';
import { SESSION_COOKIE, Sessions } from '../../src/auth/sessions.js';
import { UserStore } from '../../src/auth/users.js';
import { restrictDataset, startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';

const RECORDS = '/api/explore/v2.1/catalog/datasets/towns/records';

describe('session cookies on the API (fixture portal)', () => {
  let server: TestServer & { readonly dir: string };
  let sessions: Sessions;

  before(async () => {
    server = await startFixtureServer(async (dir) => {
      const users = new UserStore(dir);
      await users.add('alice', 'alice password', ['staff']);
      await users.add('bob', 'bob password');
      await restrictDataset(dir, 'towns', [{ groups: ['staff'] }]);
    });
    sessions = new Sessions(portalSecret(server.dir), 'fixture.test');
  });
  after(() => server.close());

  const cookieOf = (user: string | null) => `${SESSION_COOKIE}=${sessions.start(user).cookie}`;
  const status = async (route: string, headers: Record<string, string> = {}) =>
    (await server.get(route, { headers })).status;

  it("opens a restricted dataset to a signed-in user of its audience, as the user's key would", async () => {
    expect(await status(RECORDS)).to.equal(403);
    expect(await status(RECORDS, { Cookie: cookieOf('alice') })).to.equal(200);
    const key = new KeyStore(server.dir).create('alice', ['staff']).key;
    expect(await status(RECORDS, { Authorization: `Apikey ${key}` })).to.equal(200);
    for (const cookie of [cookieOf('bob'), cookieOf(null), `${SESSION_COOKIE}=forged.cookie`]) {
      expect(await status(RECORDS, { Cookie: cookie }), cookie).to.equal(403);
    }
    const total = await server.get(RECORDS, { headers: { Cookie: cookieOf('alice') } });
    expect((await total.json()).total_count).to.equal(3);
  });

  it('lets a key in the request win over the cookie, a bad key included', async () => {
    const bobKey = new KeyStore(server.dir).create('bob').key;
    const alice = cookieOf('alice');
    expect(await status(RECORDS, { Cookie: alice, Authorization: `Apikey ${bobKey}` })).to.equal(403);
    expect(await status(`${RECORDS}?apikey=dpk_nonsense`, { Cookie: alice })).to.equal(401);
  });

  it('ends the sessions of a removed user', async () => {
    await new UserStore(server.dir).add('carol', 'carol password', ['staff']);
    const carol = cookieOf('carol');
    expect(await status(RECORDS, { Cookie: carol })).to.equal(200);
    new UserStore(server.dir).remove('carol');
    expect(await status(RECORDS, { Cookie: carol })).to.equal(403);
  });

  it('keeps the API read-only for a signed-in caller: POST is 405', async () => {
    const response = await server.get(RECORDS, { method: 'POST', headers: { Cookie: cookieOf('alice') } });
    expect(response.status).to.equal(405);
    expect((await response.json()).error_code).to.equal('MethodNotAllowed');
  });
});
