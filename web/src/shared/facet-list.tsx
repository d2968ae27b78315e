// The facet sidebar of the catalog and of the table tab: each facet's values with their counts;
// a click on a value refines on it (again: removes it), its "exclude" button excludes it.
import { useState } from 'preact/hooks';
import type { FacetGroup, FacetValue } from './types.js';
import { formatCount } from './text.js';
import { isPicked, togglePick, type FilterState } from './url-state.js';

interface Props {
  readonly groups: readonly FacetGroup[];
  readonly state: FilterState;
  readonly onChange: (next: FilterState) => void;
  /** The label of a facet (a field's label), by its name. */
  readonly label: (name: string) => string;
}

type ValueProps = { facet: string; value: FacetValue } & Omit<Props, 'groups' | 'label'>;

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
        <ValueList facet={facet} values={value.facets} state={state} onChange={onChange} />
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

type ListProps = { facet: string; values: readonly FacetValue[] } & Omit<Props, 'groups' | 'label'>;

/** The values of a facet (or those below a refined value of a hierarchical one), long lists cut. */
function ValueList({ facet, values, state, onChange }: ListProps) {
  const [all, setAll] = useState(false);
  const picked = (value: FacetValue) =>
    isPicked(state.refine, facet, value.value) || isPicked(state.exclude, facet, value.value);
  const shown = all ? values : values.filter((value, index) => index < SHOWN || picked(value));
  return (
    <>
      <ul>
        {shown.map((value) => (
          <Value key={value.value} facet={facet} value={value} state={state} onChange={onChange} />
        ))}
      </ul>
      {values.length > shown.length || all ? (
        <button type="button" class="link" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? 'Show fewer' : `Show all ${values.length}`}
        </button>
      ) : null}
    </>
  );
}

/** The facets as lists of buttons, each facet a section headed by its label. */
export function FacetList(props: Props) {
  const groups = props.groups.filter(
    (g) => g.facets.length || [...props.state.refine, ...props.state.exclude].some(([f]) => f === g.name),
  );
  return (
    <aside class="facets" aria-label="Filters">
      {groups.map((group) => (
        <section key={group.name}>
          <h2>{props.label(group.name)}</h2>
          <ValueList
            facet={group.name}
            values={withExcluded(group, props.state)}
            state={props.state}
            onChange={props.onChange}
          />
        </section>
      ))}
    </aside>
  );
}
