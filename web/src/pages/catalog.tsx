// The catalog (`/`, `/explore/`): a search box, the catalog facets, a card per dataset, paging and
// sort, all from /catalog/datasets and /catalog/facets with the URL's state.
import { mount } from '../shared/mount.js';
import { useUrlState } from '../shared/use-url-state.js';
import { useApi } from '../shared/use-api.js';
import { filterParams, pageParams, type FilterState } from '../shared/url-state.js';
import type { Dataset, FacetsAnswer, Page } from '../shared/types.js';
import { SearchBox } from '../shared/search-box.js';
import { FacetList } from '../shared/facet-list.js';
import { Pager } from '../shared/pager.js';
import { excerpt, formatCount, formatDate, textOf } from '../shared/text.js';

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

function Card({ dataset }: { dataset: Dataset }) {
  const metas = dataset.metas.default;
  const description = excerpt(textOf(metas.description ?? ''), 220);
  return (
    <li class="card">
      <h2>
        <a href={`/explore/dataset/${encodeURIComponent(dataset.dataset_id)}/`}>{metas.title}</a>
      </h2>
      {description && <p>{description}</p>}
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

function Catalog() {
  const [state, setState] = useUrlState();
  const list = useApi<Page<Dataset>>('/catalog/datasets', pageParams(state, PAGE_SIZE));
  const facets = useApi<FacetsAnswer>('/catalog/facets', filterParams(state));
  const error = list.error ?? facets.error;
  return (
    <div class="with-facets">
      <FacetList
        groups={facets.data?.facets ?? []}
        state={state}
        onChange={setState}
        label={(name) => FACET_LABELS.get(name) ?? name}
      />
      <section class="results" aria-busy={list.loading}>
        <SearchBox state={state} onChange={setState} label="Search datasets" />
        {error && (
          <p role="alert" class="error">
            {error.message}
          </p>
        )}
        <div class="toolbar">
          <p class="total">
            <output>{list.data ? formatCount(list.data.total_count) : '…'}</output> datasets
          </p>
          <SortChoice state={state} onChange={setState} />
        </div>
        <ul class="cards">
          {list.data?.results.map((dataset) => (
            <Card key={dataset.dataset_id} dataset={dataset} />
          ))}
        </ul>
        <Pager state={state} total={list.data?.total_count ?? 0} pageSize={PAGE_SIZE} onChange={setState} />
      </section>
    </div>
  );
}

mount(<Catalog />);
