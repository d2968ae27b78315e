// The query source of a served dataset as one caller sees it: its hidden fields, row filter and
// record-id key applied.
import { FILE_ROW_NUMBER } from './schema.js';
import type { Expr } from '../odsql/index.js';
import type { Dataset } from './portal.js';
import { searchViewName, type QuerySource } from './source.js';
import { clickhouseDialect } from '../odsql/dialect/clickhouse/dialect.js';

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
    ...(dataset.file.engine && { dialect: clickhouseDialect }),
    rowFilter: rowFilterOf(dataset, view?.rowFilter ?? null),
    rows: dataset.file.computed.records_count,
    distinctCounts: new Map(Object.entries(dataset.file.computed.distinct_counts)),
    recordIdKey: view?.recordIdKey ?? null,
    sortBy: dataset.file.computed.sort_by,
  };
}
