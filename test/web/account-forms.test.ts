// The account page over HTTP (no browser): the session cookie's flags, CSRF tokens on every form,
// one answer for a wrong user name and a wrong password, the sign-in rate limit, keys created
// (with a label, escaped and bounded), listed and revoked for the signed-in user only, sign-out, and
// no way back to another site after signing in.
import { expect } from 'chai';
import { KeyStore, MAX_KEY_LABEL } from '../../src/auth/keys.js';
import { SESSION_COOKIE } from '../../src/auth/sessions.js';
import { UserStore } from '../../src/auth/users.js';
import { MAX_ACTIVE_KEYS } from '../../src/web/account-routes.js';
import { restrictDataset, startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';
import { Visitor } from '../helpers/account-visitor.js';

const RECORDS = '/api/explore/v2.1/catalog/datasets/towns/records';

async function restrictTowns(dir: string): Promise<void> {
  const users = new UserStore(dir);
  await users.add('alice', 'alice password', ['staff']);
  await users.add('bob', 'bob password');
  await restrictDataset(dir, 'towns', [{ groups: ['staff'] }]);
}

/** The headers that say who may show a page in a frame. */
const framing = (response: Response) => [
  response.headers.get('x-frame-options'),
  response.headers.get('content-security-policy'),
];
const NO_FRAMES = ['DENY', "frame-ancestors 'none'"];

describe('web: the account page over HTTP (fixture portal)', () => {
  let server: TestServer & { readonly dir: string };
  before(async () => {
    server = await startFixtureServer(restrictTowns);
  });
  after(() => server.close());

  it('shows the sign-in form with a CSRF token and sets an HttpOnly, SameSite=Lax session cookie', async () => {
    const response = await server.get('/account/');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).to.equal('no-store');
    const html = await response.text();
    expect(html).to.match(/<input id="username" name="username"/);
    expect(html).to.match(/<input id="password" name="password" type="password"/);
    expect(html).to.match(
      /<form method="post" action="\/account\/sign-in"><input type="hidden" name="_csrf" value="[\w-]{43}">/,
    );
    const [cookie] = response.headers.getSetCookie();
    const flags = cookie!
      .split('; ')
      .slice(1)
      .map((flag) => flag.toLowerCase());
    expect(flags).to.include.members(['path=/', 'samesite=lax', 'httponly']);
    expect(flags.find((flag) => flag.startsWith('expires='))).to.not.equal(undefined);
    // Served over plain HTTP, so not Secure (the browser would drop it).
    expect(flags).to.not.include('secure');
  });

  it('never lets another site frame the account page; the data pages may be embedded', async () => {
    const visitor = new Visitor(server);
    expect(framing((await visitor.get('/account/')).response)).to.deep.equal(NO_FRAMES);
    // A sign-in form sent without its token (no try counted: the limit is 5 a minute per address).
    const expired = await visitor.post('/account/sign-in', { username: 'alice', password: 'x' });
    expect([expired.status, ...framing(expired.response)]).to.deep.equal([403, ...NO_FRAMES]);
    for (const page of ['/explore/', '/explore/dataset/words/table/', '/api/explore/v2.1/console']) {
      expect(framing((await visitor.get(page)).response), page).to.deep.equal([null, null]);
    }
  });

  it("refuses a sign-in without the token, or with another session's, even with the right password", async () => {
    const visitor = new Visitor(server);
    const other = new Visitor(server);
    await visitor.token();
    for (const token of [undefined, 'x', await other.token()]) {
      const answer = await visitor.post('/account/sign-in', {
        username: 'alice',
        password: 'alice password',
        ...(token !== undefined && { _csrf: token }),
      });
      expect(answer.status).to.equal(403);
      expect(answer.html).to.include('This form has expired');
    }
    expect((await visitor.get('/account/')).html).to.include('<h1>Sign in</h1>');
    // No session at all (cookies blocked): the same refusal.
    const cookieless = await server.get('/account/sign-in', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `_csrf=${await other.token()}&username=alice&password=alice+password`,
    });
    expect(cookieless.status).to.equal(403);
  });

  it('answers a wrong password and an unknown user with the same page', async () => {
    const visitor = new Visitor(server);
    const wrong = await visitor.signIn('alice', 'not the password');
    const unknown = await visitor.signIn('nobody', 'alice password');
    expect(wrong.status).to.equal(401);
    expect(unknown.status).to.equal(401);
    expect(wrong.html).to.include('The user name or the password is not correct.');
    expect(unknown.html).to.equal(wrong.html);
  });

  it('signs in with a new session id, going back to a local `next` only, then signs out', async () => {
    const visitor = new Visitor(server);
    await visitor.token();
    const before = visitor.cookie;
    const signedIn = await visitor.signIn('alice', 'alice password', '/explore/dataset/towns/table/?q=a');
    expect(signedIn.status).to.equal(303);
    expect(signedIn.response.headers.get('location')).to.equal('/explore/dataset/towns/table/?q=a');
    expect(visitor.cookie).to.not.equal(before);
    const account = await visitor.get('/account/');
    expect(account.html).to.include('Signed in as <strong>alice</strong> (groups: staff).');
    expect(
      (await server.get(RECORDS, { headers: { Cookie: `${SESSION_COOKIE}=${visitor.cookie}` } })).status,
    ).to.equal(200);

    const kept = visitor.cookie;
    const signedOut = await visitor.post('/account/sign-out', { _csrf: await visitor.token() });
    expect(signedOut.status).to.equal(303);
    expect(visitor.cookie).to.equal(null);
    // A copy of the old cookie signs nobody in any more.
    expect((await server.get(RECORDS, { headers: { Cookie: `${SESSION_COOKIE}=${kept}` } })).status).to.equal(
      403,
    );
    const again = await server.get('/account/', { headers: { Cookie: `${SESSION_COOKIE}=${kept}` } });
    expect(await again.text()).to.include('<h1>Sign in</h1>');

    const bob = new Visitor(server);
    const away = await bob.signIn('bob', 'bob password', '//evil.example/');
    expect(away.response.headers.get('location')).to.equal('/account/');
  });

  it('creates a key shown once in an <output>, lists it, and revokes it, for the signed-in user only', async () => {
    const alice = new Visitor(server);
    expect((await alice.signIn('alice', 'alice password')).status).to.equal(303);
    const refused = await alice.post('/account/keys', {});
    expect(refused.status).to.equal(403);
    const created = await alice.post('/account/keys', { _csrf: await alice.token() });
    expect(created.status).to.equal(201);
    const key = /<output id="new-key"[^>]*>(dpk_\w+_[\w-]+)<\/output>/.exec(created.html)![1]!;
    expect(new KeyStore(server.dir).verify(key)).to.deep.include({ user: 'alice', groups: ['staff'] });
    const id = key.split('_')[1]!;
    const listed = (await alice.get('/account/')).html;
    expect(listed).to.include(`<td data-label="Key id"><code>${id}</code></td>`);
    expect(listed).to.not.include(key);
    expect(listed).to.include(`action="/account/keys/${id}/revoke"`);

    const other = new KeyStore(server.dir).create('bob').entry.id;
    const notHers = await alice.post(`/account/keys/${other}/revoke`, { _csrf: await alice.token() });
    expect(notHers.status).to.equal(404);
    expect(new KeyStore(server.dir).list().find((k) => k.id === other)!.revoked).to.equal(null);

    expect((await alice.post(`/account/keys/${id}/revoke`, {})).status).to.equal(403);
    expect((await server.get(RECORDS, { headers: { Authorization: `Apikey ${key}` } })).status).to.equal(200);
    const revoked = await alice.post(`/account/keys/${id}/revoke`, { _csrf: await alice.token() });
    expect(revoked.status).to.equal(303);
    expect((await server.get(RECORDS, { headers: { Authorization: `Apikey ${key}` } })).status).to.equal(401);
    const keys = await alice.get('/account/');
    expect(keys.html).to.match(new RegExp(`<code>${id}</code></td>.*<td data-label="Status">revoked `));
    expect(framing(keys.response)).to.deep.equal(NO_FRAMES);
  });

  it('sends a visitor who is not signed in back to the sign-in form', async () => {
    const visitor = new Visitor(server);
    const answer = await visitor.post('/account/keys', { _csrf: await visitor.token() });
    expect(answer.status).to.equal(303);
    expect(answer.response.headers.get('location')).to.equal('/account/');
    expect(new KeyStore(server.dir).list().filter((k) => k.user === 'alice')).to.have.length(1);
  });
});

describe('web: the sign-in rate limit (fixture portal)', () => {
  let server: TestServer & { readonly dir: string };
  before(async () => {
    server = await startFixtureServer(restrictTowns);
  });
  after(() => server.close());

  it('refuses a sixth try within a minute with a 429 page, even with the right password', async () => {
    const visitor = new Visitor(server);
    for (let i = 0; i < 5; i++) expect((await visitor.signIn('alice', `wrong ${i}`)).status).to.equal(401);
    const limited = await visitor.signIn('alice', 'alice password');
    expect(limited.status).to.equal(429);
    expect(Number(limited.response.headers.get('retry-after'))).to.be.within(1, 60);
    expect(limited.html).to.include('Too many sign-in attempts');
    expect(limited.html).to.include('name="username"');
    expect((await visitor.get('/account/')).html).to.include('<h1>Sign in</h1>');
  });
});

describe('web: sign-in limits by name and address (fixture portal behind a proxy)', function () {
  // 23 tries, each a scrypt hash (about 1 s each on this busy machine).
  this.timeout(120_000);
  let server: TestServer & { readonly dir: string };
  before(async () => {
    server = await startFixtureServer(restrictTowns, { trustProxy: true });
  });
  after(() => server.close());

  const from = (address: string) => new Visitor(server, { 'X-Forwarded-For': address });

  it("lets alice sign in from her address while another spends its tries at her name, and caps that address's names", async () => {
    const attacker = from('203.0.113.66');
    for (let i = 0; i < 5; i++) expect((await attacker.signIn('alice', `guess ${i}`)).status).to.equal(401);
    expect((await attacker.signIn('alice', 'guess 5')).status).to.equal(429);
    expect((await from('198.51.100.7').signIn('alice', 'alice password')).status).to.equal(303);
    // Other names from the attacker's address, up to its 20 tries a minute.
    for (let i = 5; i < 20; i++)
      expect((await attacker.signIn(`user${i}`, 'guess')).status, String(i)).to.equal(401);
    expect((await attacker.signIn('bob', 'bob password')).status).to.equal(429);
    expect((await from('198.51.100.8').signIn('bob', 'bob password')).status).to.equal(303);
  });
});

describe('web: hostile account forms (fixture portal)', () => {
  let server: TestServer & { readonly dir: string };
  before(async () => {
    server = await startFixtureServer(restrictTowns);
  });
  after(() => server.close());

  it('answers odd bodies with a clean HTML 4xx, never a 500, and signs no one in', async () => {
    const visitor = new Visitor(server);
    const csrf = await visitor.token();
    const cookie = `${SESSION_COOKIE}=${visitor.cookie}`;
    const bodies: [string, string][] = [
      ['application/json', JSON.stringify({ _csrf: csrf, username: 'alice', password: 'alice password' })],
      ['application/x-www-form-urlencoded', `_csrf=${csrf}&username=${'a'.repeat(20_000)}&password=x`],
      ['application/x-www-form-urlencoded', '%%%&=&&_csrf'],
      ['text/plain', 'hello'],
    ];
    for (const [type, body] of bodies) {
      const response = await server.get('/account/sign-in', {
        method: 'POST',
        headers: { Cookie: cookie, 'Content-Type': type },
        body,
        redirect: 'manual',
      });
      expect(response.status, `${type} ${body.slice(0, 40)}`).to.equal(403);
      expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    }
    // Fields that are not plain strings (arrays, objects, prototype keys) count as absent.
    for (const body of [
      `_csrf=${csrf}&username[]=alice&password=alice+password`,
      `_csrf=${csrf}&username[__proto__]=alice&__proto__[password]=alice+password`,
      `_csrf=${csrf}&username=alice&password[a]=alice+password`,
    ]) {
      const response = await server.get('/account/sign-in', {
        method: 'POST',
        headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
        redirect: 'manual',
      });
      expect(response.status, body).to.equal(401);
    }
  });

  it('labels a key as typed, escaped in the list; refuses a label too long or with control characters', async () => {
    const alice = new Visitor(server);
    expect((await alice.signIn('alice', 'alice password')).status).to.equal(303);
    const label = `  <b>Nightly</b> "export" & <script>alert(1)</script>  `;
    const created = await alice.post('/account/keys', { _csrf: await alice.token(), label });
    expect(created.status).to.equal(201);
    const key = /<output id="new-key"[^>]*>(dpk_\w+_[\w-]+)<\/output>/.exec(created.html)![1]!;
    const entry = new KeyStore(server.dir).list().find((k) => k.id === key.split('_')[1])!;
    expect(entry.label).to.equal(label.trim());
    const listed = (await alice.get('/account/')).html;
    expect(listed).to.include(
      '<td data-label="Label">&#60;b&#62;Nightly&#60;/b&#62; &#34;export&#34; &#38; &#60;script&#62;alert(1)&#60;/script&#62;</td>',
    );
    expect(listed).to.not.include('<script>alert');
    const before = new KeyStore(server.dir).list().length;
    for (const [bad, reason] of [
      ['x'.repeat(MAX_KEY_LABEL + 1), `at most ${MAX_KEY_LABEL} characters`],
      ['two\nlines', 'without control characters'],
    ] as const) {
      const refused = await alice.post('/account/keys', { _csrf: await alice.token(), label: bad });
      expect(refused.status, reason).to.equal(400);
      expect(refused.html, reason).to.include(reason);
      expect(refused.html, reason).to.not.include('<output');
    }
    const typed = await alice.post('/account/keys', { _csrf: await alice.token(), label: 'y'.repeat(101) });
    expect(typed.html, 'the refused label is given back').to.include(`value="${'y'.repeat(101)}"`);
    expect(new KeyStore(server.dir).list()).to.have.length(before);
    const unlabelled = await alice.post('/account/keys', { _csrf: await alice.token(), label: '   ' });
    expect(unlabelled.status).to.equal(201);
    expect(new KeyStore(server.dir).list().at(-1)!.label).to.equal(null);
    expect((await alice.get('/account/')).html).to.include(
      '<td data-label="Label"><span class="muted">no label</span></td>',
    );
    for (const k of new KeyStore(server.dir).list()) new KeyStore(server.dir).revoke(k.id);
  });

  it('goes back after signing in to a path of this site only: never to another host', async () => {
    for (const hostile of [
      '//evil.example',
      '//evil.example/explore/',
      'https://evil.example/',
      'http:evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      ' //evil.example',
      'javascript:alert(1)',
      'explore/',
    ]) {
      const form = (await new Visitor(server).get(`/account/?next=${encodeURIComponent(hostile)}`)).html;
      expect(form, hostile).to.not.include('name="next"');
    }
    const bob = new Visitor(server);
    for (const hostile of ['//evil.example', 'https://evil.example/', '/\\evil.example']) {
      const answer = await bob.signIn('bob', 'bob password', hostile);
      expect(answer.status, hostile).to.equal(303);
      expect(answer.response.headers.get('location'), hostile).to.equal('/account/');
    }
    const home = await bob.signIn('bob', 'bob password', '/explore/dataset/towns/?q=%2F%2Fevil.example');
    expect(home.response.headers.get('location')).to.equal('/explore/dataset/towns/?q=%2F%2Fevil.example');
  });

  it(`refuses a key beyond ${MAX_ACTIVE_KEYS} active ones, creating nothing`, async () => {
    const alice = new Visitor(server);
    expect((await alice.signIn('alice', 'alice password')).status).to.equal(303);
    const keys = new KeyStore(server.dir);
    for (let i = 0; i < MAX_ACTIVE_KEYS; i++) keys.create('alice', ['staff']);
    const refused = await alice.post('/account/keys', { _csrf: await alice.token() });
    expect(refused.status).to.equal(409);
    expect(refused.html).to.include('revoke one first');
    expect(refused.html).to.not.include('<output');
    expect(keys.list().filter((k) => k.revoked === null)).to.have.length(MAX_ACTIVE_KEYS);
  });
});
