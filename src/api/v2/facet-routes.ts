// v2.1 facet enumeration: of one dataset's records, and of the catalog's datasets.
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { z } from 'zod';
import type { QuerySource } from '../../odsql/source.js';
import type { Engine } from '../../engine/engine.js';
import { enumerateFacets } from '../../facets/enumerate.js';
import { facetSelection } from '../../facets/facet-selection.js';
import { LANGS, whereConditions } from '../../odsql/index.js';
import { boolean, facetList, oneOf, parseParams, repeated, timezone } from '../params.js';
import { parseV1Query } from '../v1/q-language/index.js';
import { requireDataSource, signalOf, sourceBase, type Services } from '../../http/services.js';
import { generationSource } from '../v20/source.js';

/** Parameters of both facet operations (explore-api.md: facet, where, refine, exclude, lang, timezone). */
export const facetParams = z.object({
  facet: facetList(),
  where: repeated(),
  /** v1's query language, as in records (docs/api.md). */
  qv1: repeated(),
  refine: repeated(),
  exclude: repeated(),
  lang: oneOf('lang', LANGS, undefined),
  timezone: timezone(),
  include_links: boolean('include_links', false),
});

async function answer(ctx: RouterContext, engine: Engine, source: QuerySource, self: string) {
  const params = parseParams(facetParams, ctx.query);
  const facets = await enumerateFacets(
    engine,
    source,
    {
      ...facetSelection(params),
      where: [...whereConditions(params.where), ...params.qv1.map((q) => parseV1Query(source, q))],
      timezone: params.timezone,
      ...(params.lang && { lang: params.lang }),
    },
    signalOf(ctx),
  );
  ctx.body = { links: [{ rel: 'self', href: self }], facets };
}

/** Mounts the facet operations. */
export function facetRoutes(router: Router, services: Services): void {
  router.get('/catalog/datasets/:dataset_id/facets', async (ctx) => {
    const { dataset, source, engine } = requireDataSource(services, ctx, ctx.params.dataset_id!);
    await answer(
      ctx,
      engine,
      generationSource(ctx, dataset, source),
      `${sourceBase(ctx)}/datasets/${encodeURIComponent(dataset.id)}/facets`,
    );
  });

  router.get('/catalog/facets', async (ctx) => {
    await answer(ctx, services.engine, services.catalog(), `${sourceBase(ctx)}/facets`);
  });
}
