// HTTP caching of the API's answers (docs/http-caching.md): a strong ETag over the data version,
// the canonical request and the caller's audience; If-None-Match answered with 304 before any
// query runs; Last-Modified, Cache-Control and Vary; JSON answers kept in the response cache.
import { Stream } from 'node:stream';
import type { Context, Next } from 'koa';
import type { Dataset, Portal } from '../catalog/portal.js';
import { datasetAccess } from '../auth/access.js';
import { callerState } from './auth-middleware.js';
import { entityTag, matchIfNoneMatch, type DataVersion } from './etag.js';
import type { CachedAnswer } from './response-cache.js';
import type { Services } from './services.js';

/** The content codings the compression middleware may add to a tag (src/http/compression.ts). */
export const TAG_ENCODINGS = ['gzip', 'br'] as const;

/** Paths whose answer is about one dataset (v2.1, v2.0, v1); the others read the catalog. */
const DATASET_PATHS = [
  /^\/api\/(?:explore\/v2\.[01]|v2)\/catalog\/datasets\/([^/]+)(?:\/|$)/,
  /^\/api\/datasets\/1\.0\/([^/]+)(?:\/|$)/,
];
const V1_RECORD_PATHS = /^\/api\/records\/1\.0\/(?:search|download)$/;

/** The dataset id a request's answer depends on, or null when it depends on the whole catalog. */
export function scopeOf(ctx: Context): string | null {
  if (V1_RECORD_PATHS.test(ctx.path)) return typeof ctx.query.dataset === 'string' ? ctx.query.dataset : null;
  for (const pattern of DATASET_PATHS) {
    const match = pattern.exec(ctx.path);
    if (match && match[1] !== 'search') {
      try {
        return decodeURIComponent(match[1]!);
      } catch {
        return null;
      }
    }
  }
  return null;
}

/**
 * The request as it shapes the answer: origin (links carry it), path as sent (the API generation
 * depends on it) without trailing slashes, parameters sorted by name with the order of repeated
 * ones kept, the API key left out (the audience stands for it).
 */
function canonicalRequest(ctx: Context): string[] {
  const [pathname = ''] = ctx.originalUrl.split('?');
  const params = [...new URLSearchParams(ctx.querystring)]
    .filter(([name]) => name !== 'apikey')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [`${ctx.protocol}://${ctx.host}`, pathname.replace(/(.)\/+$/, '$1'), JSON.stringify(params)];
}

/**
 * Who the answer is for: anonymous, or the views the caller has of the datasets it reads (fields
 * hidden, row filter), so callers with the same rights share an answer and no one else does.
 */
function audienceOf(ctx: Context, portal: Portal, scope: string | null): string[] {
  const { owner } = callerState(ctx);
  if (owner === null) return ['anonymous'];
  // A dataset without audiences reads alike to every identified caller: only the others tell
  // audiences apart, and the index names them without the catalog being read whole per request.
  const everyDataset = (): Dataset[] =>
    portal.load ? portal.load.guarded.map((id) => portal.datasets.get(id)!) : [...portal.datasets.values()];
  const datasets = scope === null ? everyDataset() : [portal.datasets.get(scope)!];
  return [
    'identified',
    ...datasets.map((dataset) => {
      const access = datasetAccess(dataset, owner);
      return JSON.stringify([
        dataset.id,
        access.dataVisible,
        [...access.hiddenFields].sort(),
        access.rowFilter,
      ]);
    }),
  ];
}

/** The validators and cache policy of one request's answer. */
interface Validators {
  readonly tag: string;
  readonly version: DataVersion;
  readonly scope: string | null;
  readonly cacheControl: string;
}

function validatorsOf(ctx: Context, services: Services): Validators | null {
  const versions = services.http.versions();
  const scope = scopeOf(ctx);
  const version = scope === null ? versions.catalog : versions.datasets.get(scope);
  if (!version) return null;
  const portal = services.portal();
  // Shared caches may keep only what every anonymous caller gets alike: not a key's or a session's
  // answer, nor one about a restricted dataset (docs/access-control.md, Attachments and audiences).
  const restricted = scope !== null && portal.datasets.get(scope)?.file.visibility === 'restricted';
  const shared = callerState(ctx).owner === null && !portal.settings.private && !restricted;
  return {
    tag: entityTag(services.http.tagKey, [
      version.tag,
      canonicalRequest(ctx),
      audienceOf(ctx, portal, scope),
    ]),
    version,
    scope,
    cacheControl: shared ? `public, max-age=${services.http.maxAge}` : 'private, no-cache',
  };
}

/** The strong tag and date of the request's answer (set by httpCaching), or null when it has none. */
export function answerValidators(ctx: Context): { tag: string; modified: Date } | null {
  const validators = (ctx.state as { validators?: Validators }).validators;
  return validators ? { tag: validators.tag, modified: validators.version.modified } : null;
}

function setValidators(ctx: Context, validators: Validators): void {
  ctx.set({
    ETag: validators.tag,
    'Last-Modified': validators.version.modified.toUTCString(),
    'Cache-Control': validators.cacheControl,
  });
  ctx.vary('Authorization');
  ctx.vary('Cookie');
}

/** The answer to keep: a 200 whose body is JSON (exports and attachments stream, and are not kept). */
function answerToKeep(ctx: Context, validators: Validators): CachedAnswer | null {
  const { body } = ctx;
  if (ctx.status !== 200 || body === null || typeof body !== 'object') return null;
  if (body instanceof Stream || Buffer.isBuffer(body)) return null;
  return {
    body: Buffer.from(JSON.stringify(body)),
    type: ctx.response.get('Content-Type') || 'application/json; charset=utf-8',
    scope: validators.scope,
    version: validators.version.tag,
  };
}

function sendAnswer(ctx: Context, answer: CachedAnswer): void {
  ctx.status = 200;
  ctx.body = answer.body;
  ctx.type = answer.type;
}

/** Runs the route once for all concurrent requests with the same tag, and keeps its JSON answer. */
async function answerThroughCache(ctx: Context, next: Next, services: Services, validators: Validators) {
  const { responses } = services.http;
  if (responses.maxBytes === 0) {
    // The cache is off, its single flight too: every request does its own work.
    await next();
    return;
  }
  const cached = responses.get(validators.tag) ?? (await responses.inFlight(validators.tag));
  services.metrics.cacheLookup(cached ? 'hit' : 'miss');
  if (cached) return sendAnswer(ctx, cached);
  const computation = next().then(() => answerToKeep(ctx, validators));
  responses.share(validators.tag, computation);
  const answer = await computation;
  if (answer) sendAnswer(ctx, answer);
}

/** The caching middleware of API GETs; mounted after authentication and path rewriting. */
export function httpCaching(services: Services) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const validators =
      (ctx.method === 'GET' || ctx.method === 'HEAD') && ctx.path.startsWith('/api/')
        ? validatorsOf(ctx, services)
        : null;
    if (!validators) {
      await next();
      return;
    }
    (ctx.state as { validators?: Validators }).validators = validators;
    const matched = matchIfNoneMatch(ctx.get('If-None-Match'), validators.tag, TAG_ENCODINGS);
    if (matched !== null) {
      // The tag the client holds (maybe an encoded one) is the one this 304 confirms.
      setValidators(ctx, { ...validators, tag: matched });
      ctx.status = 304;
      return;
    }
    await answerThroughCache(ctx, next, services, validators);
    // A 206 is part of the same representation: its validators are the whole answer's (If-Range).
    if (ctx.status === 200 || ctx.status === 206) setValidators(ctx, validators);
  };
}

/** Errors are never stored by a cache (a 503 or a 429 is about this moment only). */
export function noStoreOnError() {
  return async (ctx: Context, next: Next): Promise<void> => {
    await next();
    if (ctx.status >= 400) ctx.set('Cache-Control', 'no-store');
  };
}
