// Browser sessions of the account page: a cookie holding the session's id, user and expiry,
// signed with HMAC-SHA256 under a key derived from the portal's secret and domain
// (src/auth/portal-secret.ts: a portal copied with its secret does not take the original's
// sessions), and the CSRF token of the session's forms. A session without a user is a visitor's, made so
// that the sign-in form carries a token too (no cross-site sign-in into someone else's account).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { portalKey } from './portal-secret.js';

/** The session cookie's name. */
export const SESSION_COOKIE = 'duckportal_session';

/** How long a session lasts from sign-in. */
export const SESSION_MS = 12 * 3_600_000;

const payload = z.object({ id: z.string(), user: z.string().nullable(), expires: z.number() });

/** One browser session. */
export type Session = z.output<typeof payload>;

function sign(key: Buffer, text: string): Buffer {
  return createHmac('sha256', key).update(text).digest();
}

function equalText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Issues, reads and ends the sessions of one portal. */
export class Sessions {
  private readonly cookieKey: Buffer;
  private readonly csrfKey: Buffer;
  /** Sessions signed out before their expiry, until that expiry (a restart forgets them). */
  private readonly ended = new Map<string, number>();

  /** The sessions of the portal answering `domain`, whose secret is `secret`. */
  constructor(
    secret: Buffer,
    domain: string,
    private readonly now: () => number = Date.now,
  ) {
    this.cookieKey = portalKey(secret, domain, 'session cookie');
    this.csrfKey = portalKey(secret, domain, 'csrf token');
  }

  /** A new session (a new id, so signing in never keeps a visitor's id) and its cookie value. */
  start(user: string | null): { session: Session; cookie: string } {
    const session: Session = {
      id: randomBytes(18).toString('base64url'),
      user,
      expires: this.now() + SESSION_MS,
    };
    const text = Buffer.from(JSON.stringify(session)).toString('base64url');
    return { session, cookie: `${text}.${sign(this.cookieKey, text).toString('base64url')}` };
  }

  /** The session of a cookie value, or null when absent, forged, expired or signed out. */
  read(cookie: string | undefined): Session | null {
    const [text, signature, extra] = (cookie ?? '').split('.');
    if (!text || !signature || extra !== undefined) return null;
    if (!equalText(signature, sign(this.cookieKey, text).toString('base64url'))) return null;
    const parsed = payload.safeParse(safeJson(Buffer.from(text, 'base64url').toString('utf8')));
    if (!parsed.success || parsed.data.expires <= this.now() || this.ended.has(parsed.data.id)) return null;
    return parsed.data;
  }

  /** Signs a session out: its cookie is refused from now on, even if a copy of it is kept. */
  end(session: Session): void {
    const now = this.now();
    for (const [id, expires] of this.ended) if (expires <= now) this.ended.delete(id);
    this.ended.set(session.id, session.expires);
  }

  /** The CSRF token every form of the session carries. */
  csrfToken(session: Session): string {
    return sign(this.csrfKey, session.id).toString('base64url');
  }

  /** Whether a submitted form's token is the session's. */
  checkCsrf(session: Session | null, token: unknown): boolean {
    return session !== null && typeof token === 'string' && equalText(token, this.csrfToken(session));
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
