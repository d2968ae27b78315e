// Who is calling and how much they may call: API key (or signed-in session) authentication, the
// private portal rule, and the daily quotas with their X-RateLimit-* headers. Mounted before every route, in the
// order authenticate, rateLimit, refuseUnauthenticated: a refused call is counted and carries
// the headers like any other answer.
import type { Context, Next } from 'koa';
import { ApiError } from './errors.js';
import type { KeyOwner, KeyStore } from '../auth/keys.js';
import { presentedKey } from '../auth/keys.js';
import type { CallCounter, Caller, QuotaKind } from '../auth/quota.js';
import { SESSION_COOKIE, type Session, type Sessions } from '../auth/sessions.js';
import type { UserStore } from '../auth/users.js';

/** What tells who a caller is: their API key, or their session cookie and its user. */
export interface Identities {
  readonly keys: KeyStore;
  readonly users: UserStore;
  readonly sessions: Sessions;
}

/** What the middlewares leave on ctx.state for the routes. */
export interface CallerState {
  readonly owner: KeyOwner | null;
  /** The browser session of the cookie (signed in or not), whether or not a key was presented. */
  readonly session: Session | null;
  readonly caller: Caller;
  /** Why the call is refused (a bad key, a private portal), raised once it is counted; or null. */
  readonly refusal: ApiError | null;
}

/** The caller of a request (set by `authenticate`); anonymous when the middleware did not run. */
export function callerState(ctx: Context): CallerState {
  const state = (ctx.state as { auth?: CallerState }).auth;
  return state ?? { owner: null, session: null, caller: { keyId: null, ip: ctx.ip }, refusal: null };
}

/** Why a call without a valid key is refused, or null when it may go on. */
function refusalOf(presented: string | null, owner: KeyOwner | null, isPrivate: boolean): ApiError | null {
  if (presented !== null && owner === null) {
    return new ApiError(
      401,
      'InvalidAPIKey',
      'The API key is not valid: it is unknown, revoked or mistyped.',
    );
  }
  if (owner === null && isPrivate) {
    return new ApiError(401, 'AuthenticationRequired', 'This portal is private: an API key is required.', {
      'WWW-Authenticate': 'Apikey',
    });
  }
  return null;
}

/** The user signed in by a session, as long as they still exist (removing a user ends their sessions). */
function sessionOwner(identities: Identities, session: Session | null): KeyOwner | null {
  const user = session?.user == null ? null : identities.users.find(session.user);
  return user && { keyId: null, user: user.name, groups: user.groups };
}

/**
 * Reads the API key, else the session cookie (a key in the request wins): a key that is
 * presented but unknown or revoked will be a 401 (a silent fallback to anonymous would hide
 * the mistake), and so will a call to a private portal without either; until
 * `refuseUnauthenticated`, such a caller is counted as anonymous. A stale or forged cookie is
 * no identity, not an error: the browser keeps sending it after a restart or a sign-out.
 */
export function authenticate(identities: Identities, isPrivate: () => boolean) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const presented = presentedKey(ctx.get('authorization') || undefined, ctx.query);
    const session = identities.sessions.read(ctx.cookies.get(SESSION_COOKIE));
    const owner = presented === null ? sessionOwner(identities, session) : identities.keys.verify(presented);
    const state: CallerState = {
      owner,
      session,
      caller: { keyId: owner?.keyId ?? null, ip: ctx.ip },
      refusal: refusalOf(presented, owner, isPrivate()),
    };
    (ctx.state as { auth?: CallerState }).auth = state;
    await next();
  };
}

/** Raises the 401 that `authenticate` found, once `rateLimit` has counted the call. */
export function refuseUnauthenticated() {
  return async (ctx: Context, next: Next): Promise<void> => {
    const { refusal } = callerState(ctx);
    if (refusal) throw refusal;
    await next();
  };
}

/** Counts the call; sets the X-RateLimit-* headers on every answer; 429 once a quota is spent. */
export function rateLimit(quotas: () => CallCounter, refused: (kind: QuotaKind) => void) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const decision = await quotas().take(callerState(ctx).caller);
    const resetSeconds = Math.ceil((decision.resetAt.getTime() - Date.now()) / 1000);
    if (decision.limit !== null) {
      ctx.set({
        'X-RateLimit-Limit': String(decision.limit),
        'X-RateLimit-Remaining': String(decision.remaining),
        'X-RateLimit-Reset': String(Math.floor(decision.resetAt.getTime() / 1000)),
      });
    }
    if (decision.refusedBy) {
      refused(decision.refusedBy);
      ctx.status = 429;
      ctx.set('Retry-After', String(Math.max(resetSeconds, 1)));
      ctx.body = {
        errorcode: 10002,
        reset_time: decision.resetAt.toISOString(),
        limit_time_unit: 'day',
        call_limit: decision.limit,
        error: `Too many requests on the domain: the quota of ${decision.limit} calls per day is spent.`,
      };
      return;
    }
    await next();
  };
}
