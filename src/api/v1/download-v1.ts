// v1 download: every matching record streamed as csv, json (v1 records) or geojson by the engine's copy.
import type Router from '@koa/router';
import { prepareDownload } from '../../exports/download.js';
import { DOWNLOAD_FORMATS, type DownloadFormatName } from '../../exports/registry.js';
import { sendExport } from '../export-response.js';
import { boolean, integer, oneOf, parseParams } from '../params.js';
import { requireDataSource, signalOf, type Services } from '../../http/services.js';
import { datasetParam } from './records-v1.js';
import { facetParamsOf, queriesOf, v1QueryParams, v1RecordsParams } from './v1-query.js';

/**
 * Parameters of the download: those of the record search, the format and the CSV's header and
 * separator; `rows` and `start` cut the download but know no 10,000 window (a download is
 * unlimited: all rows by default).
 */
export const v1DownloadParams = v1RecordsParams.extend({
  rows: integer('rows', { min: -1, max: null, default: -1 }),
  start: integer('start', { min: 0, max: null, default: 0 }),
  format: oneOf('format', Object.keys(DOWNLOAD_FORMATS) as DownloadFormatName[], 'csv'),
  use_labels_for_header: boolean('use_labels_for_header', false),
  csv_separator: oneOf('csv_separator', [';', ',', '\t', '|'], ';'),
});

/** Mounts the v1 download on a router rooted at /api. */
export function v1DownloadRoutes(router: Router, services: Services): void {
  router.get('/records/1.0/download', async (ctx) => {
    const params = parseParams(v1DownloadParams, ctx.query);
    const { dataset, source, engine } = requireDataSource(services, ctx, datasetParam(params));
    const query = v1QueryParams(
      source,
      { ...params, queries: queriesOf(ctx.query) },
      facetParamsOf(ctx.query),
    );
    const page = { limit: params.rows, offset: params.start };
    const target = { engine, source, name: dataset.id, signal: signalOf(ctx) };
    const recordTimestamp = dataset.file.computed.data_processed;
    const csv = { useLabels: params.use_labels_for_header, delimiter: params.csv_separator! };
    const file = prepareDownload(params.format!, { ...target, recordTimestamp }, { ...query, ...page }, csv);
    await sendExport(ctx, services, file, false);
  });
}
