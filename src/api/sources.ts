// The sources of the v2.1 API beside `catalog`, as the official JS client names them
// (`fromMonitoring()`, `fromDataNetwork()`): `/monitoring/...` serves the portal's API calls as the
// dataset ods-api-monitoring (restricted to the admin group, like any restricted dataset), and
// `/opendatasoft/...` the data network, which a portal of its own belongs to none of: an empty
// catalog, not a 404. Each is answered by the v2.1 handlers over the source's own datasets and
// catalog, never cached (the calls change by the second). `/<source>/` alone lists its links.
import type { Context, Next } from 'koa';
import type Router from '@koa/router';
import { ApiError } from '../http/errors.js';
import type { Services, SourceData } from '../http/services.js';
import { apiBase } from '../http/services.js';
import { v21Router, V21_PREFIX } from './routers.js';

const SOURCE_PATH = /^\/api\/explore\/v2\.1\/(catalog|monitoring|opendatasoft)(\/.*)?$/;

/** The v2.1 handlers over `source`'s datasets and catalog in place of the portal's. */
const routerOver = (services: Services, source: SourceData): Router =>
  v21Router({ ...services, portal: () => source.portal(), catalog: () => source.catalog() });

/** The links of a source's root, as v2's root of a source lists them. */
function sourceRoot(ctx: Context, name: string): Record<string, unknown> {
  const base = `${apiBase(ctx)}/${name}`;
  return {
    links: [
      { rel: 'self', href: base },
      { rel: 'datasets', href: `${base}/datasets` },
      { rel: 'exports', href: `${base}/exports` },
      { rel: 'facets', href: `${base}/facets` },
    ],
  };
}

/** Answers the roots of the sources and every path under `monitoring` and `opendatasoft`. */
export function otherSources(services: Services) {
  const empty = services.sources?.dataNetwork;
  const network = empty ? routerOver(services, empty) : null;
  const monitoring = services.sources?.monitoring
    ? routerOver(services, services.sources.monitoring)
    : network;
  return async (ctx: Context, next: Next): Promise<void> => {
    const match = SOURCE_PATH.exec(ctx.path);
    if (!match || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      await next();
      return;
    }
    const [, name, rest = ''] = match as unknown as [string, string, string | undefined];
    if (rest === '') {
      ctx.body = sourceRoot(ctx, name);
      return;
    }
    if (name === 'catalog') {
      await next();
      return;
    }
    const router = name === 'monitoring' ? monitoring : network;
    const unknown = `Unknown path: ${ctx.path}`;
    if (!router) throw new ApiError(404, 'NotFoundResource', unknown);
    ctx.set('Cache-Control', 'no-store');
    ctx.path = `${V21_PREFIX}/catalog${rest}`;
    await router.routes()(ctx as never, () => {
      throw new ApiError(404, 'NotFoundResource', unknown);
    });
    // The access log, the metrics and the monitoring dataset name the source's own route.
    const state = ctx as { _matchedRoute?: unknown };
    if (typeof state._matchedRoute === 'string') {
      state._matchedRoute = state._matchedRoute.replace(`${V21_PREFIX}/catalog`, `${V21_PREFIX}/${name}`);
    }
  };
}
