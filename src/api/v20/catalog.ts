// v2.0 catalog operations: the dataset list `{total_count, links, datasets: [{links, dataset}]}` and
// the dataset lookup `{links, dataset}` (supplement 7), answered by the v2.1 catalog code.
import type Router from '@koa/router';
import { parseParams } from '../params.js';
import { GROUPS_WINDOW, pageOf, RECORDS_WINDOW } from '../query-context.js';
import type { Services } from '../../http/services.js';
import {
  catalogListPage,
  catalogListParams,
  datasetLookup,
  datasetLookupParams,
} from '../v2/catalog-routes.js';
import { datasetLinks, pageLinks } from './links.js';

/** Mounts the v2.0 dataset list and lookup on a router rooted at a v2.0 prefix. */
export function v20CatalogRoutes(router: Router, services: Services): void {
  router.get('/catalog/datasets', async (ctx) => {
    const params = parseParams(catalogListParams, ctx.query);
    const page = await catalogListPage(services, ctx, params);
    const grouped = params.group_by !== undefined;
    ctx.body = {
      total_count: page.total_count,
      links: pageLinks(
        ctx,
        pageOf(params, grouped),
        page.total_count,
        grouped ? GROUPS_WINDOW : RECORDS_WINDOW,
      ),
      datasets: page.entries.map(({ id, value }) => ({
        links: id === null ? [] : datasetLinks(ctx, id),
        dataset: value,
      })),
    };
  });

  router.get('/catalog/datasets/:dataset_id', async (ctx) => {
    const params = parseParams(datasetLookupParams, ctx.query);
    const dataset = await datasetLookup(services, ctx, params);
    ctx.body = { links: datasetLinks(ctx, ctx.params.dataset_id!), dataset };
  });
}
