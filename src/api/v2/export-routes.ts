// v2.1 exports: dataset exports in every format of the registry and catalog exports, each
// checked completely before the first byte and streamed after it.
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type Router from '@koa/router';
import { z } from 'zod';
import type { QuerySource } from '../../catalog/source.js';
import type { Engine } from '../../engine/engine.js';
import {
  catalogDocumentFormat,
  catalogExporterOf,
  DCAT_AP_FORMATS,
  writeCatalogRdf,
} from '../../exports/catalog-exports.js';
import type { ExportContext, Exporter, GpxOptions } from '../../exports/export-context.js';
import { geometryColumn } from '../../exports/geometry.js';
import { projectionOf } from '../../exports/projection.js';
import { exporterOf } from '../../exports/registry.js';
import { compileQuery, type OutputColumn, type QueryParams } from '../../odsql/index.js';
import { ApiError, invalidParameter } from '../errors.js';
import { holdExportMemory, sendExport } from '../export-response.js';
import { boolean, integer, listOf, oneOf, parseParams, text } from '../params.js';
import { DATASET_EXPORT_FORMATS } from '../../exports/formats.js';
import { filterParams, toQueryParams } from '../query-context.js';
import { accessOf, apiBase, requireDataSource, signalOf, type Services } from '../services.js';
import { generationQueryParams, isV20 } from '../v1/aliases.js';
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

/** The GPX options, each field they name checked against the exported columns (a 400 naming it). */
function gpxOptions(params: ExportParams, columns: readonly OutputColumn[]): GpxOptions {
  const keys = columns.map((c) => c.key);
  const known = (parameter: string) => (name: string) => {
    if (keys.includes(name)) return name;
    const some = keys.length > 10 ? `${keys.slice(0, 10).join(', ')}, ...` : keys.join(', ');
    throw invalidParameter(parameter, `${name} is not a field of the export: one of ${some} is expected.`);
  };
  const listed = (params.description_field_list ?? '').split(',').map((f) => f.trim());
  return {
    nameField: params.name_field === undefined ? null : known('name_field')(params.name_field),
    descriptionFields: listed.filter(Boolean).map(known('description_field_list')),
    useExtension: params.use_extension,
  };
}

/** Parameters of a catalog export: the dataset export's, plus the DCAT ones. */
export const catalogExportParams = exportParams.extend({
  dcat_ap_format: oneOf('dcat_ap_format', DCAT_AP_FORMATS, undefined),
  include_exports: listOf('include_exports', DATASET_EXPORT_FORMATS),
  use_labels_in_exports: boolean('use_labels_in_exports', true),
});

/** The export's context: the compiled query checked against the format's needs. */
async function exportContext(
  ctx: Context,
  engine: Engine,
  exporter: Exporter,
  source: QuerySource,
  name: string,
  params: ExportParams,
): Promise<ExportContext> {
  const query: QueryParams = {
    ...toQueryParams(source, params),
    limit: params.limit,
    offset: params.offset,
    ...generationQueryParams(ctx),
    withRecordId: exporter.recordIds === true,
  };
  const compiled = compileQuery(source, query, exporter.output);
  if (exporter.geo && !geometryColumn(compiled.columns)) {
    const hasGeo = source.fields.some((f) => f.type === 'geo_point_2d' || f.type === 'geo_shape');
    throw invalidParameter(
      'format',
      hasGeo
        ? 'this format writes geometries: select a geo_point_2d or geo_shape field.'
        : `dataset ${name} has no geo_point_2d or geo_shape field, which this format needs.`,
    );
  }
  const projection = await projectionOf(params.epsg);
  if (!projection) throw invalidParameter('epsg', `${params.epsg} is not a known EPSG coordinate system.`);
  const labels = new Map(source.fields.map((f) => [f.name, f.label]));
  const signal = signalOf(ctx);
  if (exporter.maxRows !== undefined) {
    // The records API's total (kept by the count cache), cut as the page cuts it.
    const total = await engine.count(compiled.countSql, signal);
    const rest = Math.max(0, total - params.offset);
    const rows = params.limit >= 0 ? Math.min(rest, params.limit) : rest;
    if (rows > exporter.maxRows) {
      throw new ApiError(
        400,
        'InvalidRESTParameterError',
        `The export has ${rows} rows, more than the ${exporter.maxRows} a sheet of this format holds: filter it or use limit.`,
      );
    }
  }
  return {
    engine,
    name,
    baseUrl: apiBase(ctx),
    query: compiled,
    columns: compiled.columns,
    recordIds: exporter.recordIds === true && !compiled.grouped,
    options: {
      headers: new Map(
        compiled.columns.map((c) => [c.key, params.use_labels ? (labels.get(c.key) ?? c.key) : c.key]),
      ),
      delimiter: params.delimiter!,
      listSeparator: params.list_separator,
      quoteAll: params.quote_all,
      parquetCompression: params.parquet_compression!,
      withBom: params.with_bom,
    },
    projection,
    gpx: gpxOptions(params, compiled.columns),
    signal,
  };
}

/** Writes the export once the memory its query's holistic aggregations may hold is reserved. */
async function writeHolding(ctx: Context, exporter: Exporter, context: ExportContext): Promise<Readable> {
  await holdExportMemory(ctx, context.engine, context.query.holisticBytes);
  return exporter.write(context);
}

/** The format named in the path, or a 400 listing what exists. */
function unknownFormat(format: string): ApiError {
  return invalidParameter('format', `${format} is not an export format of this operation.`);
}

/** Mounts the dataset and catalog export operations. */
export function exportRoutes(router: Router, services: Services): void {
  router.get('/catalog/datasets/:dataset_id/exports/:format', async (ctx) => {
    const { dataset, source, engine } = requireDataSource(services, ctx, ctx.params.dataset_id!);
    const exporter = exporterOf(ctx.params.format!);
    if (!exporter) throw unknownFormat(ctx.params.format!);
    const params = parseParams(isV20(ctx) ? v20ExportParams : exportParams, ctx.query);
    const context = await exportContext(ctx, engine, exporter, source, dataset.id, params);
    const file = { name: dataset.id, ...exporter, compressed: params.compressed };
    await sendExport(ctx, services, file, () => writeHolding(ctx, exporter, context));
  });

  router.get('/catalog/exports/:format', async (ctx) => {
    const format = ctx.params.format!.replaceAll('-', '_');
    const params = parseParams(catalogExportParams, ctx.query);
    const source = services.catalog();
    const tabular = catalogExporterOf(format);
    if (tabular) {
      const context = await exportContext(ctx, services.engine, tabular, source, 'catalog', params);
      const file = { name: 'catalog', ...tabular, compressed: params.compressed };
      await sendExport(ctx, services, file, () => writeHolding(ctx, tabular, context));
      return;
    }
    if (format === 'dcat' && params.dcat_ap_format === undefined) {
      throw invalidParameter(
        'dcat_ap_format',
        `the dcat format requires it: one of ${DCAT_AP_FORMATS.join(', ')} is expected.`,
      );
    }
    const rdf = catalogDocumentFormat(format, params.dcat_ap_format);
    if (!rdf) throw unknownFormat(ctx.params.format!);
    const query = { ...toQueryParams(source, params), limit: params.limit, offset: params.offset };
    const compiled = compileQuery(source, { ...query, select: undefined, groupBy: undefined }, 'json');
    const file = { name: 'catalog', ...rdf, compressed: params.compressed };
    const viewOf = (id: string) => {
      const dataset = services.portal().datasets.get(id);
      return dataset && { dataset, access: accessOf(ctx, dataset) };
    };
    // A document of the catalog, small and written whole, but an export all the same: it holds a slot.
    await sendExport(ctx, services, file, async () => {
      const rows = await services.engine.queryJson(compiled.sql, [], signalOf(ctx));
      const document = writeCatalogRdf(rdf, rows, {
        base: apiBase(ctx),
        title: services.portal().settings.title,
        includeExports: params.include_exports ?? null,
        useLabels: params.use_labels_in_exports,
        readable: (id) => viewOf(id)?.access.dataVisible === true,
        attachmentsOf: (id) => {
          const view = viewOf(id);
          return view ? servedAttachments(view.dataset, view.access) : [];
        },
      });
      return Readable.from([document]);
    });
  });
}
