// Explore API v2.0 (supplement 7; explore-api.md Versioning 3), served under both of its paths:
// its own shapes for records, the catalog and aggregates (records.ts, catalog.ts, aggregates.ts),
// and the v2.1 handlers for facets, exports and attachments, whose answers v2.0 shares. Every
// request is marked as v2.0 first (generation.ts): links are written under the path it came by,
// rows whose group key is null form no group, GPX keeps attributes in the description element.
import Router from '@koa/router';
import { ApiError } from '../../http/errors.js';
import { sentPath, type Services } from '../../http/services.js';
import { attachmentRoutes, exportListRoutes } from '../v2/catalog-routes.js';
import { exportRoutes } from '../v2/export-routes.js';
import { facetRoutes } from '../v2/facet-routes.js';
import { v20AggregatesRoutes } from './aggregates.js';
import { v20CatalogRoutes } from './catalog.js';
import { DEPRECATION_HEADER, markV20, V20_PREFIXES, V21_PREFIX, type V20Prefix } from './generation.js';
import { link } from './links.js';
import { v20RecordsRoutes } from './records.js';

/** The entry points of v2.0 (its `/` and `/catalog` operations): links to what they hold. */
function entryRoutes(router: Router, prefix: V20Prefix): void {
  const base = (ctx: { protocol: string; host: string }) => `${ctx.protocol}://${ctx.host}${prefix}`;
  router.get('/', (ctx) => {
    ctx.body = { links: [link('catalog', `${base(ctx)}/catalog`)] };
  });
  router.get('/catalog', (ctx) => {
    const catalog = `${base(ctx)}/catalog`;
    ctx.body = {
      links: ['datasets', 'exports', 'facets', 'aggregates'].map((rel) => link(rel, `${catalog}/${rel}`)),
    };
  });
}

/** v2.0's `query` operations are gone from the public service too: 410 naming what answers instead. */
function goneRoutes(router: Router): void {
  router.get(['/catalog/query', '/catalog/datasets/:dataset_id/query'], (ctx) => {
    const records =
      ctx.params.dataset_id === undefined ? 'catalog/datasets' : 'catalog/datasets/<id>/records';
    throw new ApiError(
      410,
      'GoneOperation',
      `The query operation of Explore API v2.0 was removed: use ${records} with select and where.`,
    );
  });
}

/** The router of one v2.0 prefix. */
function v20Router(services: Services, prefix: V20Prefix): Router {
  const router = new Router({ prefix });
  router.use(async (ctx, next) => {
    markV20(ctx, prefix);
    ctx.set(
      DEPRECATION_HEADER,
      `${prefix} is deprecated: use ${V21_PREFIX}${sentPath(ctx).slice(prefix.length)}`,
    );
    await next();
  });
  entryRoutes(router, prefix);
  v20CatalogRoutes(router, services);
  v20RecordsRoutes(router, services);
  v20AggregatesRoutes(router, services);
  goneRoutes(router);
  attachmentRoutes(router, services);
  exportListRoutes(router, services);
  facetRoutes(router, services);
  exportRoutes(router, services);
  return router;
}

/** The routers of v2.0, one per path it is served under (exported so tests can list their routes). */
export function v20Routers(services: Services): Router[] {
  return V20_PREFIXES.map((prefix) => v20Router(services, prefix));
}
