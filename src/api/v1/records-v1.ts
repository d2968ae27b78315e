// v1 record operations: the record search with facets, and one record by id.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { compileQuery, LANGS } from '../../odsql/index.js';
import { ApiError } from '../../http/errors.js';
import { lookupRecord } from '../record-lookup.js';
import { oneOf, parseParams, timezone } from '../params.js';
import { requireDataSource, signalOf, type Services } from '../../http/services.js';
import { v1FacetGroups, v1Record } from './record-shape.js';
import {
  echoedQ,
  facetParamsOf,
  v1Request,
  v1Page,
  v1QueryParams,
  v1RecordsParams,
  type FacetParams,
  type V1RecordsParams,
  runV1Search,
} from './v1-query.js';

/** Parameters of the v1 single record lookup. */
export const v1RecordParams = z.object({ lang: oneOf('lang', LANGS, undefined), timezone: timezone() });

/** The dataset of a records request: the parameter is mandatory (explore-api.md, v1). */
export function datasetParam(params: { dataset?: string | undefined }): string {
  if (params.dataset === undefined) {
    throw new ApiError(400, 'InvalidRESTParameterError', 'Missing dataset parameter: it is mandatory.');
  }
  return params.dataset;
}

/** The normalized request echoed in `parameters`. */
function echo(id: string, params: V1RecordsParams, facets: FacetParams): Record<string, unknown> {
  const optional = [
    'fields',
    'lang',
    'language',
    'geofilter.distance',
    'geofilter.polygon',
    'geofilter.bbox',
  ] as const;
  return {
    dataset: [id],
    timezone: params.timezone,
    rows: params.rows,
    start: params.start,
    format: 'json',
    ...echoedQ(params.q),
    ...Object.fromEntries(optional.flatMap((k) => (params[k] !== undefined ? [[k, params[k]]] : []))),
    ...(params.facet.length && { facet: params.facet }),
    ...(params.sort.length && { sort: params.sort }),
    ...(Object.keys(facets.refine).length && { refine: facets.refine }),
    ...(Object.keys(facets.exclude).length && { exclude: facets.exclude }),
  };
}

async function search(ctx: Context, services: Services): Promise<void> {
  const params = v1Request(parseParams(v1RecordsParams, ctx.query), ctx.query);
  const { dataset, source, engine } = requireDataSource(services, ctx, datasetParam(params));
  const facets = facetParamsOf(ctx.query);
  const query = v1QueryParams(source, params, facets);
  const page = v1Page(params);
  const compiled = compileQuery(source, { ...query, ...page, withRecordId: true });
  const { nhits, rows, groups } = await runV1Search(engine, source, compiled, params, facets, signalOf(ctx));
  const timestamp = dataset.file.computed.data_processed;
  ctx.body = {
    nhits,
    parameters: echo(dataset.id, params, facets),
    records: rows.map((row) => v1Record(dataset.id, timestamp, compiled.columns, row)),
    ...(groups && { facet_groups: v1FacetGroups(groups) }),
  };
}

/** Mounts the v1 record search and lookup on a router rooted at /api. */
export function v1RecordsRoutes(router: Router, services: Services): void {
  router.get('/records/1.0/search', (ctx) => search(ctx, services));

  router.get('/datasets/1.0/:dataset_id/records/:record_id', async (ctx) => {
    const params = parseParams(v1RecordParams, ctx.query);
    const { dataset, source, engine } = requireDataSource(services, ctx, ctx.params.dataset_id!);
    const recordId = ctx.params.record_id!;
    const { row, columns } = await lookupRecord(
      engine,
      source,
      recordId,
      {
        ...(params.lang !== undefined && { lang: params.lang }),
        timezone: params.timezone,
        withRecordId: true,
      },
      signalOf(ctx),
    );
    if (!row) throw new ApiError(404, 'NotFoundResource', `The requested record ${recordId} does not exist.`);
    ctx.body = v1Record(dataset.id, dataset.file.computed.data_processed, columns, row);
  });
}
