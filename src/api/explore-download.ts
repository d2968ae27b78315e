// The portal's download links, `/explore/dataset/<id>/download/?format=...` with the filters the
// explore pages carry (q, refine.*, exclude.*, disjunctive.*, geofilter.*, timezone, fields,
// use_labels_for_header, csv_separator): scripts and published clients build them on the portal's
// own address. csv, json and geojson answer as the v1 download; the other formats as the v2.1
// export of the same records. Parameters the pages carry for their own display (location, basemap,
// lang...) are read or left alone, never refused.
import Router from '@koa/router';
import { prepareDownload } from '../exports/download.js';
import { datasetExporter, prepareDatasetExport, type ExportRequest } from '../exports/dataset-export.js';
import { DATASET_EXPORT_FORMATS } from '../exports/formats.js';
import { DOWNLOAD_FORMATS, type DownloadFormatName } from '../exports/registry.js';
import { sourceBase, requireDataSource, signalOf, type Services } from '../http/services.js';
import { sendExport } from './export-response.js';
import { EXPLORE_DOWNLOAD_PATH } from './link-paths.js';
import { oneOf, parseParams } from './params.js';
import { v1DownloadParams } from './v1/download-v1.js';
import { facetParamsOf, queriesOf, v1QueryParams } from './v1/v1-query.js';

const FORMATS = [...new Set([...Object.keys(DOWNLOAD_FORMATS), ...DATASET_EXPORT_FORMATS])];

/** The v1 download's parameters, its format any of the v1 download's or the v2.1 export's. */
export const exploreDownloadParams = v1DownloadParams.extend({ format: oneOf('format', FORMATS, 'csv') });

const isDownloadFormat = (format: string): format is DownloadFormatName => format in DOWNLOAD_FORMATS;

/** The router of the download links (no prefix: they live beside the pages, outside /api). */
export function exploreDownloadRouter(services: Services): Router {
  const router = new Router();
  router.get(EXPLORE_DOWNLOAD_PATH, async (ctx) => {
    const params = parseParams(exploreDownloadParams, ctx.query);
    const { dataset, source, engine } = requireDataSource(services, ctx, ctx.params.dataset_id!);
    const query = v1QueryParams(
      source,
      { ...params, queries: queriesOf(ctx.query) },
      facetParamsOf(ctx.query),
    );
    const target = { engine, source, name: dataset.id, signal: signalOf(ctx) };
    const format = params.format!;
    const csv = { useLabels: params.use_labels_for_header, delimiter: params.csv_separator! };
    if (isDownloadFormat(format)) {
      const recordTimestamp = dataset.file.computed.data_processed;
      const page = { limit: params.rows, offset: params.start };
      const file = prepareDownload(format, { ...target, recordTimestamp }, { ...query, ...page }, csv);
      return sendExport(ctx, services, file, false);
    }
    const request: ExportRequest = {
      limit: params.rows,
      offset: params.start,
      useLabels: csv.useLabels,
      epsg: 4326,
      delimiter: csv.delimiter,
      listSeparator: ',',
      quoteAll: false,
      withBom: true,
      parquetCompression: 'snappy',
      nameField: undefined,
      descriptionFieldList: undefined,
      useExtension: true,
    };
    const exporter = datasetExporter(format);
    const file = await prepareDatasetExport(
      exporter,
      { ...target, sourceUrl: sourceBase(ctx) },
      query,
      request,
    );
    await sendExport(ctx, services, file, false);
  });
  return router;
}
