// v1 catalog operations: the dataset search and the dataset lookup, in the v1 listing form.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { Dataset } from '../../catalog/portal.js';
import { compileQuery } from '../../odsql/index.js';
import { parseParams, timezone } from '../params.js';
import { sourceBase, requireDataset, signalOf, type Services } from '../../http/services.js';
import { datasetShape } from '../v2/dataset-shape.js';
import { callerMetas } from '../caller-metas.js';
import { v1FacetGroups } from './record-shape.js';
import {
  echoedQ,
  facetParamsOf,
  v1Page,
  v1QueryParams,
  v1Request,
  v1SearchParams,
  runV1Search,
} from './v1-query.js';

/** Parameters of the v1 dataset lookup. */
export const v1DatasetParams = z.object({ timezone: timezone() });

/** Metas of v2.1 `default` that v1 does not have. */
const V2_ONLY_METAS = [
  'source_domain_address',
  'source_domain_title',
  'source_domain',
  'parent_domain',
  'shared_catalog',
  'source_dataset',
  'geographic_area',
  'geographic_area_mode',
  'timezone',
  'oauth_scope',
];
/** Metas v1 keeps out of `basic_metas.default` (temporal coverage goes to `custom`). */
const NOT_BASIC = ['temporal_coverage_from', 'temporal_coverage_to', 'bbox', 'geometry_types'];

const withoutNulls = (o: Record<string, unknown>, drop: readonly string[]) =>
  Object.fromEntries(
    Object.entries(o).filter(([k, v]) => v !== null && v !== undefined && !drop.includes(k)),
  );

/** A dataset in the v1 listing form (explore-api.md "Dataset (v1 listing form)"). */
export async function v1Dataset(
  ctx: Context,
  services: Services,
  dataset: Dataset,
  timezone: string,
): Promise<Record<string, unknown>> {
  const v2 = datasetShape(services.portal(), dataset, {
    sourceUrl: sourceBase(ctx),
    timezone,
    includeLinks: false,
    includeAppMetas: false,
    view: await callerMetas(services, ctx, dataset),
  });
  const v2Metas = v2.metas as Record<string, Record<string, unknown>>;
  const metas = withoutNulls(v2Metas.default ?? {}, V2_ONLY_METAS);
  const fields = (
    v2.fields as { name: string; label: string; type: string; description: string | null }[]
  ).map((f) => {
    const annotations = dataset.file.fields.find((d) => d.name === f.name)?.annotations ?? {};
    return {
      ...f,
      annotations: Object.entries(annotations).map(([name, args]) =>
        args.length ? { name, args } : { name },
      ),
    };
  });
  return {
    datasetid: dataset.id,
    metas,
    has_records: v2.has_records,
    data_visible: v2.data_visible,
    features: v2.features,
    attachments: v2.attachments,
    alternative_exports: [],
    fields,
    basic_metas: {
      default: withoutNulls(metas, NOT_BASIC),
      custom: withoutNulls(
        {
          temporal_coverage_from: metas.temporal_coverage_from,
          temporal_coverage_to: metas.temporal_coverage_to,
        },
        [],
      ),
    },
    interop_metas: { dcat: v2Metas.dcat ?? {} },
    extra_metas: {},
  };
}

async function search(ctx: Context, services: Services): Promise<void> {
  const params = v1Request(parseParams(v1SearchParams, ctx.query), ctx.query);
  const catalog = services.catalog();
  const facets = facetParamsOf(ctx.query);
  const query = v1QueryParams(catalog, params, facets);
  const compiled = compileQuery(catalog, { ...query, select: 'dataset_id', ...v1Page(params) });
  const { nhits, rows, groups } = await runV1Search(
    services.engine,
    catalog,
    compiled,
    params,
    facets,
    signalOf(ctx),
  );
  const portal = services.portal();
  ctx.body = {
    nhits,
    parameters: {
      rows: params.rows,
      start: params.start,
      staged: false,
      include_draft: false,
      format: 'json',
      timezone: params.timezone,
      ...echoedQ(params.q),
      ...(params.sort.length && { sort: params.sort }),
      ...(params.facet.length && { facet: params.facet }),
      ...(Object.keys(facets.refine).length && { refine: facets.refine }),
      ...(Object.keys(facets.exclude).length && { exclude: facets.exclude }),
    },
    datasets: (
      await Promise.all(
        rows.map(async (row) => {
          const id = row.dataset_id;
          const dataset = typeof id === 'string' ? portal.datasets.get(id) : undefined;
          return dataset ? [await v1Dataset(ctx, services, dataset, params.timezone)] : [];
        }),
      )
    ).flat(),
    ...(groups && { facet_groups: v1FacetGroups(groups) }),
  };
}

/** Mounts the v1 dataset search and lookup on a router rooted at /api. */
export function v1DatasetsRoutes(router: Router, services: Services): void {
  router.get('/datasets/1.0/search', (ctx) => search(ctx, services));

  router.get('/datasets/1.0/:dataset_id', async (ctx) => {
    const params = parseParams(v1DatasetParams, ctx.query);
    const dataset = requireDataset(services, ctx.params.dataset_id!);
    ctx.body = await v1Dataset(ctx, services, dataset, params.timezone);
  });
}
