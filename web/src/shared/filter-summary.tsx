// The filters of the URL state as a list, each removable: the tabs without their own filter
// controls (export, API) say what their links carry.
import type { ComponentChildren } from 'preact';
import type { Field } from './types.js';
import { fieldLabel } from './dataset.js';
import { togglePick, type FilterState } from './url-state.js';

interface Props {
  readonly state: FilterState;
  readonly fields: readonly Field[];
  readonly onChange: (next: FilterState) => void;
}

function Item({ children, onRemove }: { children: ComponentChildren; onRemove: () => void }) {
  return (
    <li>
      {children}{' '}
      <button type="button" class="link" onClick={onRemove}>
        Remove
      </button>
    </li>
  );
}

/** "No filter" or the list of filters. */
export function FilterSummary({ state, fields, onChange }: Props) {
  const items = [
    state.q && (
      <Item key="q" onRemove={() => onChange({ ...state, q: '' })}>
        Text search: <q>{state.q}</q>
      </Item>
    ),
    state.where && (
      <Item key="where" onRemove={() => onChange({ ...state, where: '' })}>
        Where: <code>{state.where}</code>
      </Item>
    ),
    ...(['refine', 'exclude'] as const).flatMap((list) =>
      state[list].map(([field, value]) => (
        <Item
          key={`${list}.${field}=${value}`}
          onRemove={() => onChange(togglePick(state, list, field, value))}
        >
          {fieldLabel(fields, field)} {list === 'refine' ? 'is' : 'is not'} <q>{value}</q>
        </Item>
      )),
    ),
    state.sort && (
      <Item key="sort" onRemove={() => onChange({ ...state, sort: '' })}>
        Sorted by {fieldLabel(fields, state.sort.replace(/^-/, ''))}
        {state.sort.startsWith('-') ? ', descending' : ''}
      </Item>
    ),
  ].filter(Boolean);
  return (
    <section class="filters">
      <h2>Filters</h2>
      {items.length ? <ul>{items}</ul> : <p>No filter: every record.</p>}
    </section>
  );
}
