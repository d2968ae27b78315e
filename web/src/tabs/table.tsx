// The table tab: the records of the dataset, server-side paged and sorted, with a full-text box,
// the facet sidebar, an ODSQL where box and the filter summary; the count shown is the API's
// total_count. Each region (facets, records) is busy while its request is in flight and shows its
// own error, with a retry, in place.
import { useState } from 'preact/hooks';
import { mount } from '../shared/mount.js';
import { pageData } from '../shared/page.js';
import { useUrlState } from '../shared/use-url-state.js';
import { useApi } from '../shared/use-api.js';
import { datasetPath, fieldLabel, useDataset } from '../shared/dataset.js';
import { filterParams, pageParams } from '../shared/url-state.js';
import type { FacetsAnswer, Page } from '../shared/types.js';
import { SearchBox } from '../shared/search-box.js';
import { WhereBox } from '../shared/where-box.js';
import { FacetList } from '../shared/facet-list.js';
import { FilterSummary } from '../shared/filter-summary.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { RangeFacets, searchKind } from '../shared/range-facets.js';
import { RecordDialog, recordShown } from './record-dialog.js';
import { Results, PAGE_SIZE, type Row } from './table-results.js';
import './table.css';

function Table({ id }: { id: string }) {
  const [state, setState] = useUrlState();
  const [open, setOpen] = useState<Row | null>(null);
  const dataset = useDataset(id);
  const records = useApi<Page<Row>>(datasetPath(id, '/records'), pageParams(state, PAGE_SIZE));
  const facets = useApi<FacetsAnswer>(datasetPath(id, '/facets'), filterParams(state));
  const fields = dataset.data?.fields ?? [];
  if (dataset.error) return <ErrorNotice error={dataset.error} onRetry={dataset.retry} />;
  const queryError = [records.error, facets.error].find((e) => e?.errorCode === 'QueryLangError') ?? null;
  return (
    <div class="with-facets">
      <div class="facets-region" aria-busy={facets.loading}>
        {facets.error && !queryError && <ErrorNotice error={facets.error} onRetry={facets.retry} />}
        <FacetList
          groups={facets.error ? [] : (facets.data?.facets ?? [])}
          state={state}
          onChange={setState}
          label={(name) => fieldLabel(fields, name)}
          path={datasetPath(id, '/facets')}
          searchKind={(name) => searchKind(fields, name)}
        >
          <RangeFacets
            fields={fields}
            path={datasetPath(id, '/records')}
            state={state}
            onChange={setState}
            listed={new Set(facets.data?.facets.map((g) => g.name))}
          />
        </FacetList>
      </div>
      <section class="results">
        <FilterSummary state={state} fields={fields} onChange={setState} />
        <SearchBox state={state} onChange={setState} label="Search the records" />
        <WhereBox state={state} onChange={setState} error={queryError} />
        <Results
          id={id}
          records={records}
          state={state}
          fields={fields}
          onChange={setState}
          onOpen={setOpen}
        />
        <RecordDialog fields={fields} shown={recordShown(open)} onClose={() => setOpen(null)} />
      </section>
    </div>
  );
}

mount(<Table id={pageData().dataset ?? ''} />);
