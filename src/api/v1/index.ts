// The v1 router (supplement 6): dataset search and lookup, record search, lookup and download,
// with v1's own error object `{errorcode, error}` carrying the status of the v2.1 equivalent.
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { toErrorBody } from '../errors.js';
import type { Services } from '../services.js';
import { v1DatasetsRoutes } from './datasets-v1.js';
import { v1DownloadRoutes } from './download-v1.js';
import { v1RecordsRoutes } from './records-v1.js';

export const V1_PREFIX = '/api';

/** Errors of v1 operations in the v1 form; headers (Retry-After, Allow) are kept. */
async function v1Errors(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (error) {
    if (ctx.headerSent) throw error;
    const { status, body, headers } = toErrorBody(error);
    // Internal errors go up to the error middleware, which logs them (their text never leaves the server).
    if (status === 500) throw error;
    if (headers) ctx.set(headers);
    ctx.status = status;
    ctx.body = { errorcode: status, error: body.message };
  }
}

/** The router of every v1 operation (exported so tests and the OpenAPI document can list its routes). */
export function v1Router(services: Services): Router {
  const router = new Router({ prefix: V1_PREFIX });
  router.use(v1Errors);
  v1DatasetsRoutes(router, services);
  v1RecordsRoutes(router, services);
  v1DownloadRoutes(router, services);
  return router;
}
