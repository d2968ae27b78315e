// What the ODSQL compiler needs to know of a dataset: where its rows are and what its fields are.
import type { Field } from './schema.js';
import type { Dataset } from './portal.js';

/** A queryable table: the dataset view, its full-text index view, and its field schema. */
export interface QuerySource {
  /** View name of the rows (the dataset id); the hidden `_recordid` column is always present. */
  readonly table: string;
  /** View over `search.parquet` beside the data, or null when the dataset has none. */
  readonly searchTable: string | null;
  readonly fields: readonly Field[];
}

/** The view over a dataset's full-text index. */
export function searchViewName(datasetId: string): string {
  return `${datasetId}__search`;
}

/** The query source of a served dataset (the engine defines both views at load). */
export function querySource(dataset: Dataset): QuerySource {
  return {
    table: dataset.id,
    searchTable: dataset.searchIndexPath ? searchViewName(dataset.id) : null,
    fields: dataset.file.fields,
  };
}
