// Previous / next page buttons and where the page stands, for any paged list.
import { formatCount } from './text.js';
import type { FilterState } from './url-state.js';

interface Props {
  readonly state: FilterState;
  readonly total: number;
  readonly pageSize: number;
  /** The API serves rows only within the first `window` (10,000 records). */
  readonly window?: number;
  readonly onChange: (next: FilterState) => void;
}

/** The pager of a list of `total` items. */
export function Pager({ state, total, pageSize, window = 10_000, onChange }: Props) {
  const pages = Math.max(1, Math.ceil(Math.min(total, window) / pageSize));
  if (pages <= 1) return null;
  const go = (page: number) => onChange({ ...state, page });
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={state.page <= 1} onClick={() => go(state.page - 1)}>
        Previous
      </button>
      <span>
        Page {formatCount(state.page)} of {formatCount(pages)}
      </span>
      <button type="button" disabled={state.page >= pages} onClick={() => go(state.page + 1)}>
        Next
      </button>
    </nav>
  );
}
