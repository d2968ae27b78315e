// v2.1 record operations: the record query (with group_by) and one record by id.
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { z } from 'zod';
import { splitRow, LANGS } from '../../odsql/index.js';
import { notFound } from '../../http/errors.js';
import { lookupRecord } from '../record-lookup.js';
import { boolean, oneOf, parseParams, text, timezone } from '../params.js';
import { filterParams, pageParams, runPagedQuery } from '../query-context.js';
import { requireDataSource, signalOf, sourceBase, type Services } from '../../http/services.js';
import { generationQueryParams } from '../v20/generation.js';

/** Parameters of the record query. */
export const recordsParams = filterParams.extend({
  ...pageParams.shape,
  include_links: boolean('include_links', false),
  include_app_metas: boolean('include_app_metas', false),
});

/** Parameters of the single record lookup. */
export const recordParams = z.object({
  select: text(),
  lang: oneOf('lang', LANGS, undefined),
  timezone: timezone(),
});

/** Mounts the record operations. */
export function recordsRoutes(router: Router, services: Services): void {
  router.get('/catalog/datasets/:dataset_id/records', async (ctx) => {
    const params = parseParams(recordsParams, ctx.query);
    const { dataset, source, engine } = requireDataSource(services, ctx, ctx.params.dataset_id!);
    const self = `${sourceBase(ctx)}/datasets/${encodeURIComponent(dataset.id)}`;
    const page = await runPagedQuery(engine, source, params, signalOf(ctx), {
      withRecordId: params.include_links,
      ...generationQueryParams(ctx),
    });
    if (!params.include_links) {
      ctx.body = page;
      return;
    }
    // With links, each record also links to itself (the only place a v2.1 client learns record ids).
    ctx.body = {
      total_count: page.total_count,
      links: [
        { rel: 'self', href: `${self}/records` },
        { rel: 'dataset', href: self },
      ],
      results: page.results.map(splitRow).map(({ values, recordId }) =>
        typeof recordId !== 'string'
          ? values
          : {
              ...values,
              _links: [{ rel: 'self', href: `${self}/records/${encodeURIComponent(recordId)}` }],
            },
      ),
    };
  });

  router.get('/catalog/datasets/:dataset_id/records/:record_id', async (ctx) => {
    ctx.body = (await requestedRecord(services, ctx)).row;
  });
}

/** The record a lookup's path names, shaped by its parameters (both generations); 404 when none has the id. */
export async function requestedRecord(services: Services, ctx: RouterContext) {
  const params = parseParams(recordParams, ctx.query);
  const { dataset, source, engine } = requireDataSource(services, ctx, ctx.params.dataset_id!);
  const recordId = ctx.params.record_id!;
  const { row } = await lookupRecord(
    engine,
    source,
    recordId,
    {
      ...(params.select !== undefined && { select: params.select }),
      ...(params.lang !== undefined && { lang: params.lang }),
      timezone: params.timezone,
    },
    signalOf(ctx),
  );
  if (!row) throw notFound('record', recordId);
  return { dataset, recordId, row, timezone: params.timezone };
}
