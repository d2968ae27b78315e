// The catalog (`/`, `/explore/`): a search box, the catalog facets, the filter summary, a card per
// dataset, paging and sort, all from /catalog/datasets and /catalog/facets with the URL's state;
// the list and the facets are each busy while their request is in flight, and show their error.
import { mount } from '../shared/mount.js';
import { useUrlState } from '../shared/use-url-state.js';
import { useApi } from '../shared/use-api.js';
import { filterParams, pageParams, type FilterState } from '../shared/url-state.js';
import type { Dataset, FacetsAnswer, Page } from '../shared/types.js';
import { SearchBox } from '../shared/search-box.js';
import { FacetList } from '../shared/facet-list.js';
import { Pager } from '../shared/pager.js';
import { clearAll, FilterSummary } from '../shared/filter-summary.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { excerpt, formatCount, formatDate, noun, textOf } from '../shared/text.js';

const PAGE_SIZE = 10;

const SORTS: readonly { value: string; label: string }[] = [
  { value: '', label: 'Default order' },
  { value: 'title', label: 'Title' },
  { value: '-modified', label: 'Last modified' },
  { value: '-records_count', label: 'Most records' },
];

const FACET_LABELS = new Map([
  ['theme', 'Theme'],
  ['keyword', 'Keyword'],
  ['publisher', 'Publisher'],
  ['license', 'License'],
  ['language', 'Language'],
  ['features', 'Features'],
  ['modified', 'Modified'],
]);

/** Catalog facets whose values are lists (a search finds a dataset, whose other values come too). */
const LIST_FACETS: ReadonlySet<string> = new Set(['theme', 'keyword', 'features']);

function Card({ dataset }: { dataset: Dataset }) {
  const metas = dataset.metas.default;
  const description = excerpt(textOf(metas.description ?? ''), 220);
  return (
    <li class="card">
      <h2>
        <a href={`/explore/dataset/${encodeURIComponent(dataset.dataset_id)}/`}>{metas.title}</a>
      </h2>
      {description && <p>{description}</p>}
      {!dataset.data_visible && (
        // Listed only past the bound of the page's scope (src/web/catalog-scope.ts).
        <p class="restricted">Open to some users only: sign in to see its data.</p>
      )}
      <dl>
        {typeof metas.records_count === 'number' && (
          <>
            <dt>Records</dt>
            <dd>{formatCount(metas.records_count)}</dd>
          </>
        )}
        <dt>Modified</dt>
        <dd>{formatDate(metas.modified ?? metas.data_processed)}</dd>
        {dataset.features.length > 0 && (
          <>
            <dt>Features</dt>
            <dd>{dataset.features.join(', ')}</dd>
          </>
        )}
        {metas.theme && metas.theme.length > 0 && (
          <>
            <dt>Theme</dt>
            <dd>{metas.theme.join(', ')}</dd>
          </>
        )}
      </dl>
    </li>
  );
}

function SortChoice({ state, onChange }: { state: FilterState; onChange: (next: FilterState) => void }) {
  return (
    <label class="sort">
      Sort by{' '}
      <select
        value={state.sort}
        onChange={(event) => onChange({ ...state, sort: event.currentTarget.value, page: 1 })}
      >
        {SORTS.map((sort) => (
          <option key={sort.value} value={sort.value}>
            {sort.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The cards, or why there are none. */
function Cards({ list, onClear }: { list: Page<Dataset>; onClear: () => void }) {
  if (list.total_count === 0) {
    return (
      <div class="empty" role="status">
        <p>No dataset matches these filters.</p>
        <button type="button" onClick={onClear}>
          Clear all filters
        </button>
      </div>
    );
  }
  return (
    <ul class="cards">
      {list.results.map((dataset) => (
        <Card key={dataset.dataset_id} dataset={dataset} />
      ))}
    </ul>
  );
}

function Catalog() {
  const [state, setState] = useUrlState();
  const list = useApi<Page<Dataset>>('/catalog/datasets', pageParams(state, PAGE_SIZE));
  const facets = useApi<FacetsAnswer>('/catalog/facets', filterParams(state));
  const label = (name: string) => FACET_LABELS.get(name) ?? name;
  const total = list.data && !list.error ? list.data.total_count : null;
  return (
    <div class="with-facets">
      <div class="facets-region" aria-busy={facets.loading}>
        {facets.error && <ErrorNotice error={facets.error} onRetry={facets.retry} />}
        <FacetList
          groups={facets.data?.facets ?? []}
          state={state}
          onChange={setState}
          label={label}
          path="/catalog/facets"
          searchKind={(name) => (name === 'modified' ? null : LIST_FACETS.has(name) ? 'list' : 'plain')}
        />
      </div>
      <section class="results">
        <FilterSummary
          state={state}
          fields={[]}
          onChange={setState}
          label={label}
          everything="every dataset"
        />
        <SearchBox state={state} onChange={setState} label="Search datasets" />
        <div class="datasets-region" aria-busy={list.loading}>
          <div class="toolbar">
            <p class="total">
              <output>{total === null ? '…' : formatCount(total)}</output> {noun(total ?? 0, 'dataset')}
            </p>
            <SortChoice state={state} onChange={setState} />
          </div>
          {list.error ? (
            <ErrorNotice error={list.error} onRetry={list.retry} />
          ) : (
            list.data && <Cards list={list.data} onClear={() => setState(clearAll())} />
          )}
          <Pager
            state={state}
            total={total ?? 0}
            pageSize={PAGE_SIZE}
            onChange={setState}
            noun="dataset"
            rest="Narrow the list with a search or a facet."
          />
        </div>
      </section>
    </div>
  );
}

mount(<Catalog />);
