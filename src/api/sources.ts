// The sources of the v2 API beside `catalog`, as the official JS client names them
// (`fromMonitoring()`, `fromDataNetwork()`): `/monitoring/...` serves the portal's API calls as the
// dataset ods-api-monitoring (restricted to the admin group, like any restricted dataset), and
// `/opendatasoft/...` the data network, which a portal of its own belongs to none of: an empty
// catalog, not a 404. Each is answered, under v2.1's path and v2.0's two, by that generation's
// handlers over the source's own datasets and catalog, never cached (the calls change by the
// second). `/<source>/` alone lists its links.
import type { Context, Next } from 'koa';
import type Router from '@koa/router';
import { ApiError } from '../http/errors.js';
import type { Services, SourceData } from '../http/services.js';
import { markSource } from '../http/services.js';
import { v21Router, V21_PREFIX } from './routers.js';
import { DEPRECATION_HEADER, V20_PREFIXES } from './v20/generation.js';
import { v20Routers } from './v20/index.js';

const SOURCE_PATH =
  /^(\/api\/explore\/v2\.1|\/api\/explore\/v2\.0|\/api\/v2)\/(catalog|monitoring|opendatasoft)(\/.*)?$/;

/** Each API path's handlers (v2.1's, v2.0's) over `source`'s datasets and catalog in place of the portal's. */
function routersOver(services: Services, source: SourceData): Map<string, Router> {
  // A source defines its own views (src/server/sources.ts): nothing of it is opened on demand.
  const over: Services = {
    ...services,
    portal: () => source.portal(),
    catalog: () => source.catalog(),
    openDataset: undefined,
  };
  const v20 = v20Routers(over);
  return new Map([[V21_PREFIX, v21Router(over)], ...V20_PREFIXES.map((p, i) => [p, v20[i]!] as const)]);
}

/** The links of a source's root, as v2's root of a source lists them (v2.0's with its aggregates). */
function sourceRoot(ctx: Context, prefix: string, name: string): Record<string, unknown> {
  const base = `${ctx.protocol}://${ctx.host}${prefix}/${name}`;
  const rels = ['datasets', 'exports', 'facets', ...(prefix === V21_PREFIX ? [] : ['aggregates'])];
  return { links: [{ rel: 'self', href: base }, ...rels.map((rel) => ({ rel, href: `${base}/${rel}` }))] };
}

/** Answers the roots of the sources and every path under `monitoring` and `opendatasoft`. */
export function otherSources(services: Services) {
  const empty = services.sources?.dataNetwork;
  const network = empty ? routersOver(services, empty) : null;
  const monitoring = services.sources?.monitoring
    ? routersOver(services, services.sources.monitoring)
    : network;
  return async (ctx: Context, next: Next): Promise<void> => {
    const match = SOURCE_PATH.exec(ctx.path);
    if (!match || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      await next();
      return;
    }
    const [, prefix, name, rest = ''] = match as unknown as [string, string, string, string | undefined];
    // The catalog is the portal's own: its routers answer it, and v2.0's its root too.
    if (name === 'catalog' && (rest !== '' || prefix !== V21_PREFIX)) {
      await next();
      return;
    }
    if (prefix !== V21_PREFIX)
      ctx.set(DEPRECATION_HEADER, `${prefix} is deprecated: use ${V21_PREFIX}/${name}${rest}`);
    if (rest === '') {
      ctx.body = sourceRoot(ctx, prefix, name);
      return;
    }
    const router = (name === 'monitoring' ? monitoring : network)?.get(prefix);
    const unknown = `Unknown path: ${ctx.path}`;
    if (!router) throw new ApiError(404, 'NotFoundResource', unknown);
    ctx.set('Cache-Control', 'no-store');
    markSource(ctx, name);
    ctx.path = `${prefix}/catalog${rest}`;
    await router.routes()(ctx as never, () => {
      throw new ApiError(404, 'NotFoundResource', unknown);
    });
    // The access log, the metrics and the monitoring dataset name the source's own route.
    const state = ctx as { _matchedRoute?: unknown };
    if (typeof state._matchedRoute === 'string') {
      state._matchedRoute = state._matchedRoute.replace(`${prefix}/catalog`, `${prefix}/${name}`);
    }
  };
}
