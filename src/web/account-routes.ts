// The account page's routes: GET /account/ (the sign-in form, or the user's API keys) and the
// POST routes of its forms, the only POST routes of the server. Each form carries its session's
// CSRF token; sign-in tries are limited per user name and address, per address and for the
// process (src/auth/sign-in-limit.ts); a wrong user name and a wrong password get the same answer
// after the same work.
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { Context } from 'koa';
import { z } from 'zod';
import type { Services } from '../http/services.js';
import { callerState } from '../http/auth-middleware.js';
import { SESSION_COOKIE, SESSION_MS, type Session } from '../auth/sessions.js';
import { keyLabelProblem } from '../auth/keys.js';
import { isAdmin, type PortalUser } from '../auth/users.js';
import { EXPIRED } from './publish-upload.js';
import { ACCOUNT_PATHS, keysMain, signInMain, type KeysNotice } from './account-page.js';
import { answerPage } from './pages.js';

/** Active keys a user may hold through the account page (each creation rewrites keys.json). */
export const MAX_ACTIVE_KEYS = 20;

const parseForm = bodyParser({ enableTypes: ['form'], formLimit: '16kb' });
/** The publish form holds a description of up to 20,000 characters. */
const parseLargeForm = bodyParser({ enableTypes: ['form'], formLimit: '128kb' });

/** A posted form's fields as parsed (a repeated field is a list), in a null-prototype object. */
export async function postedBody(ctx: Context, large = false): Promise<Record<string, unknown>> {
  try {
    await (large ? parseLargeForm : parseForm)(ctx, () => Promise.resolve());
  } catch {
    // Too large or malformed: an empty form, which no CSRF check passes.
    return Object.create(null) as Record<string, unknown>;
  }
  const body = z.record(z.string(), z.unknown()).safeParse(ctx.request.body);
  return Object.assign(Object.create(null) as Record<string, unknown>, body.success ? body.data : {});
}

/** The fields of a posted form as strings (a repeated or missing field is the empty string). */
async function postedForm(ctx: Context): Promise<Record<string, string>> {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(await postedBody(ctx))) {
    if (typeof value === 'string') fields[name] = value;
  }
  return fields;
}

/** Where to go once signed in: a path of this site only (never `//host` or a full URL). */
function safeNext(next: string | undefined): string | null {
  return next !== undefined && /^\/(?![/\\])[^\s\\]{0,2000}$/.test(next) ? next : null;
}

function setSessionCookie(ctx: Context, cookie: string): void {
  ctx.cookies.set(SESSION_COOKIE, cookie, {
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.secure,
    signed: false,
    path: '/',
    maxAge: SESSION_MS,
    overwrite: true,
  });
}

/** The request's session, or a new visitor's (its cookie set), so that every form has a token. */
export function sessionOf(ctx: Context, services: Services): Session {
  const current = callerState(ctx).session;
  if (current) return current;
  const { session, cookie } = services.guard.sessions.start(null);
  setSessionCookie(ctx, cookie);
  return session;
}

/** The user signed in by the request's session cookie (an API key does not sign in a page). */
export function signedInUser(ctx: Context, services: Services): PortalUser | null {
  const user = callerState(ctx).session?.user;
  return user == null ? null : services.guard.users.find(user);
}

/** Answers an account page: never cached, never framed. */
export function account(ctx: Context, services: Services, status: number, title: string, main: string): void {
  answerPage(ctx, services, status, { title, section: 'account', entry: null, main });
  // The page can hold a new key: never kept by a cache. Its forms sign in, create and revoke
  // keys: never shown in another site's frame, where a click could be stolen (clickjacking).
  ctx.set({
    'Cache-Control': 'no-store',
    'X-Frame-Options': 'DENY',
    'Content-Security-Policy': "frame-ancestors 'none'",
  });
}

function signInPage(
  ctx: Context,
  services: Services,
  status: number,
  next: string | null,
  message: string | null,
) {
  const csrf = services.guard.sessions.csrfToken(sessionOf(ctx, services));
  account(ctx, services, status, 'Sign in', signInMain(csrf, next, message));
}

function keysPage(ctx: Context, services: Services, user: PortalUser, status: number, notice?: KeysNotice) {
  const { keys, sessions } = services.guard;
  const own = keys.list().filter((key) => key.user === user.name);
  const csrf = sessions.csrfToken(sessionOf(ctx, services));
  const datasetsTab = services.publishing !== undefined && isAdmin(user);
  account(ctx, services, status, 'Account', keysMain(user, own, keys.lastUses(), csrf, notice, datasetsTab));
}

async function signIn(ctx: Context, services: Services): Promise<void> {
  const { sessions, signIns, users } = services.guard;
  const form = await postedForm(ctx);
  const next = safeNext(form.next);
  const session = callerState(ctx).session;
  if (!sessions.checkCsrf(session, form._csrf)) return signInPage(ctx, services, 403, next, EXPIRED);
  const name = form.username ?? '';
  const decision = signIns.take(name, callerState(ctx).caller);
  if (!decision.allowed) {
    ctx.set('Retry-After', String(decision.retryAfterSeconds));
    const wait = `Too many sign-in attempts: wait ${decision.retryAfterSeconds} s before trying again.`;
    return signInPage(ctx, services, 429, next, wait);
  }
  const user = await users.verify(name, form.password ?? '');
  if (!user) return signInPage(ctx, services, 401, next, 'The user name or the password is not correct.');
  sessions.end(session!);
  setSessionCookie(ctx, sessions.start(user.name).cookie);
  ctx.status = 303;
  ctx.redirect(next ?? ACCOUNT_PATHS.page);
}

async function signOut(ctx: Context, services: Services): Promise<void> {
  const form = await postedForm(ctx);
  const session = callerState(ctx).session;
  if (session && services.guard.sessions.checkCsrf(session, form._csrf)) {
    services.guard.sessions.end(session);
    ctx.cookies.set(SESSION_COOKIE, null, { path: '/' });
  }
  ctx.status = 303;
  ctx.redirect(ACCOUNT_PATHS.page);
}

/** Runs `act` for the signed-in user of a form with a valid token; else back to the account page. */
async function userForm(
  ctx: Context,
  services: Services,
  act: (user: PortalUser, form: Record<string, string>) => void,
): Promise<void> {
  const form = await postedForm(ctx);
  const user = signedInUser(ctx, services);
  if (!user) {
    ctx.status = 303;
    return ctx.redirect(ACCOUNT_PATHS.page);
  }
  if (!services.guard.sessions.checkCsrf(callerState(ctx).session, form._csrf)) {
    return keysPage(ctx, services, user, 403, { message: EXPIRED });
  }
  act(user, form);
}

/** The account page's router. */
export function accountRouter(services: Services): Router {
  const router = new Router();
  router.get(['/account', '/account/'], (ctx) => {
    const user = signedInUser(ctx, services);
    if (user) return keysPage(ctx, services, user, 200);
    const next = typeof ctx.query.next === 'string' ? safeNext(ctx.query.next) : null;
    signInPage(ctx, services, 200, next, null);
  });
  router.post(ACCOUNT_PATHS.signIn, (ctx) => signIn(ctx, services));
  router.post(ACCOUNT_PATHS.signOut, (ctx) => signOut(ctx, services));
  router.post(ACCOUNT_PATHS.createKey, (ctx) =>
    userForm(ctx, services, (user, form) => {
      const { keys } = services.guard;
      const active = keys.list().filter((key) => key.user === user.name && key.revoked === null);
      if (active.length >= MAX_ACTIVE_KEYS) {
        const message = `You have ${active.length} active API keys, the most allowed: revoke one first.`;
        return keysPage(ctx, services, user, 409, { message });
      }
      const label = (form.label ?? '').trim();
      const problem = keyLabelProblem(label);
      if (problem) return keysPage(ctx, services, user, 400, { message: problem, label });
      const { key } = keys.create(user.name, user.groups, { label });
      keysPage(ctx, services, user, 201, { newKey: key });
    }),
  );
  router.post('/account/keys/:id/revoke', (ctx) =>
    userForm(ctx, services, (user) => {
      const id = (ctx.params as { id: string }).id;
      const { keys } = services.guard;
      const own = keys.list().find((key) => key.id === id && key.user === user.name);
      if (!own) return keysPage(ctx, services, user, 404, { message: `You have no API key ${id}.` });
      keys.revoke(own.id);
      ctx.status = 303;
      ctx.redirect(ACCOUNT_PATHS.page);
    }),
  );
  return router;
}
