// The facet sidebar of the catalog and of the table tab: each facet's values with their counts;
// a click on a value refines on it (again: removes it), its "exclude" button excludes it. A long
// facet opens on its first 8 values; opened, it pages by 100 and searches its values
// (facet-search.tsx). What `children` holds (range facets) comes first.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { FacetGroup, FacetValue } from './types.js';
import { formatCount } from './text.js';
import { isPicked, togglePick, type FilterState } from './url-state.js';
import {
  FACET_PAGE,
  FacetPages,
  FacetSearchBox,
  useFacetPage,
  type FacetSearchKind,
} from './facet-search.js';
import './facets.css';

interface Props {
  readonly groups: readonly FacetGroup[];
  readonly state: FilterState;
  readonly onChange: (next: FilterState) => void;
  /** The label of a facet (a field's label), by its name. */
  readonly label: (name: string) => string;
  /** The facets API path the sidebar's answer came from: a facet's pages and search ask it again. */
  readonly path: string;
  /** How a facet's values are searched (null: not at all, as a date or a hierarchy). */
  readonly searchKind: (name: string) => FacetSearchKind;
  readonly children?: ComponentChildren;
}

type ValueProps = { facet: string; value: FacetValue } & Pick<Props, 'state' | 'onChange'>;

function Value({ facet, value, state, onChange }: ValueProps) {
  const refined = isPicked(state.refine, facet, value.value);
  const excluded = isPicked(state.exclude, facet, value.value);
  return (
    <li class={excluded ? 'excluded' : undefined}>
      <div class="facet-row">
        <button
          type="button"
          class="facet-value"
          aria-pressed={refined}
          onClick={() => onChange(togglePick(state, 'refine', facet, value.value))}
        >
          <span class="facet-name">{value.name}</span>{' '}
          <span class="count">{excluded ? '' : formatCount(value.count)}</span>
        </button>
        <button
          type="button"
          class="facet-exclude"
          aria-pressed={excluded}
          title={excluded ? `Stop excluding ${value.name}` : `Exclude ${value.name}`}
          aria-label={excluded ? `Stop excluding ${value.name}` : `Exclude ${value.name}`}
          onClick={() => onChange(togglePick(state, 'exclude', facet, value.value))}
        >
          {excluded ? '↺' : '⊘'}
        </button>
      </div>
      {value.facets?.length ? (
        <NestedValues facet={facet} values={value.facets} state={state} onChange={onChange} />
      ) : null}
    </li>
  );
}

/**
 * Picked values the API's facets leave out (an excluded value; a refined one when nothing matches):
 * listed from the state, with no count, so they can be seen and taken off.
 */
function withExcluded(group: FacetGroup, state: FilterState): FacetValue[] {
  const absent = [...state.refine, ...state.exclude]
    .filter(([field, value]) => field === group.name && !group.facets.some((v) => v.value === value))
    .map(([, value]) => ({ name: value, value, count: 0 }));
  return [...group.facets, ...absent];
}

/** Values shown before "Show all": a long facet (50 states) would push the others out of sight. */
const SHOWN = 8;

type ListProps = { facet: string; values: readonly FacetValue[]; all?: boolean } & Pick<
  Props,
  'state' | 'onChange'
>;

/** The values of a facet (or those below a refined value of a hierarchical one), cut unless `all`. */
function ValueList({ facet, values, all = true, state, onChange }: ListProps) {
  const picked = (value: FacetValue) =>
    isPicked(state.refine, facet, value.value) || isPicked(state.exclude, facet, value.value);
  const shown = all ? values : values.filter((value, index) => index < SHOWN || picked(value));
  return (
    <ul>
      {shown.map((value) => (
        <Value key={value.value} facet={facet} value={value} state={state} onChange={onChange} />
      ))}
    </ul>
  );
}

/** The values below a refined value of a hierarchical facet, cut to SHOWN until asked for all. */
function NestedValues(props: ListProps) {
  const [all, setAll] = useState(false);
  return (
    <>
      <ValueList {...props} all={all} />
      {props.values.length > SHOWN ? (
        <button type="button" class="link" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? 'Show fewer' : `Show all ${props.values.length}`}
        </button>
      ) : null}
    </>
  );
}

type SectionProps = { group: FacetGroup } & Omit<Props, 'groups' | 'children'>;

/** One facet: its label, its values (8, or pages of 100 once opened), a search when it is long. */
function FacetSection({ group, state, onChange, label, path, searchKind }: SectionProps) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const kind = searchKind(group.name);
  const view = useFacetPage(path, group, state, { search, page, kind });
  const name = label(group.name);
  const long = group.facets.length > SHOWN || search !== '' || page > 0;
  // Picked values the answer leaves out are listed on the first page, not in a search or a later page.
  const values = page === 0 && !search ? withExcluded(group, state) : view.values;
  return (
    <section aria-busy={view.loading}>
      <h2>{name}</h2>
      {kind && long && (
        <FacetSearchBox
          label={name}
          value={search}
          onInput={(text) => {
            setSearch(text);
            setPage(0);
            setOpen(true);
          }}
        />
      )}
      {view.error && <p class="error">{view.error}</p>}
      {search && !view.loading && view.values.length === 0 && <p class="muted">No value matches.</p>}
      <ValueList facet={group.name} values={values} all={open} state={state} onChange={onChange} />
      {!open && values.length > SHOWN ? (
        <button type="button" class="link" aria-expanded={false} onClick={() => setOpen(true)}>
          {group.facets.length >= FACET_PAGE ? 'Show more values' : `Show all ${values.length}`}
        </button>
      ) : null}
      {open && (
        <FacetPages label={name} page={page} shown={view.values.length} more={view.more} onPage={setPage} />
      )}
      {open && page === 0 && !search && values.length > SHOWN ? (
        <button type="button" class="link" aria-expanded={true} onClick={() => setOpen(false)}>
          Show fewer
        </button>
      ) : null}
    </section>
  );
}

/** The facets as lists of buttons, each facet a section headed by its label. */
export function FacetList(props: Props) {
  const groups = props.groups.filter(
    (g) => g.facets.length || [...props.state.refine, ...props.state.exclude].some(([f]) => f === g.name),
  );
  return (
    <aside class="facets" aria-label="Filters">
      {props.children}
      {groups.map((group) => (
        <FacetSection key={group.name} group={group} {...props} />
      ))}
    </aside>
  );
}
