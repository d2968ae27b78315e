// What the ODSQL compiler needs to know of a queryable table: where its rows are and what its
// fields are (a served dataset's, as a caller sees it, is built in src/engine/dataset-source.ts).
import type { Field } from '../catalog/schema.js';
import type { Expr } from './ast.js';
import type { Dialect } from './dialect/dialect.js';
import type { ValueType } from './types.js';

/** What a technical field stands for: a constant, the record's id, an instant, or a refusal. */
export type TechnicalValue =
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'recordId' }
  | { readonly kind: 'instant'; readonly iso: string }
  | { readonly kind: 'refused'; readonly reason: string };

/** A technical field as a source lists it (its SQL is written by technical.ts). */
export interface TechnicalField {
  readonly name: string;
  readonly type: ValueType;
  readonly value: TechnicalValue;
}

/** A queryable table: the dataset view, its full-text index view, and its field schema. */
export interface QuerySource {
  /**
   * View name of the rows (the dataset id, after its portal's view prefix). Its hidden `_recordid` and `_ordinal` columns are always
   * present: the record id, and the row's position, which sorts break ties on and random() hashes.
   */
  readonly table: string;
  /** View over `search.parquet` beside the data, or null when the dataset has none. */
  readonly searchTable: string | null;
  readonly fields: readonly Field[];
  /** A condition ANDed before every query on this source (an audience's row filter), or null. */
  readonly rowFilter?: Expr | null;
  /** Rows of the table (records_count), which bounds what holistic aggregations may hold; absent: few. */
  readonly rows?: number;
  /** Distinct values of the single-valued scalar fields, by name (computed at ingest); absent: unknown. */
  readonly distinctCounts?: ReadonlyMap<string, number>;
  /** Key (hex) of the caller's opaque record ids (src/auth/record-ids.ts), or null: plain ids. */
  readonly recordIdKey?: string | null;
  /**
   * Whether the rows are not stored in `_ordinal` order (a catalog table updated in place): a page
   * asked in no order is then sorted on it (not a table of value counts made from it: it has no
   * ordinal). Absent: stored in order.
   */
  readonly unordered?: boolean;
  /** Fields the rows are stored sorted on (computed.sort_by), then file order; absent: none. */
  readonly sortBy?: readonly string[];
  /** The SQL spelling of the engine holding the rows; absent: DuckDB. */
  readonly dialect?: Dialect;
  /**
   * The view of each field's table of value counts, by field: absent for a dataset attached to
   * ClickHouse and for a caller with a row filter (which needs the rows). src/odsql/value-counts.ts.
   */
  readonly valueCounts?: ReadonlyMap<string, string>;
  /**
   * The table of element counts of each multivalued facet field (`v, _count`), by field: the
   * catalog's (src/odsql/dialect/duckdb/catalog-counts.ts), read by a facet of that field under no condition.
   */
  readonly elementCounts?: ReadonlyMap<string, string>;
  /** The column holding how many records each row of `table` stands for (a table of value counts); absent: one. */
  readonly weight?: string;
  /** Names read in every clause besides the fields (v2.0's datasetid, recordid...); absent: none. */
  readonly technical?: readonly TechnicalField[];
}
