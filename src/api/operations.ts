// What operators and load balancers ask: /livez, /readyz and /metrics, and the middleware that
// counts every other request in the metrics under its route template.
import Koa, { type Context, type Next } from 'koa';
import type Router from '@koa/router';
import type { Metrics } from './metrics.js';
import { ASSETS_PREFIX } from '../web/assets.js';

/** The route label of requests that match no route. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Answers GET /livez (200 while the process runs), /readyz (200, or 503 while not ready) and /metrics. */
export function operationsEndpoints(metrics: Metrics, ready: () => boolean) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      await next();
      return;
    }
    switch (ctx.path) {
      case '/livez':
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { status: 'alive' };
        return;
      case '/readyz': {
        const isReady = ready();
        ctx.set('Cache-Control', 'no-store');
        ctx.status = isReady ? 200 : 503;
        ctx.body = { status: isReady ? 'ready' : 'draining' };
        return;
      }
      case '/metrics':
        ctx.set('Cache-Control', 'no-store');
        ctx.type = metrics.registry.contentType;
        ctx.body = await metrics.registry.metrics();
        return;
      default:
        await next();
    }
  };
}

/** An application of the three endpoints alone, for `--metrics-port`. */
export function operationsApp(metrics: Metrics, ready: () => boolean): Koa {
  const app = new Koa();
  app.silent = true;
  app.use(operationsEndpoints(metrics, ready));
  return app;
}

/**
 * Counts each request once its answer is finished (or cut), labelled with the route template
 * that served it: never the raw path, so no dataset id, key or user name becomes a label.
 */
export function requestMetrics(metrics: Metrics, routers: readonly Router[]) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = process.hrtime.bigint();
    const { socket } = ctx.res;
    const bytesBefore = socket?.bytesWritten ?? 0;
    try {
      await next();
    } finally {
      const route = routeTemplate(ctx, routers);
      const { method } = ctx;
      // One listener does it all: a streamed answer already has up to 10 on its response.
      ctx.res.once('close', () => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        metrics.answered(route, method, ctx.status, seconds);
        const format = exportFormatOf(ctx);
        if (format) metrics.exported(format, (socket?.bytesWritten ?? 0) - bytesBefore);
      });
    }
  };
}

/**
 * Marks the answer as an export in `format`, whose bytes on the socket (headers and gzip
 * included) count in duckportal_export_bytes_total. Counted on the socket, not by a stream in
 * between: the pipe reader reuses its buffers as soon as the next stream's write callback fires
 * (src/exports/copy-stream.ts), which a pass-through calls before the bytes are sent.
 */
export function markExport(ctx: Context, format: string): void {
  (ctx.state as { exportFormat?: string }).exportFormat = format;
}

function exportFormatOf(ctx: Context): string | undefined {
  return (ctx.state as { exportFormat?: string }).exportFormat;
}

/** The template of the route that answered, else of the route the path would match, else 'unmatched'. */
function routeTemplate(ctx: Context, routers: readonly Router[]): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  if (ctx.path.startsWith(ASSETS_PREFIX)) return `${ASSETS_PREFIX}:file`;
  for (const router of routers) {
    const route = router.match(ctx.path, ctx.method).pathAndMethod.find((layer) => layer.methods.length > 0);
    if (route && typeof route.path === 'string') return route.path;
  }
  return UNMATCHED_ROUTE;
}
