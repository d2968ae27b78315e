// The API's routers: v2.1 (catalog, records, facets, exports), v1, the OpenAPI document and v2.0, which
// the server's app (src/server/app.ts) mounts below the web pages.
import Router from '@koa/router';
import type { Services } from '../http/services.js';
import { catalogRoutes } from './v2/catalog-routes.js';
import { recordsRoutes } from './v2/records-routes.js';
import { facetRoutes } from './v2/facet-routes.js';
import { exportRoutes } from './v2/export-routes.js';
import { openApiDocument } from './openapi.js';
import { v1Router } from './v1/index.js';
import { v20Routers } from './v20/index.js';
import { exploreDownloadRouter } from './explore-download.js';

/** The path prefix of the v2.1 API. */
export const V21_PREFIX = '/api/explore/v2.1';

/** The router of every v2.1 operation (exported so tests and the OpenAPI document can list its routes). */
export function v21Router(services: Services): Router {
  const router = new Router({ prefix: V21_PREFIX });
  catalogRoutes(router, services);
  recordsRoutes(router, services);
  facetRoutes(router, services);
  exportRoutes(router, services);
  return router;
}

/** Every router of the app, the OpenAPI document's own route and the pages' download links included. */
export function appRouters(services: Services): Router[] {
  const docs = new Router({ prefix: V21_PREFIX });
  const routers = [v21Router(services), v1Router(services), exploreDownloadRouter(services), docs];
  let document: Record<string, unknown> | null = null;
  docs.get('/swagger.json', (ctx) => {
    document ??= openApiDocument(routers);
    ctx.body = document;
  });
  return routers;
}

/** Every router the app serves: appRouters, and v2.0's apart (the OpenAPI document describes v2.1 and v1). */
export function servedRouters(services: Services): Router[] {
  return [...appRouters(services), ...v20Routers(services)];
}
