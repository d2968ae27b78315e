// The records as a real <table>: one <th> per field with its label, a click on a header sorts by
// it (again: the other way), a click (or Enter) on a row opens the whole record. Numbers and dates
// are written as the visitor's locale writes them, the API's raw value in the cell's title.
import type { Field } from '../shared/types.js';
import { formatCell, formatValue, isNumericField } from '../shared/format-value.js';

/** Field types the API cannot order by. */
const UNSORTABLE = new Set(['geo_point_2d', 'geo_shape', 'json_blob', 'file']);

type Row = Readonly<Record<string, unknown>>;

interface Props {
  readonly fields: readonly Field[];
  readonly rows: readonly Row[];
  readonly sort: string;
  readonly onSort: (sort: string) => void;
  readonly onOpen: (row: Row) => void;
}

function Header({ field, sort, onSort }: { field: Field; sort: string; onSort: (sort: string) => void }) {
  const label = field.label || field.name;
  if (UNSORTABLE.has(field.type)) return <th scope="col">{label}</th>;
  const direction = sort === field.name ? 'ascending' : sort === `-${field.name}` ? 'descending' : undefined;
  return (
    <th scope="col" aria-sort={direction}>
      <button
        type="button"
        class="sort-button"
        data-field={field.name}
        onClick={() => onSort(direction === 'ascending' ? `-${field.name}` : field.name)}
      >
        {label}
        <span aria-hidden="true">
          {direction === 'ascending' ? ' ▲' : direction === 'descending' ? ' ▼' : ''}
        </span>
      </button>
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
export function RecordsTable({ fields, rows, sort, onSort, onOpen }: Props) {
  return (
    <div class="scroll table-wrap">
      <table class="records">
        <thead>
          <tr>
            {fields.map((field) => (
              <Header key={field.name} field={field} sort={sort} onSort={onSort} />
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
  );
}
