// v2.1 exports: dataset exports in every format of the registry and catalog exports. The route
// parses the parameters; exports/ checks them against the format's needs before the first byte.
import type Router from '@koa/router';
import { z } from 'zod';
import { prepareCatalogExport } from '../../exports/catalog-export.js';
import { datasetExporter, prepareDatasetExport, type ExportRequest } from '../../exports/dataset-export.js';
import { DATASET_EXPORT_FORMATS } from '../../exports/formats.js';
import { DCAT_AP_FORMATS } from '../../exports/registry.js';
import { sendExport } from '../export-response.js';
import { sendSharedExport, sharedExportOf, startSharedExport } from '../shared-export-response.js';
import { boolean, integer, listOf, oneOf, parseParams, text } from '../params.js';
import { filterParams, toQueryParams } from '../query-context.js';
import { accessOf, sourceBase, requireDataSource, signalOf } from '../../http/services.js';
import type { Services } from '../../http/services.js';
import { generationQueryParams, isV20 } from '../v20/generation.js';
import { generationSource } from '../v20/source.js';
import { servedAttachments } from '../../auth/access.js';

const lastOf = (raw: string | string[] | undefined): string | undefined =>
  Array.isArray(raw) ? raw[raw.length - 1] : raw;

/** Parameters of a dataset export (explore-api.md, export-specific parameters). */
export const exportParams = filterParams.extend({
  limit: integer('limit', { min: -1, max: null, default: -1 }),
  offset: integer('offset', { min: 0, max: null, default: 0 }),
  use_labels: boolean('use_labels', false),
  compressed: boolean('compressed', false),
  epsg: integer('epsg', { min: 1, max: null, default: 4326 }),
  delimiter: oneOf('delimiter', [';', ',', '\t', '|'], ';'),
  list_separator: z
    .custom<string | string[] | undefined>()
    .optional()
    .transform((raw) => lastOf(raw) || ','),
  quote_all: boolean('quote_all', false),
  with_bom: boolean('with_bom', true),
  parquet_compression: oneOf('parquet_compression', ['snappy', 'zstd'], 'snappy'),
  name_field: text(),
  description_field_list: text(),
  use_extension: boolean('use_extension', true),
});
type ExportParams = z.output<typeof exportParams>;

/** v2.0's: GPX writes the attributes in the description element unless asked otherwise. */
const v20ExportParams = exportParams.extend({ use_extension: boolean('use_extension', false) });

/** Parameters of a catalog export: the dataset export's, plus the DCAT ones. */
export const catalogExportParams = exportParams.extend({
  dcat_ap_format: oneOf('dcat_ap_format', DCAT_AP_FORMATS, undefined),
  include_exports: listOf('include_exports', DATASET_EXPORT_FORMATS),
  use_labels_in_exports: boolean('use_labels_in_exports', true),
});

/** The export request of parsed parameters. */
const exportRequest = (params: ExportParams): ExportRequest => ({
  limit: params.limit,
  offset: params.offset,
  useLabels: params.use_labels,
  epsg: params.epsg,
  delimiter: params.delimiter!,
  listSeparator: params.list_separator,
  quoteAll: params.quote_all,
  withBom: params.with_bom,
  parquetCompression: params.parquet_compression!,
  nameField: params.name_field,
  descriptionFieldList: params.description_field_list,
  useExtension: params.use_extension,
});

/** Mounts the dataset and catalog export operations. */
export function exportRoutes(router: Router, services: Services): void {
  router.get('/catalog/datasets/:dataset_id/exports/:format', async (ctx) => {
    const served = requireDataSource(services, ctx, ctx.params.dataset_id!);
    const { dataset, engine } = served;
    const source = generationSource(ctx, dataset, served.source);
    const exporter = datasetExporter(ctx.params.format!);
    const schema = isV20(ctx) ? v20ExportParams : exportParams;
    const params = parseParams(schema, ctx.query);
    const { contentType, extension: format } = exporter;
    const shared = sharedExportOf(ctx, services, { dataset, engine, format, contentType, params, schema });
    if (shared && (await sendSharedExport(ctx, services, shared))) return;
    const target = { engine, source, name: dataset.id, sourceUrl: sourceBase(ctx), signal: signalOf(ctx) };
    const filter = { ...toQueryParams(source, params), ...generationQueryParams(ctx) };
    const prepare = (signal: AbortSignal) =>
      prepareDatasetExport(exporter, { ...target, signal }, filter, exportRequest(params));
    const file = await prepare(target.signal);
    if (shared) startSharedExport(services, shared, prepare);
    await sendExport(ctx, services, file, params.compressed);
  });

  router.get('/catalog/exports/:format', async (ctx) => {
    const params = parseParams(catalogExportParams, ctx.query);
    const source = services.catalog();
    const target = {
      engine: services.engine,
      source,
      name: 'catalog',
      sourceUrl: sourceBase(ctx),
      signal: signalOf(ctx),
    };
    const viewOf = (id: string) => {
      const dataset = services.portal().datasets.get(id);
      return dataset && { dataset, access: accessOf(ctx, dataset) };
    };
    const query = { filter: toQueryParams(source, params), generation: generationQueryParams(ctx) };
    const request = {
      ...exportRequest(params),
      dcatApFormat: params.dcat_ap_format,
      includeExports: params.include_exports ?? null,
      useLabelsInExports: params.use_labels_in_exports,
    };
    const file = await prepareCatalogExport(ctx.params.format!, target, query, request, {
      title: services.portal().settings.title,
      readable: (id) => viewOf(id)?.access.dataVisible === true,
      attachmentsOf: (id) => {
        const view = viewOf(id);
        return view ? servedAttachments(view.dataset, view.access) : [];
      },
    });
    await sendExport(ctx, services, file, params.compressed);
  });
}
