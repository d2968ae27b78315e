// What the ODSQL compiler needs to know of a dataset: where its rows are and what its fields are.
import { FILE_ROW_NUMBER, RECORD_ID_COLUMN, type Field } from './schema.js';
import { quoteIdentifier, quoteString } from '../sql-text.js';
import type { Dataset } from './portal.js';
import type { Expr } from '../odsql/ast.js';
import type { Dialect } from '../odsql/dialect/dialect.js';

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
  /** The SQL spelling of the engine holding the rows; absent: DuckDB. */
  readonly dialect?: Dialect;
}

/** Opaque ids keep 128 bits of the keyed digest. */
const OPAQUE_ID_LENGTH = 32;

/** The SQL of a row's record id as the source's caller sees it: plain, or its keyed digest. */
export function recordIdSql(source: QuerySource): string {
  const column = quoteIdentifier(RECORD_ID_COLUMN);
  if (!source.recordIdKey) return column;
  return `left(sha256(${quoteString(source.recordIdKey)} || ${column}), ${OPAQUE_ID_LENGTH})`;
}

/** The view over a dataset's full-text index, from the name of the dataset's view. */
export function searchViewName(datasetView: string): string {
  return `${datasetView}__search`;
}

/** What a caller may query of a dataset: fields hidden from it, and its row filter. */
export interface SourceView {
  readonly hiddenFields: ReadonlySet<string>;
  readonly rowFilter: string | null;
  readonly recordIdKey?: string | null;
}

/** The condition of a row filter's text, parsed when the dataset loaded (blank: no filter). */
function rowFilterOf(dataset: Dataset, text: string | null): Expr | null {
  if (text === null || text.trim() === '') return null;
  const condition = dataset.rowFilters.get(text);
  if (!condition) throw new Error(`internal: the row filter ${text} of ${dataset.id} was not parsed at load`);
  return condition;
}

/**
 * The query source of a served dataset (the engine defines both views at load), as a caller
 * sees it: hidden fields are unknown to its queries, and its row filter applies first.
 */
export function querySource(dataset: Dataset, view?: SourceView): QuerySource {
  return {
    // Attached to ClickHouse: its table there (single server or Distributed), not a view here.
    table: dataset.file.engine?.table ?? dataset.view,
    // A field named like the virtual column shadows it: such a dataset is searched by scanning.
    searchTable:
      dataset.searchIndexPath && !dataset.file.fields.some((f) => f.name === FILE_ROW_NUMBER)
        ? searchViewName(dataset.view)
        : null,
    fields: view ? dataset.file.fields.filter((f) => !view.hiddenFields.has(f.name)) : dataset.file.fields,
    rowFilter: rowFilterOf(dataset, view?.rowFilter ?? null),
    rows: dataset.file.computed.records_count,
    distinctCounts: new Map(Object.entries(dataset.file.computed.distinct_counts)),
    recordIdKey: view?.recordIdKey ?? null,
  };
}
