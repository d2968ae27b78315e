// The records region of the table tab: the count, then the page of records and its pager, or
// what stands instead: the error in plain words (a page past the record-query cap says so and
// offers the last page and the export), "no record matches" with a way to clear the filters, or
// a page past the last one.
import { useApi, type Loaded } from '../shared/use-api.js';
import { datasetPath } from '../shared/dataset.js';
import { filterParams, stateSearch, type FilterState } from '../shared/url-state.js';
import type { Field, Page } from '../shared/types.js';
import { Pager, pageCount } from '../shared/pager.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { clearAll, summaryItems } from '../shared/filter-summary.js';
import { pagingCap } from '../shared/plain-errors.js';
import { counted, formatCount, noun } from '../shared/text.js';
import { RecordsTable } from './records-table.js';

/** Records a page of the table shows. */
export const PAGE_SIZE = 20;

export type Row = Readonly<Record<string, unknown>>;

interface Props {
  readonly id: string;
  readonly records: Loaded<Page<Row>>;
  readonly state: FilterState;
  readonly fields: readonly Field[];
  readonly onChange: (next: FilterState) => void;
  readonly onOpen: (row: Row) => void;
}

/** The export tab with the same filters and order: where every record can be had. */
function exportHref(id: string, state: FilterState): string {
  return `/explore/dataset/${encodeURIComponent(id)}/export/${stateSearch({ ...state, page: 1 })}`;
}

/** The count of the filters alone (limit=0), asked only when the page itself could not be. */
function useCountWhen(asked: boolean, id: string, state: FilterState): number | null {
  const params = filterParams(state);
  params.set('limit', '0');
  const answer = useApi<Page<Row>>(asked ? datasetPath(id, '/records') : null, params);
  return asked && answer.data ? answer.data.total_count : null;
}

type Go = (page: number) => void;

function LastPageButton({ pages, go }: { pages: number; go: Go }) {
  return (
    <button type="button" class="link" onClick={() => go(pages)}>
      the last page ({formatCount(pages)})
    </button>
  );
}

/** ?page=600: past what the API pages through; the last page and the export are offered. */
function PastCap({ id, state, total, go }: { id: string; state: FilterState; total: number | null; go: Go }) {
  const pages = total === null ? null : pageCount(total, PAGE_SIZE);
  return (
    <p>
      Page {formatCount(state.page)} cannot be shown: go to{' '}
      {pages === null ? 'the last page' : <LastPageButton pages={pages} go={go} />}, or download{' '}
      <a href={exportHref(id, state)}>
        {total === null ? 'every record' : `all ${counted(total, 'record')}`}
      </a>{' '}
      from the Export tab.
    </p>
  );
}

/** Nothing to show on this page: no record matches, or the page is past the last one. */
function Empty({
  total,
  state,
  onChange,
}: {
  total: number;
  state: FilterState;
  onChange: Props['onChange'];
}) {
  const filtered = summaryItems(state, (name) => name).some((item) => item.key !== 'sort');
  if (total > 0) {
    const pages = pageCount(total, PAGE_SIZE);
    return (
      <div class="empty">
        <p>
          Page {formatCount(state.page)} is past the last page of these records:{' '}
          <LastPageButton pages={pages} go={(page) => onChange({ ...state, page })} />.
        </p>
      </div>
    );
  }
  return (
    <div class="empty" role="status">
      <p>{filtered ? 'No record matches these filters.' : 'This dataset has no records.'}</p>
      {filtered && (
        <button type="button" onClick={() => onChange(clearAll())}>
          Clear all filters
        </button>
      )}
    </div>
  );
}

/** The records region, busy while its request is in flight. */
export function Results({ id, records, state, fields, onChange, onOpen }: Props) {
  const { data, error } = records;
  const cap = error ? pagingCap(error) : null;
  const capTotal = useCountWhen(cap !== null, id, state);
  const total = error ? capTotal : (data?.total_count ?? null);
  const go = (page: number) => onChange({ ...state, page });
  return (
    <div class="records-region" aria-busy={records.loading}>
      <p class="total">
        <output>{total === null ? '…' : formatCount(total)}</output> {noun(total ?? 0, 'record')}
      </p>
      {error?.errorCode === 'QueryLangError' ? (
        <p class="muted">Fix the filter above to see the records.</p>
      ) : error ? (
        <ErrorNotice error={error} onRetry={cap === null ? records.retry : undefined}>
          {cap !== null && <PastCap id={id} state={state} total={capTotal} go={go} />}
        </ErrorNotice>
      ) : data && data.results.length === 0 ? (
        <Empty total={data.total_count} state={state} onChange={onChange} />
      ) : (
        data && (
          <>
            <RecordsTable
              fields={fields}
              rows={data.results}
              state={state}
              onChange={onChange}
              onOpen={onOpen}
            />
            <Pager
              state={state}
              total={data.total_count}
              pageSize={PAGE_SIZE}
              onChange={onChange}
              noun="record"
              rest={<a href={exportHref(id, state)}>Download them all from the Export tab.</a>}
            />
          </>
        )
      )}
    </div>
  );
}
