// What the ODSQL compiler needs to know of a dataset: where its rows are and what its fields are.
import type { Field } from './schema.js';

/** A queryable table: the dataset view, its full-text index view, and its field schema. */
export interface QuerySource {
  /** View name of the rows (the dataset id); the hidden `_recordid` column is always present. */
  readonly table: string;
  /** View over `search.parquet` beside the data, or null when the dataset has none. */
  readonly searchTable: string | null;
  readonly fields: readonly Field[];
}
