// The query source of a dataset as v2.0 queries it (records, aggregates, exports, facets): the
// v2.1 source with v2.0's technical fields (`datasetid`, `recordid`, `record_timestamp`,
// `record_size`) read in every clause. One per source object, so that the compiled-query cache
// finds a v2.0 query again.
import type { Context } from 'koa';
import type { Dataset } from '../../catalog/portal.js';
import type { QuerySource } from '../../odsql/source.js';
import { v20RecordFields } from '../../odsql/technical.js';
import { isV20 } from './generation.js';

const v20Sources = new WeakMap<QuerySource, QuerySource>();

/** `source` (of `dataset`) with v2.0's technical fields of records. */
export function v20Source(dataset: Dataset, source: QuerySource): QuerySource {
  let found = v20Sources.get(source);
  if (!found) {
    const technical = v20RecordFields(dataset.id, dataset.file.computed.data_processed);
    v20Sources.set(source, (found = { ...source, technical }));
  }
  return found;
}

/** The source a request queries of `dataset`: with v2.0's technical fields when it came by v2.0. */
export const generationSource = (ctx: Context, dataset: Dataset, source: QuerySource): QuerySource =>
  isV20(ctx) ? v20Source(dataset, source) : source;
