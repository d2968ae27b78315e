// The pager of any paged list: first / previous / a page-number field / next / last, and, when
// the list is longer than the API lets a query page through (offset + limit <= 10,000), a line
// saying so and what to do for the rest (the table links its export).
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { counted, formatCount } from './text.js';
import type { FilterState } from './url-state.js';
import './pager.css';

/** The API serves rows only while offset + limit <= 10,000 (docs/api.md). */
export const RECORD_QUERY_CAP = 10_000;

interface Props {
  readonly state: FilterState;
  readonly total: number;
  readonly pageSize: number;
  readonly onChange: (next: FilterState) => void;
  /** The word for one item of the list ("record", "dataset"). */
  readonly noun: string;
  /** Said after the cap line: how to get the items past it (a link to the export). */
  readonly rest?: ComponentChildren;
}

/** The pages of a list of `total` items: page p is asked as offset (p-1)*size, limit size, so
 * p*size may not pass the cap. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.min(Math.ceil(total / pageSize), Math.floor(RECORD_QUERY_CAP / pageSize)));
}

/** The page-number field: typed then Enter (or Go), kept within 1..pages. */
function PageField({ page, pages, go }: { page: number; pages: number; go: (page: number) => void }) {
  const [text, setText] = useState(String(page));
  useEffect(() => setText(String(page)), [page]);
  return (
    <form
      class="page-field"
      onSubmit={(event) => {
        event.preventDefault();
        const wanted = Math.round(Number(text));
        go(Number.isFinite(wanted) ? Math.min(Math.max(wanted, 1), pages) : page);
      }}
    >
      <label for="page-number">Page</label>
      <input
        id="page-number"
        type="number"
        inputMode="numeric"
        min={1}
        max={pages}
        value={text}
        onInput={(event) => setText(event.currentTarget.value)}
      />
      <span class="of">of {formatCount(pages)}</span>
      <button type="submit">Go</button>
    </form>
  );
}

/** The pager of a list of `total` items (nothing when they fit on one page). */
export function Pager({ state, total, pageSize, onChange, noun, rest }: Props) {
  const pages = pageCount(total, pageSize);
  const capped = total > RECORD_QUERY_CAP;
  if (pages <= 1) return null;
  const go = (page: number) => onChange({ ...state, page });
  const step = (label: string, page: number, disabled: boolean, text: string) => (
    <button type="button" aria-label={label} disabled={disabled} onClick={() => go(page)}>
      {text}
    </button>
  );
  return (
    <>
      <nav class="pager" aria-label="Pages">
        {step('First page', 1, state.page <= 1, 'First')}
        {step('Previous page', state.page - 1, state.page <= 1, 'Previous')}
        <PageField page={state.page} pages={pages} go={go} />
        {step('Next page', state.page + 1, state.page >= pages, 'Next')}
        {step('Last page', pages, state.page >= pages, 'Last')}
      </nav>
      {capped && (
        <p class="cap">
          The first {formatCount(pages * pageSize)} of {counted(total, noun)} can be paged through here (the
          API pages through {formatCount(RECORD_QUERY_CAP)} at most).{rest && ' '}
          {rest}
        </p>
      )}
    </>
  );
}
