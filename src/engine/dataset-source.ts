// The query source of a served dataset as one caller sees it: its hidden fields, row filter and
// record-id key applied, in the dialect of its engine's kind (kinds.ts).
import { FILE_ROW_NUMBER } from '../catalog/schema.js';
import { searchViewName, valueCountsViewName, type Dataset } from '../catalog/portal.js';
import { parseWhere, type Expr } from '../odsql/index.js';
import type { QuerySource } from '../odsql/source.js';
import { attachedKind } from './kinds.js';

/** What a caller may query of a dataset: fields hidden from it, and its row filter. */
export interface SourceView {
  readonly hiddenFields: ReadonlySet<string>;
  readonly rowFilter: string | null;
  readonly recordIdKey?: string | null;
}

/** The conditions of each dataset's row filters by their text, parsed once per dataset as loaded. */
const conditionsByDataset = new WeakMap<Dataset, Map<string, Expr>>();

/**
 * The condition of a row filter's text (blank: no filter). The portal checked every row filter
 * when it loaded (loadPortal's RowFilterCheck), so this one parses.
 */
function rowFilterOf(dataset: Dataset, text: string | null): Expr | null {
  if (text === null || text.trim() === '') return null;
  let conditions = conditionsByDataset.get(dataset);
  if (!conditions) conditionsByDataset.set(dataset, (conditions = new Map<string, Expr>()));
  let condition = conditions.get(text);
  if (!condition) conditions.set(text, (condition = parseWhere(text)));
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
  const attached = dataset.file.engine;
  return {
    // Attached to another engine: its table there (single server or Distributed), not a view here.
    table: attached?.table ?? dataset.view,
    // A field named like the virtual column shadows it: such a dataset is searched by scanning.
    searchTable:
      dataset.searchIndexPath && !dataset.file.fields.some((f) => f.name === FILE_ROW_NUMBER)
        ? searchViewName(dataset.view)
        : null,
    fields: view ? dataset.file.fields.filter((f) => !view.hiddenFields.has(f.name)) : dataset.file.fields,
    // Absent: the local engine's, odsql's default.
    ...(attached && { dialect: attachedKind(attached.kind).dialect }),
    rowFilter,
    rows: dataset.file.computed.records_count,
    distinctCounts: new Map(Object.entries(dataset.file.computed.distinct_counts)),
    recordIdKey: view?.recordIdKey ?? null,
    sortBy: dataset.file.computed.sort_by,
    // A row filter needs the rows; an attached dataset has no views here (valueCountsPaths empty).
    ...(rowFilter === null && { valueCounts: valueCountViews(dataset) }),
  };
}
