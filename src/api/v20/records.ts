// v2.0 record operations: the record query and one record by id, each record nested as
// `{links, record: {id, timestamp, size, fields}}` (supplement 7), over the v2.1 query path.
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Dataset } from '../../catalog/portal.js';
import type { JsonValue } from '../../engine/engine.js';
import { splitRow } from '../../odsql/index.js';
import { parseParams } from '../params.js';
import { pageOf, runPagedQuery, GROUPS_WINDOW, RECORDS_WINDOW } from '../query-context.js';
import { requireDataSource, signalOf, type Services } from '../../http/services.js';
import { isoInZone } from '../time-format.js';
import { recordsParams, requestedRecord } from '../v2/records-routes.js';
import { generationQueryParams } from './generation.js';
import { v20Source } from './source.js';
import { catalogUrl, link, pageLinks, type Link } from './links.js';

type Row = Record<string, JsonValue>;

/** A v2.0 record: its id (null for a group), the dataset's processing time, the size of its fields. */
function v20Record(dataset: Dataset, timezone: string, id: JsonValue | undefined, fields: Row) {
  return {
    id: typeof id === 'string' ? id : null,
    timestamp: isoInZone(dataset.file.computed.data_processed, timezone),
    // The size of the record as this answer writes it: the bytes of its fields in compact JSON.
    size: Buffer.byteLength(JSON.stringify(fields)),
    fields,
  };
}

/** The links of one record: itself and its dataset. */
function recordLinks(ctx: Context, datasetId: string, id: string): Link[] {
  const dataset = catalogUrl(ctx, datasetId);
  return [link('self', `${dataset}/records/${encodeURIComponent(id)}`), link('datasets', dataset)];
}

/** Mounts the v2.0 record operations on a router rooted at a v2.0 prefix. */
export function v20RecordsRoutes(router: Router, services: Services): void {
  router.get('/catalog/datasets/:dataset_id/records', async (ctx) => {
    const params = parseParams(recordsParams, ctx.query);
    const { dataset, source, engine } = requireDataSource(services, ctx, ctx.params.dataset_id!);
    const grouped = params.group_by !== undefined;
    const result = await runPagedQuery(engine, v20Source(dataset, source), params, signalOf(ctx), {
      withRecordId: true,
      ...generationQueryParams(ctx),
    });
    ctx.body = {
      total_count: result.total_count,
      links: pageLinks(
        ctx,
        pageOf(params, grouped),
        result.total_count,
        grouped ? GROUPS_WINDOW : RECORDS_WINDOW,
      ),
      records: result.results.map(splitRow).map(({ values, recordId }) => ({
        links: typeof recordId === 'string' ? recordLinks(ctx, dataset.id, recordId) : [],
        record: v20Record(dataset, params.timezone, recordId, values),
      })),
    };
  });

  router.get('/catalog/datasets/:dataset_id/records/:record_id', async (ctx) => {
    const { dataset, recordId, row, timezone } = await requestedRecord(services, ctx);
    ctx.body = {
      record: v20Record(dataset, timezone, recordId, row),
      links: recordLinks(ctx, dataset.id, recordId),
    };
  });
}
