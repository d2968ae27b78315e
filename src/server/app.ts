// The Koa application: runs of slashes folded, CORS, one error middleware and compression on top,
// the web pages and their bundle, trailing slashes folded, HTTP caching, GET only, the routers
// (v2.1, v2.0, v1, the OpenAPI document, the pages' download links).
import Koa from 'koa';
import { servedRouters } from '../api/routers.js';
import { otherSources } from '../api/sources.js';
import { ApiError } from '../http/errors.js';
import { answerEscapedErrors, errorMiddleware } from '../http/error-middleware.js';
import { openRequestDataset } from '../http/open-dataset.js';
import type { Services } from '../http/services.js';
import { authenticate, rateLimit, refuseUnauthenticated } from '../http/auth-middleware.js';
import { cors } from '../http/cors.js';
import { hostGuard, requestGuards } from '../api/request-guards.js';
import { assets, ASSETS_PREFIX } from '../web/assets.js';
import { pageErrors, pagesRouter } from '../web/pages.js';
import { accountRouter } from '../web/account-routes.js';
import { publishRouter } from '../web/publish-routes.js';
import { compression } from '../http/compression.js';
import { httpCaching, noStoreOnError } from '../http/http-caching.js';
import { admitToEngine } from '../api/admission.js';
import { observeRequests } from '../api/operations.js';
import type { Logger } from '../log.js';
import type { PortalMetrics } from '../http/metrics.js';

/** How the app is deployed. */
export interface AppOptions {
  /**
   * Behind a reverse proxy (`--trust-proxy`): the last X-Forwarded-For address (the one the
   * proxy appended) is the client's, X-Forwarded-Proto and -Host make the links.
   */
  readonly trustProxy: boolean;
}

/** The portal label under which requests for a Host of no portal are logged and counted. */
export const UNKNOWN_HOST_LABEL = '(unknown host)';

/**
 * The answer to a Host that names none of the server's portals: 404 in the error object of the
 * path's API generation, whatever the path (web pages too), so that no portal's data shows;
 * logged and counted like any answer, under the portal label UNKNOWN_HOST_LABEL.
 */
export function unknownHostApp(log: Logger, metrics: PortalMetrics): Koa {
  const app = new Koa();
  app.silent = true;
  answerEscapedErrors(app, log);
  app.use(observeRequests({ log, metrics }, [], [ASSETS_PREFIX]));
  app.use(cors());
  app.use(noStoreOnError());
  app.use(errorMiddleware(log));
  app.use(hostGuard());
  app.use(() => {
    throw new ApiError(404, 'NotFoundResource', 'No portal of this server answers this host name.');
  });
  return app;
}

/**
 * `//api/...` (a base URL ending in a slash, joined to a path starting with one) answers as
 * `/api/...`: every run of slashes in the path is one, as nginx's merge_slashes reads it in front
 * of the public service; no redirect, so a client that does not follow them works too.
 */
async function foldSlashes(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  if (ctx.path.includes('//')) ctx.path = ctx.path.replace(/\/{2,}/g, '/');
  await next();
}

/** Builds the application of one portal over the given services. */
export function createApp(services: Services, options: AppOptions): Koa {
  const app = new Koa();
  app.proxy = options.trustProxy;
  app.maxIpsCount = 1;
  app.silent = true;
  answerEscapedErrors(app, services.log);
  const account = accountRouter(services);
  const publish = publishRouter(services);
  const pages = pagesRouter(services);
  const routers = servedRouters(services);
  app.use(foldSlashes);
  app.use(observeRequests(services, [account, publish, pages, ...routers], [ASSETS_PREFIX]));
  app.use(cors());
  app.use(noStoreOnError());
  app.use(errorMiddleware(services.log));
  app.use(hostGuard());
  // Below the errors: its 406 is an error answer like any other (error bodies go uncompressed).
  app.use(compression());
  app.use(assets());
  app.use(authenticate(services.guard, () => services.portal().settings.private));
  // The account page and its Datasets tab (their forms are the only POST routes), then the pages: they know their caller
  // but are not API calls: no quota, and HTML errors (src/web/pages.ts).
  app.use(account.routes());
  app.use(publish.routes());
  app.use(pageErrors(services));
  app.use(pages.routes());
  app.use(
    rateLimit(
      () => services.guard.quotas(),
      (kind) => services.metrics.refused(kind),
    ),
  );
  app.use(refuseUnauthenticated());
  app.use(requestGuards());
  app.use(async (ctx, next) => {
    // The official client always adds a trailing slash; paths are matched without it.
    if (ctx.path.length > 1 && ctx.path.endsWith('/')) ctx.path = ctx.path.replace(/\/+$/, '');
    await next();
  });
  // Before the cache: the monitoring calls change by the second, and are an admin's alone.
  app.use(otherSources(services));
  app.use(httpCaching(services));
  // After the cache: an answer kept, or a 304, costs the engine nothing and is never refused.
  app.use(admitToEngine(services.engine));
  app.use(openRequestDataset(services));
  for (const router of routers) app.use(router.routes());
  app.use(async (ctx, next) => {
    await next();
    if (
      ctx.method !== 'GET' &&
      ctx.method !== 'HEAD' &&
      ctx.status === 404 &&
      routers.some((router) => router.match(ctx.path, 'GET').route)
    ) {
      throw new ApiError(
        405,
        'MethodNotAllowed',
        `Method ${ctx.method} is not allowed: the API is read-only (GET).`,
        {
          Allow: 'GET, HEAD',
        },
      );
    }
  });
  return app;
}
