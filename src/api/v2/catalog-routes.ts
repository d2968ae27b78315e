// v2.1 catalog operations: dataset list, dataset lookup, attachments, export format lists.
import { createReadStream } from 'node:fs';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { z } from 'zod';
import {
  accessOf,
  requireDataSource,
  requireDataset,
  signalOf,
  sourceBase,
  type Services,
} from '../../http/services.js';
import type { Dataset } from '../../catalog/portal.js';
import { LANGS } from '../../odsql/index.js';
import { boolean, parseParams, text, timezone, oneOf } from '../params.js';
import { filterParams, pageParams, runPagedQuery } from '../query-context.js';
import { attachmentNotServed, notFound } from '../../http/errors.js';
import { readsWhole, servedAttachments } from '../../auth/access.js';
import { lookupRecord } from '../record-lookup.js';
import { generationQueryParams } from '../v20/generation.js';
import { datasetShape, type ShapeOptions } from './dataset-shape.js';
import { callerMetas } from '../caller-metas.js';
import { DATASET_EXPORT_FORMATS, CATALOG_EXPORT_FORMATS } from '../../exports/formats.js';
import { GEO_EXPORT_FORMATS } from '../../exports/registry.js';
import { datasetFeatures } from '../../catalog/features.js';

/** Parameters of the dataset lookup (explore-api.md: select, lang, timezone, include_*). */
export const datasetLookupParams = z.object({
  select: text(),
  lang: oneOf('lang', LANGS, undefined),
  timezone: timezone(),
  include_links: boolean('include_links', false),
  include_app_metas: boolean('include_app_metas', false),
});

/** Parameters of the catalog list: the common filtering context over dataset metas. */
export const catalogListParams = filterParams.extend({
  ...pageParams.shape,
  include_links: boolean('include_links', false),
  include_app_metas: boolean('include_app_metas', false),
});

/** The shape options of one dataset as the request's caller sees it. */
async function shapeOptions(
  services: Services,
  ctx: RouterContext,
  params: { timezone: string; include_links: boolean; include_app_metas: boolean },
  dataset: Dataset,
): Promise<ShapeOptions> {
  return {
    sourceUrl: sourceBase(ctx),
    timezone: params.timezone,
    includeLinks: params.include_links,
    includeAppMetas: params.include_app_metas,
    view: await callerMetas(services, ctx, dataset),
  };
}

/** Mounts the catalog operations on a router rooted at /api/explore/v2.1. */
export function catalogRoutes(router: Router, services: Services): void {
  catalogListRoute(router, services);
  datasetLookupRoute(router, services);
  attachmentRoutes(router, services);
  exportListRoutes(router, services);
}

/** One result of the catalog list: a whole Dataset object or a flat row, and its dataset's id if known. */
export interface CatalogEntry {
  readonly id: string | null;
  readonly value: Record<string, unknown>;
}

/**
 * A page of the catalog list (both generations): without select or group_by each result is a
 * whole Dataset object; with them, the rows the query shapes from the catalog table, as records are.
 */
export async function catalogListPage(
  services: Services,
  ctx: RouterContext,
  params: z.output<typeof catalogListParams>,
): Promise<{ total_count: number; entries: CatalogEntry[] }> {
  const portal = services.portal();
  const flat = params.select !== undefined || params.group_by !== undefined;
  const page = await runPagedQuery(services.engine, services.catalog(), params, signalOf(ctx), {
    ...generationQueryParams(ctx),
    ...(!flat && { select: 'dataset_id' }),
  });
  const entryOf = async (row: Record<string, unknown>): Promise<CatalogEntry[]> => {
    const id = typeof row.dataset_id === 'string' ? row.dataset_id : null;
    if (flat) return [{ id, value: row }];
    const dataset = id === null ? undefined : portal.datasets.get(id);
    return dataset
      ? [{ id, value: datasetShape(portal, dataset, await shapeOptions(services, ctx, params, dataset)) }]
      : [];
  };
  return { total_count: page.total_count, entries: (await Promise.all(page.results.map(entryOf))).flat() };
}

/** The dataset list: whole Dataset objects, or the flat rows of a select or group_by. */
function catalogListRoute(router: Router, services: Services): void {
  router.get('/catalog/datasets', async (ctx) => {
    const params = parseParams(catalogListParams, ctx.query);
    const page = await catalogListPage(services, ctx, params);
    ctx.body = {
      total_count: page.total_count,
      ...(params.include_links && { links: [{ rel: 'self', href: `${sourceBase(ctx)}/datasets` }] }),
      results: page.entries.map((entry) => entry.value),
    };
  });
}

/** One dataset as the lookup answers it: its Dataset object, or the flat row of the metas it selects. */
export async function datasetLookup(
  services: Services,
  ctx: RouterContext,
  params: z.output<typeof datasetLookupParams>,
): Promise<Record<string, unknown>> {
  const dataset = requireDataset(services, ctx.params.dataset_id!);
  if (params.select === undefined) {
    return datasetShape(services.portal(), dataset, await shapeOptions(services, ctx, params, dataset));
  }
  // With select, the lookup answers the selected metas as one flat row (as the catalog list does).
  const { row } = await lookupRecord(
    services.engine,
    services.catalog(),
    dataset.id,
    {
      select: params.select,
      ...(params.lang !== undefined && { lang: params.lang }),
      timezone: params.timezone,
    },
    signalOf(ctx),
  );
  return row ?? {};
}

/** One dataset: its Dataset object, or the flat row of the metas it selects. */
function datasetLookupRoute(router: Router, services: Services): void {
  router.get('/catalog/datasets/:dataset_id', async (ctx) => {
    ctx.body = await datasetLookup(services, ctx, parseParams(datasetLookupParams, ctx.query));
  });
}

/** A dataset's attachments as the caller is served them: their list, and each file. */
export function attachmentRoutes(router: Router, services: Services): void {
  router.get('/catalog/datasets/:dataset_id/attachments', (ctx) => {
    const { dataset } = requireDataSource(services, ctx, ctx.params.dataset_id!);
    const base = `${sourceBase(ctx)}/datasets/${encodeURIComponent(dataset.id)}/attachments`;
    ctx.body = {
      links: [{ rel: 'self', href: base }],
      attachments: servedAttachments(dataset, accessOf(ctx, dataset)).map((a) => ({
        href: `${base}/${a.id}`,
        metas: { 'mime-type': a.mimeType, title: a.title, url: `odsfile://${a.fileName}`, id: a.id },
      })),
    };
  });

  router.get('/catalog/datasets/:dataset_id/attachments/:attachment_id', (ctx) => {
    const { dataset } = requireDataSource(services, ctx, ctx.params.dataset_id!);
    const access = accessOf(ctx, dataset);
    const id = ctx.params.attachment_id!;
    const attachment = servedAttachments(dataset, access).find((a) => a.id === id);
    // The same answer whether or not an unlisted file exists: the caller learns no more than its list.
    if (!attachment) throw readsWhole(access) ? notFound('attachment', id) : attachmentNotServed(id);
    ctx.type = attachment.mimeType;
    ctx.attachment(attachment.fileName);
    ctx.body = createReadStream(attachment.filePath);
  });
}

/** The export formats a dataset offers (geo formats only with a geo field), and the catalog's. */
export function exportListRoutes(router: Router, services: Services): void {
  router.get('/catalog/datasets/:dataset_id/exports', (ctx) => {
    const dataset = requireDataset(services, ctx.params.dataset_id!);
    const self = `${sourceBase(ctx)}/datasets/${encodeURIComponent(dataset.id)}/exports`;
    const { hiddenFields } = accessOf(ctx, dataset);
    const hasGeo = datasetFeatures(dataset, { recordsCount: null, hiddenFields }).includes('geo');
    ctx.body = {
      links: formatLinks(
        self,
        DATASET_EXPORT_FORMATS.filter((f) => hasGeo || !GEO_EXPORT_FORMATS.has(f)),
      ),
    };
  });

  router.get('/catalog/exports', (ctx) => {
    ctx.body = {
      links: formatLinks(`${sourceBase(ctx)}/exports`, CATALOG_EXPORT_FORMATS),
    };
  });
}

function formatLinks(self: string, formats: readonly string[]): { rel: string; href: string }[] {
  return [{ rel: 'self', href: self }, ...formats.map((f) => ({ rel: f, href: `${self}/${f}` }))];
}
