// The v1 router (supplement 6): dataset search and lookup, record search, lookup and download.
// Their errors, like those of any path under the v1 prefixes, are v1's `{errorcode, error}`,
// written by the error middleware (src/http/error-middleware.ts).
import Router from '@koa/router';
import type { Services } from '../../http/services.js';
import { v1DatasetsRoutes } from './datasets-v1.js';
import { v1DownloadRoutes } from './download-v1.js';
import { v1RecordsRoutes } from './records-v1.js';

export const V1_PREFIX = '/api';

/** The router of every v1 operation (exported so tests and the OpenAPI document can list its routes). */
export function v1Router(services: Services): Router {
  const router = new Router({ prefix: V1_PREFIX });
  v1DatasetsRoutes(router, services);
  v1RecordsRoutes(router, services);
  v1DownloadRoutes(router, services);
  return router;
}
