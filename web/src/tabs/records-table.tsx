// The records as a real <table>: one <th> per field with its label, a click on a header sorts by
// it (again: the other way), its funnel opens the column's filter; a click (or Enter) on a row
// opens the whole record. Numbers and dates are written as the visitor's locale writes them, the
// API's raw value in the cell's title.
import type { Field } from '../shared/types.js';
import type { FilterState } from '../shared/url-state.js';
import { formatCell, formatValue, isNumericField } from '../shared/format-value.js';
import { filterKind, FilterPopover, FilterToggle } from './column-filter.js';

/** Field types the API cannot order by. */
const UNSORTABLE = new Set(['geo_point_2d', 'geo_shape', 'json_blob', 'file']);

type Row = Readonly<Record<string, unknown>>;

interface Props {
  readonly fields: readonly Field[];
  readonly rows: readonly Row[];
  /** The page's filters: the sort and the column filters are read from it and changed in it. */
  readonly state: FilterState;
  readonly onChange: (next: FilterState) => void;
  readonly onOpen: (row: Row) => void;
}

type HeaderProps = { field: Field; index: number } & Omit<Props, 'fields' | 'rows' | 'onOpen'>;

function Header({ field, index, state, onChange }: HeaderProps) {
  const label = field.label || field.name;
  const { sort } = state;
  const direction = sort === field.name ? 'ascending' : sort === `-${field.name}` ? 'descending' : undefined;
  const onSort = () =>
    onChange({ ...state, sort: direction === 'ascending' ? `-${field.name}` : field.name, page: 1 });
  return (
    <th scope="col" aria-sort={direction}>
      <div class="th-row">
        {UNSORTABLE.has(field.type) ? (
          <span class="th-label">{label}</span>
        ) : (
          <button type="button" class="sort-button" data-field={field.name} onClick={onSort}>
            {label}
            <span aria-hidden="true">
              {direction === 'ascending' ? ' ▲' : direction === 'descending' ? ' ▼' : ''}
            </span>
          </button>
        )}
        {filterKind(field) && <FilterToggle field={field} index={index} state={state} />}
      </div>
    </th>
  );
}

/** One value: formatted, with the API's raw value as its title (every number, date, and any value written otherwise). */
function Cell({ field, value }: { field: Field; value: unknown }) {
  const text = formatCell(value, field);
  const raw = formatValue(value);
  const numeric = isNumericField(field);
  const shown = raw !== '' && (raw !== text || numeric || field.type === 'date' || field.type === 'datetime');
  return (
    <td class={numeric ? 'num' : undefined} title={shown ? raw : undefined}>
      {text}
    </td>
  );
}

/** The table of one page of records. */
export function RecordsTable({ fields, rows, state, onChange, onOpen }: Props) {
  return (
    <>
      <div class="scroll table-wrap">
        <table class="records">
          <thead>
            <tr>
              {fields.map((field, index) => (
                <Header key={field.name} field={field} index={index} state={state} onChange={onChange} />
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr
                key={index}
                tabIndex={0}
                title="Show the whole record"
                onClick={() => onOpen(row)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') {
                    event.preventDefault();
                    onOpen(row);
                  }
                }}
              >
                {fields.map((field) => (
                  <Cell key={field.name} field={field} value={row[field.name]} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* The popovers live outside the table's scroll box (the top layer is not clipped by it). */}
      {fields.map((field, index) => (
        <FilterPopover key={field.name} field={field} index={index} state={state} onChange={onChange} />
      ))}
    </>
  );
}
