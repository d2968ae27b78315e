// The dataset sidebar's own parts beside the facet lists: a range facet per date field and per
// number facet (range-facet.tsx), and how each facet's values are searched.
import type { Field } from './types.js';
import { fieldLabel } from './dataset.js';
import type { FacetSearchKind } from './facet-search.js';
import { RangeFacet } from './range-facet.js';
import type { RangeKind } from './ranges.js';
import type { FilterState } from './url-state.js';

/** The range facets a dataset's fields call for: its dates (time-range filters or facets), its number facets. */
export function rangeFields(fields: readonly Field[]): { kind: RangeKind; field: Field }[] {
  return fields.flatMap((field): { kind: RangeKind; field: Field }[] => {
    const notes = field.annotations ?? {};
    if (notes.multivalued !== undefined) return [];
    const date = field.type === 'date' || field.type === 'datetime';
    if (date && (notes.timerangeFilter !== undefined || notes.facet !== undefined))
      return [{ kind: 'date', field }];
    const number = field.type === 'int' || field.type === 'double';
    return number && notes.facet !== undefined ? [{ kind: 'number', field }] : [];
  });
}

/** How a field's facet values are searched: text by its words (a list's elements checked here too); not dates or hierarchies. */
export function searchKind(fields: readonly Field[], name: string): FacetSearchKind {
  const field = fields.find((f) => f.name === name);
  if (!field || field.type !== 'text' || field.annotations?.hierarchical !== undefined) return null;
  return field.annotations?.multivalued !== undefined ? 'list' : 'plain';
}

interface Props {
  readonly fields: readonly Field[];
  /** The records API path of the dataset. */
  readonly path: string;
  readonly state: FilterState;
  readonly onChange: (next: FilterState) => void;
  /** Fields whose values the sidebar lists too: their range facet is headed "<label> range". */
  readonly listed: ReadonlySet<string>;
}

/** One range facet per field that calls for one. */
export function RangeFacets({ fields, path, state, onChange, listed }: Props) {
  return (
    <>
      {rangeFields(fields).map(({ kind, field }) => (
        <RangeFacet
          key={field.name}
          kind={kind}
          field={field}
          label={`${fieldLabel(fields, field.name)}${listed.has(field.name) ? ' range' : ''}`}
          path={path}
          state={state}
          onChange={onChange}
        />
      ))}
    </>
  );
}
