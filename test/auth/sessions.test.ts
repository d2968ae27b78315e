// Session cookies and sign-in limits, without a server: what a forged, altered, expired or
// signed-out cookie gets, and how the tries of a minute are counted.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { SESSION_MS, Sessions } from '../../src/auth/sessions.js';
import { SIGN_IN_LIMITS, SignInLimiter } from '../../src/auth/sign-in-limit.js';

describe('sessions', () => {
  const secret = randomBytes(32);
  let clock = Date.UTC(2026, 0, 1);
  const sessions = new Sessions(secret, 'data.example.org', () => clock);

  it('reads back the session of its own cookie, and nothing from an altered or foreign one', () => {
    const { session, cookie } = sessions.start('alice');
    expect(sessions.read(cookie)).to.deep.equal(session);
    const [text, signature] = cookie.split('.') as [string, string];
    const bob = Buffer.from(JSON.stringify({ ...session, user: 'bob' })).toString('base64url');
    expect(sessions.read(`${bob}.${signature}`)).to.equal(null);
    expect(sessions.read(`${text}.${signature.slice(0, -2)}`)).to.equal(null);
    expect(sessions.read(`${text}.${signature}.x`)).to.equal(null);
    expect(new Sessions(randomBytes(32), 'data.example.org', () => clock).read(cookie)).to.equal(null);
    // The same secret under another domain (a copied portal folder) is another key.
    const copy = new Sessions(secret, 'copy.example.org', () => clock);
    expect(copy.read(cookie)).to.equal(null);
    expect(copy.checkCsrf(session, sessions.csrfToken(session))).to.equal(false);
    expect(new Sessions(secret, 'DATA.example.org', () => clock).read(cookie)).to.deep.equal(session);
    for (const junk of [undefined, '', '.', 'a.b', '%%%.%%%']) expect(sessions.read(junk)).to.equal(null);
  });

  it('expires, and a signed-out session is refused even with a copy of its cookie', () => {
    const { session, cookie } = sessions.start('alice');
    clock += SESSION_MS - 1;
    expect(sessions.read(cookie)).to.not.equal(null);
    clock += 1;
    expect(sessions.read(cookie)).to.equal(null);
    const next = sessions.start('alice');
    sessions.end(next.session);
    expect(sessions.read(next.cookie)).to.equal(null);
    expect(session.id).to.not.equal(next.session.id);
  });

  it('gives each session its own CSRF token and accepts only that one', () => {
    const a = sessions.start(null).session;
    const b = sessions.start(null).session;
    expect(sessions.checkCsrf(a, sessions.csrfToken(a))).to.equal(true);
    expect(sessions.checkCsrf(a, sessions.csrfToken(b))).to.equal(false);
    expect(sessions.checkCsrf(null, sessions.csrfToken(a))).to.equal(false);
    for (const token of [undefined, '', ['x'], sessions.csrfToken(a).slice(1)]) {
      expect(sessions.checkCsrf(a, token)).to.equal(false);
    }
  });
});

describe('sign-in limit', () => {
  const { perNameAndAddress, perAddress, perProcess } = SIGN_IN_LIMITS;

  it(`allows ${perNameAndAddress} tries a minute per name and address, never refusing the name from elsewhere`, () => {
    let clock = 1_000_000;
    const limiter = new SignInLimiter(SIGN_IN_LIMITS, () => clock);
    const take = (user: string, ip: string) => limiter.take(user, { keyId: null, ip });
    for (let i = 0; i < perNameAndAddress; i++) expect(take('alice', '10.0.0.66').allowed).to.equal(true);
    expect(take('alice', '10.0.0.66')).to.deep.equal({ allowed: false, retryAfterSeconds: 60 });
    // alice from her own address, and from five more, is not refused.
    for (let i = 0; i < perNameAndAddress; i++) expect(take('alice', `10.0.1.${i}`).allowed).to.equal(true);
    clock += 30_000;
    expect(take('alice', '10.0.0.66')).to.deep.equal({ allowed: false, retryAfterSeconds: 30 });
    clock += 30_000;
    expect(take('alice', '10.0.0.66').allowed).to.equal(true);
  });

  it(`allows ${perAddress} tries a minute per address, any names, and ${perProcess} for the process`, () => {
    const clock = 1_000_000;
    const limiter = new SignInLimiter(SIGN_IN_LIMITS, () => clock);
    const take = (user: string, ip: string) => limiter.take(user, { keyId: null, ip });
    for (let i = 0; i < perAddress; i++) expect(take(`user${i}`, '10.0.2.1').allowed).to.equal(true);
    expect(take('zoe', '10.0.2.1').allowed).to.equal(false);
    expect(take('zoe', '10.0.2.2').allowed).to.equal(true);
    // The rest of the process's tries, from addresses within their own limits.
    for (let i = perAddress + 1; i < perProcess; i++)
      expect(take(`user${i}`, `10.0.3.${i % 50}`).allowed, String(i)).to.equal(true);
    expect(take('alice', '10.0.4.1')).to.deep.equal({ allowed: false, retryAfterSeconds: 60 });
  });
});
