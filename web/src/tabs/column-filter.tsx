// The filter of one table column, opened from its header: a small popover (the browser's own
// popover: its first control, marked autofocus, takes the focus as it opens, before any key is
// typed; Escape or a click outside closes it, the focus goes back to its button) with a form
// by the field's type: text contains / is exactly, a number range, a date range. Equals on a
// facet field is a refine (as the facet sidebar writes it); anything else is the column's
// `where.<field>` condition (column-conditions.ts).
import { useEffect, useRef } from 'preact/hooks';
import type { Field } from '../shared/types.js';
import { isPicked, togglePick, type FilterState } from '../shared/url-state.js';
import { conditionOf, readCondition, withCondition, type ColumnFilter } from '../shared/column-conditions.js';

type Kind = 'text' | 'range' | 'dates';

const KINDS = new Map<string, Kind>([
  ['text', 'text'],
  ['int', 'range'],
  ['double', 'range'],
  ['decimal', 'range'],
  ['date', 'dates'],
  ['datetime', 'dates'],
]);

/** The kind of filter a field's column offers, or null (geo, files, JSON: none). */
export function filterKind(field: Field): Kind | null {
  return KINDS.get(field.type) ?? null;
}

/** The id of a column's popover (by position: a field name may hold any character). */
const popoverId = (index: number) => `column-filter-${index}`;

interface ToggleProps {
  readonly field: Field;
  readonly index: number;
  readonly state: FilterState;
}

/** The funnel button of a column header, pressed-looking while the column is filtered. */
export function FilterToggle({ field, index, state }: ToggleProps) {
  const label = field.label || field.name;
  const active = state.conditions.some(([name]) => name === field.name);
  return (
    <button
      type="button"
      class={active ? 'filter-toggle active' : 'filter-toggle'}
      popovertarget={popoverId(index)}
      data-field={field.name}
      aria-label={`Filter ${label}${active ? ' (filtered)' : ''}`}
      title={`Filter ${label}`}
    >
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <path d="M1.5 2h13l-5 6.2V14l-3-1.6V8.2z" />
      </svg>
    </button>
  );
}

/** The filter a form's fields describe. */
function filterOf(kind: Kind, form: FormData): ColumnFilter {
  const raw = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const text = (name: string) => raw(name).trim();
  if (kind === 'range') return { kind: 'range', min: text('min'), max: text('max') };
  if (kind === 'dates') return { kind: 'dates', from: text('from'), to: text('to') };
  return { kind: text('op') === 'equals' ? 'equals' : 'contains', value: raw('value') };
}

/** The state a filter applied to `field` leads to. */
function applied(state: FilterState, field: Field, filter: ColumnFilter): FilterState {
  const facet = field.annotations !== undefined && 'facet' in field.annotations;
  if (filter.kind === 'equals' && facet && filter.value !== '') {
    const without = withCondition(state, field.name, null);
    return isPicked(without.refine, field.name, filter.value)
      ? without
      : togglePick(without, 'refine', field.name, filter.value);
  }
  return withCondition(state, field.name, conditionOf(field.name, filter));
}

/** The form's inputs for a kind, filled with the current filter. */
function Inputs({ kind, id, current }: { kind: Kind; id: string; current: ColumnFilter | null }) {
  const pair = (
    names: [string, string],
    labels: [string, string],
    type: 'number' | 'date',
    values: [string, string],
  ) =>
    names.map((name, i) => (
      <label key={name} for={`${id}-${name}`}>
        {labels[i]}
        <input
          id={`${id}-${name}`}
          name={name}
          type={type}
          step="any"
          defaultValue={values[i]}
          autofocus={i === 0}
        />
      </label>
    ));
  if (kind === 'range') {
    const values: [string, string] = current?.kind === 'range' ? [current.min, current.max] : ['', ''];
    return <>{pair(['min', 'max'], ['Minimum', 'Maximum'], 'number', values)}</>;
  }
  if (kind === 'dates') {
    const values: [string, string] = current?.kind === 'dates' ? [current.from, current.to] : ['', ''];
    return <>{pair(['from', 'to'], ['From', 'To (included)'], 'date', values)}</>;
  }
  const text = current?.kind === 'contains' || current?.kind === 'equals' ? current : null;
  return (
    <>
      <label for={`${id}-op`}>
        Match
        <select id={`${id}-op`} name="op" defaultValue={text?.kind ?? 'contains'} autofocus>
          <option value="contains">contains</option>
          <option value="equals">is exactly</option>
        </select>
      </label>
      <label for={`${id}-value`}>
        Text
        <input id={`${id}-value`} name="value" type="text" defaultValue={text?.value ?? ''} />
      </label>
    </>
  );
}

interface PopoverProps extends ToggleProps {
  readonly onChange: (next: FilterState) => void;
}

/** Places the popover under its button, kept inside the window. */
function place(popover: HTMLElement, index: number): void {
  const button = document.querySelector(`[popovertarget="${popoverId(index)}"]`);
  if (!button) return;
  const box = button.getBoundingClientRect();
  popover.style.top = `${box.bottom + 4}px`;
  popover.style.left = `${Math.max(8, Math.min(box.left, innerWidth - popover.offsetWidth - 8))}px`;
}

/** The popover of one column: its form, Apply and (when filtered) Remove. */
export function FilterPopover({ field, index, state, onChange }: PopoverProps) {
  const kind = filterKind(field);
  const popover = useRef<HTMLDivElement>(null);
  const condition = state.conditions.find(([name]) => name === field.name)?.[1];
  const current = condition === undefined ? null : readCondition(field.name, condition);
  const id = popoverId(index);
  useEffect(() => {
    const element = popover.current;
    const onToggle = (event: Event) => {
      if (!element || (event as ToggleEvent).newState !== 'open') return;
      place(element, index);
    };
    element?.addEventListener('toggle', onToggle);
    return () => element?.removeEventListener('toggle', onToggle);
  }, [index]);
  if (!kind) return null;
  const label = field.label || field.name;
  const go = (next: FilterState) => {
    popover.current?.hidePopover();
    onChange(next);
  };
  return (
    <div
      ref={popover}
      id={id}
      popover="auto"
      class="column-filter"
      role="dialog"
      aria-label={`Filter ${label}`}
    >
      <form
        key={condition ?? ''}
        onSubmit={(event) => {
          event.preventDefault();
          go(applied(state, field, filterOf(kind, new FormData(event.currentTarget))));
        }}
      >
        <p class="column-filter-title">Filter {label}</p>
        <Inputs kind={kind} id={id} current={current} />
        <div class="column-filter-actions">
          <button type="submit">Apply</button>
          {condition !== undefined && (
            <button type="button" onClick={() => go(withCondition(state, field.name, null))}>
              Remove
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
