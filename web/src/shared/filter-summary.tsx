// The filters of the URL state as one list, each item with its own remove control, and "Clear
// all": shown on every tab (and on the catalog), whether or not anything matches, so a filter
// that leaves nothing can always be seen and taken off. Each kind of filter adds its items to the
// one array of summaryItems.
import type { Field } from './types.js';
import { fieldLabel } from './dataset.js';
import { EMPTY_STATE, togglePick, type FilterState } from './url-state.js';
import { describeCondition, withCondition } from './column-conditions.js';
import { rangeText } from './ranges.js';

/** One active filter: what the page says of it and the state without it. */
export interface SummaryItem {
  readonly key: string;
  /** Plain words ("State is CA"); also the accessible name of its remove button. */
  readonly text: string;
  /** An ODSQL text shown as code after the words (a where). */
  readonly code?: string;
  readonly remove: (state: FilterState) => FilterState;
}

/** Every active filter of `state`, in the order the page shows them; `label` names a field. */
export function summaryItems(state: FilterState, label: (name: string) => string): SummaryItem[] {
  const items: SummaryItem[] = [];
  if (state.q) items.push({ key: 'q', text: `Text search “${state.q}”`, remove: (s) => ({ ...s, q: '' }) });
  for (const list of ['refine', 'exclude'] as const) {
    for (const [field, value] of state[list]) {
      items.push({
        key: `${list}.${field}=${value}`,
        text: `${label(field)} ${list === 'refine' ? 'is' : 'is not'} “${value}”`,
        remove: (s) => togglePick(s, list, field, value),
      });
    }
  }
  if (state.where) {
    items.push({ key: 'where', text: 'Where', code: state.where, remove: (s) => ({ ...s, where: '' }) });
  }
  for (const [field, condition] of state.conditions) {
    const words = describeCondition(label(field), field, condition);
    items.push({
      key: `where.${field}`,
      text: words ?? `${label(field)}, where`,
      ...(words === null && { code: condition }),
      remove: (s) => withCondition(s, field, null),
    });
  }
  for (const range of state.ranges) {
    items.push({
      key: `range.${range.field}`,
      text: rangeText(range, label(range.field)),
      remove: (s) => ({ ...s, ranges: s.ranges.filter((r) => r.field !== range.field) }),
    });
  }
  if (state.sort) {
    const descending = state.sort.startsWith('-');
    items.push({
      key: 'sort',
      text: `Sorted by ${label(state.sort.replace(/^-/, ''))}${descending ? ', descending' : ''}`,
      remove: (s) => ({ ...s, sort: '' }),
    });
  }
  return items;
}

/** The state without any filter (nor sort): what "Clear all" leads to. */
export function clearAll(): FilterState {
  return EMPTY_STATE;
}

interface Props {
  readonly state: FilterState;
  readonly fields: readonly Field[];
  readonly onChange: (next: FilterState) => void;
  /** Names a filter's field; the dataset's field labels unless told (the catalog's facets). */
  readonly label?: (name: string) => string;
  /** What the list holds without a filter ("every record"). */
  readonly everything?: string;
}

/** "No filter" or the list of filters with "Clear all". */
export function FilterSummary({ state, fields, onChange, label, everything = 'every record' }: Props) {
  const items = summaryItems(state, label ?? ((name) => fieldLabel(fields, name)));
  const go = (next: FilterState) => onChange({ ...next, page: 1 });
  return (
    <section class="filters" aria-labelledby="filters-title">
      <h2 id="filters-title">Filters</h2>
      {items.length ? (
        <div class="filter-list">
          <ul>
            {items.map((item) => (
              <li key={item.key}>
                <span>{item.text}</span>
                {item.code !== undefined && <code>{item.code}</code>}
                <button
                  type="button"
                  class="remove"
                  aria-label={`Remove: ${item.text}${item.code ? ` ${item.code}` : ''}`}
                  title="Remove this filter"
                  onClick={() => go(item.remove(state))}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
          <button type="button" class="link clear-all" onClick={() => go(clearAll())}>
            Clear all
          </button>
        </div>
      ) : (
        <p class="muted">No filter: {everything}.</p>
      )}
    </section>
  );
}
