// The table tab: the records of the dataset, server-side paged and sorted, with a full-text box,
// the facet sidebar and an ODSQL where box; the count shown is the API's total_count.
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
import { Pager } from '../shared/pager.js';
import { formatCount } from '../shared/text.js';
import { RecordsTable } from './records-table.js';
import { RecordDialog } from './record-dialog.js';

const PAGE_SIZE = 20;

type Row = Readonly<Record<string, unknown>>;

function Table({ id }: { id: string }) {
  const [state, setState] = useUrlState();
  const [open, setOpen] = useState<Row | null>(null);
  const dataset = useDataset(id);
  const records = useApi<Page<Row>>(datasetPath(id, '/records'), pageParams(state, PAGE_SIZE));
  const facets = useApi<FacetsAnswer>(datasetPath(id, '/facets'), filterParams(state));
  const fields = dataset.data?.fields ?? [];
  const error = records.error ?? facets.error ?? dataset.error;
  return (
    <div class="with-facets">
      <FacetList
        groups={facets.error ? [] : (facets.data?.facets ?? [])}
        state={state}
        onChange={setState}
        label={(name) => fieldLabel(fields, name)}
      />
      <section class="results" aria-busy={records.loading}>
        <SearchBox state={state} onChange={setState} label="Search the records" />
        <WhereBox state={state} onChange={setState} error={error} />
        {error && error.errorCode !== 'QueryLangError' && (
          <p role="alert" class="error">
            {error.message}
          </p>
        )}
        <p class="total">
          <output>{records.data && !records.error ? formatCount(records.data.total_count) : '…'}</output>{' '}
          records
        </p>
        {records.data && !records.error && (
          <>
            <RecordsTable
              fields={fields}
              rows={records.data.results}
              sort={state.sort}
              onSort={(sort) => setState({ ...state, sort, page: 1 })}
              onOpen={setOpen}
            />
            <Pager state={state} total={records.data.total_count} pageSize={PAGE_SIZE} onChange={setState} />
          </>
        )}
        <RecordDialog fields={fields} record={open} onClose={() => setOpen(null)} />
      </section>
    </div>
  );
}

mount(<Table id={pageData().dataset ?? ''} />);
