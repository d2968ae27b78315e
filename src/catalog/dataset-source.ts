// The query source of a served dataset as one caller sees it: its hidden fields, row filter and
// record-id key applied.
import { FILE_ROW_NUMBER } from './schema.js';
import type { Expr } from '../odsql/index.js';
import type { Dataset } from './portal.js';
import { searchViewName, valueCountsViewName, type QuerySource } from './source.js';
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

/** The views of the dataset's tables of value counts, by field. */
const valueCountViews = (dataset: Dataset): ReadonlyMap<string, string> =>
  new Map(
    [...dataset.valueCountsPaths.keys()].map((field) => [field, valueCountsViewName(dataset.view, field)]),
  );

/**
 * The query source of a served dataset (the engine defines both views at load), as a caller
 * sees it: hidden fields are unknown to its queries, and its row filter applies first.
 */
export function querySource(dataset: Dataset, view?: SourceView): QuerySource {
  const rowFilter = rowFilterOf(dataset, view?.rowFilter ?? null);
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
    rowFilter,
    rows: dataset.file.computed.records_count,
    distinctCounts: new Map(Object.entries(dataset.file.computed.distinct_counts)),
    recordIdKey: view?.recordIdKey ?? null,
    sortBy: dataset.file.computed.sort_by,
    // A row filter needs the rows; an attached dataset has no views here (valueCountsPaths empty).
    ...(rowFilter === null && { valueCounts: valueCountViews(dataset) }),
  };
}
