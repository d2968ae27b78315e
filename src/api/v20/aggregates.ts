// v2.0's aggregates operations, of one dataset's records and of the catalog: `select` (aggregations
// and group keys), `where`, `group_by`, `order_by`, `limit`, refine/exclude, answered as
// `{aggregations: [...], links}` (supplement 7) by the v2.1 query path. v2.1 merged them into the
// record query; here they stay an operation of their own, where a plain field of select must be a
// group key.
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { QuerySource } from '../../odsql/source.js';
import type { Engine } from '../../engine/engine.js';
import { compileQuery, QueryLangError } from '../../odsql/index.js';
import { integer, parseParams } from '../params.js';
import { filterParams, PAGE_LIMIT, runPagedQuery, toQueryParams } from '../query-context.js';
import { requireDataSource, signalOf, type Services } from '../../http/services.js';
import { generationQueryParams } from './generation.js';
import { link, requestUrl } from './links.js';
import { v20Source } from './source.js';

/** Parameters of both aggregates operations: every group (up to the groups window) by default. */
export const aggregatesParams = filterParams.extend({
  limit: integer('limit', { min: -1, max: null, default: -1 }),
  offset: integer('offset', { min: 0, max: null, default: 0 }),
});
type AggregatesParams = ReturnType<typeof aggregatesParams.parse>;

/** Aggregations answer one row per group: without group_by, select must aggregate (count(*) by default). */
async function aggregations(
  ctx: Context,
  engine: Engine,
  source: QuerySource,
  raw: AggregatesParams,
): Promise<void> {
  const grouped = raw.group_by !== undefined;
  const params = {
    ...raw,
    select: raw.select ?? 'count(*)',
    // One row without group_by: the records page's bound of 100 does not apply to it.
    limit: grouped || raw.limit <= PAGE_LIMIT ? raw.limit : -1,
  };
  const overrides = generationQueryParams(ctx);
  const compiled = compileQuery(source, { ...toQueryParams(source, params), ...overrides });
  if (!compiled.grouped) {
    const plain = compiled.columns[0]?.key ?? params.select;
    throw new QueryLangError(`Field ${plain} must be in group_by`, ['select']);
  }
  const page = await runPagedQuery(engine, source, params, signalOf(ctx), overrides);
  ctx.body = { aggregations: page.results, links: [link('self', requestUrl(ctx))] };
}

/** Mounts the v2.0 aggregates of a dataset's records and of the catalog. */
export function v20AggregatesRoutes(router: Router, services: Services): void {
  router.get('/catalog/datasets/:dataset_id/aggregates', async (ctx) => {
    const params = parseParams(aggregatesParams, ctx.query);
    const { dataset, source, engine } = requireDataSource(services, ctx, ctx.params.dataset_id!);
    await aggregations(ctx, engine, v20Source(dataset, source), params);
  });

  router.get('/catalog/aggregates', async (ctx) => {
    const params = parseParams(aggregatesParams, ctx.query);
    await aggregations(ctx, services.engine, services.catalog(), params);
  });
}
