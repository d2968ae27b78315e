// What operators and load balancers ask: /livez, /readyz and /metrics, and the middleware that
// writes every other request to the access log and counts it in the metrics.
import { randomUUID } from 'node:crypto';
import Koa, { type Context, type Next } from 'koa';
import type Router from '@koa/router';
import type { Metrics } from '../http/metrics.js';
import type { Services } from '../http/services.js';
import { callerState } from '../http/auth-middleware.js';
import { scrubKeys } from '../auth/keys.js';
import { answerEscapedErrors, REQUEST_ID } from '../http/error-middleware.js';
import type { Logger } from '../log.js';
import { MONITORING_DATASET_ID, type ApiCall } from '../monitoring/dataset.js';
import { EXPLORE_DOWNLOAD_PATH } from './link-paths.js';

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
export function operationsApp(metrics: Metrics, ready: () => boolean, log: Logger): Koa {
  const app = new Koa();
  app.silent = true;
  answerEscapedErrors(app, log);
  app.use(operationsEndpoints(metrics, ready));
  return app;
}

/**
 * Once each answer is finished (or cut): one access log line, and the request counted under the
 * template of its route, never its raw path, so no dataset id, key or user name becomes a label.
 * A path under one of `filePrefixes` (the web bundle's, handed in by the server's app) counts as
 * `<prefix>:file`. Bytes are those the response put on its socket, headers included.
 */
export function observeRequests(
  services: Pick<Services, 'metrics' | 'log'> & Partial<Pick<Services, 'recordCall' | 'portal'>>,
  routers: readonly Router[],
  filePrefixes: readonly string[],
) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    (ctx.state as Record<typeof REQUEST_ID, string>)[REQUEST_ID] = requestId;
    ctx.set('X-Request-Id', requestId);
    const { socket } = ctx.res;
    const bytesBefore = socket?.bytesWritten ?? 0;
    try {
      await next();
    } finally {
      const route = routeTemplate(ctx, routers, filePrefixes);
      // One listener does it all: a streamed answer already has up to 10 on its response.
      ctx.res.once('close', () => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const bytes = (socket?.bytesWritten ?? 0) - bytesBefore;
        services.metrics.answered(route, ctx.method, ctx.status, seconds);
        const format = exportFormatOf(ctx);
        if (format) services.metrics.exported(format, bytes);
        if (services.recordCall && isApiCall(route)) {
          services.recordCall(apiCall(ctx, services, { route, seconds, bytes }));
        }
        services.log.info({
          msg: 'request',
          req_id: requestId,
          method: ctx.method,
          path: scrubKeys(ctx.originalUrl),
          status: ctx.status,
          ...(ctx.res.writableFinished ? {} : { cut: true }),
          bytes,
          duration_ms: Math.round(seconds * 1e5) / 100,
          client: ctx.ip,
          portal: services.metrics.portalLabel,
          ...keyIdOf(ctx),
          user_agent: ctx.get('user-agent'),
        });
      });
    }
  };
}

/** Routes whose calls the monitoring dataset keeps: the API's, and the pages' download links. */
const isApiCall = (route: string): boolean => route.startsWith('/api/') || route === EXPLORE_DOWNLOAD_PATH;

/**
 * A finished call as the monitoring dataset keeps it: its route's template, its caller's user
 * name (never a key), and the dataset it named when the portal serves one by that id.
 */
function apiCall(
  ctx: Context,
  services: Partial<Pick<Services, 'portal'>>,
  answer: { route: string; seconds: number; bytes: number },
): ApiCall {
  const params = (ctx as { params?: Record<string, string> }).params ?? {};
  const named = params.dataset_id ?? [ctx.query.dataset ?? []].flat().at(-1);
  const known =
    named !== undefined && (services.portal?.().datasets.has(named) || named === MONITORING_DATASET_ID);
  return {
    timestamp: new Date().toISOString(),
    dataset_id: known ? named : null,
    endpoint: answer.route,
    method: ctx.method,
    status: ctx.status,
    user_id: callerState(ctx).owner?.user ?? 'anonymous',
    size_res: answer.bytes,
    exec_time: Math.round(answer.seconds * 1e5) / 100,
    request_aborted: !ctx.res.writableFinished,
  };
}

function keyIdOf(ctx: Context): { key_id?: string } {
  const { keyId } = callerState(ctx).caller;
  return keyId === null ? {} : { key_id: keyId };
}

/**
 * Marks the answer as an export in `format`, whose bytes on the socket (headers and gzip
 * included) count in duckportal_export_bytes_total. Counted on the socket, not by a stream in
 * between: the pipe reader reuses its buffers as soon as the next stream's write callback fires
 * (src/engine/duckdb/copy-stream.ts), which a pass-through calls before the bytes are sent.
 */
export function markExport(ctx: Context, format: string): void {
  (ctx.state as { exportFormat?: string }).exportFormat = format;
}

function exportFormatOf(ctx: Context): string | undefined {
  return (ctx.state as { exportFormat?: string }).exportFormat;
}

/** The template of the route that answered, else of the route the path would match, else 'unmatched'. */
function routeTemplate(ctx: Context, routers: readonly Router[], filePrefixes: readonly string[]): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  const prefix = filePrefixes.find((candidate) => ctx.path.startsWith(candidate));
  if (prefix !== undefined) return `${prefix}:file`;
  for (const router of routers) {
    const route = router.match(ctx.path, ctx.method).pathAndMethod.find((layer) => layer.methods.length > 0);
    if (route && typeof route.path === 'string') return route.path;
  }
  return UNMATCHED_ROUTE;
}
