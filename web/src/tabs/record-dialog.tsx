// The whole record in a modal <dialog>: every field's label and value, written as the table's
// cells are (numbers and dates in the visitor's locale, the API's raw value as the title). Escape
// or Close shuts it and the focus goes back to where it was (a row, a record of the map's list).
import { useEffect, useRef } from 'preact/hooks';
import type { Field } from '../shared/types.js';
import { formatCell, formatValue } from '../shared/format-value.js';

interface Props {
  readonly fields: readonly Field[];
  readonly record: Readonly<Record<string, unknown>> | null;
  readonly onClose: () => void;
}

/** One value, with the API's raw value as its title where the text differs from it. */
function Value({ field, value }: { field: Field; value: unknown }) {
  const text = formatCell(value, field);
  const raw = formatValue(value);
  return <dd title={raw !== text ? raw : undefined}>{text}</dd>;
}

/** Shown while `record` is not null. */
export function RecordDialog({ fields, record, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (record && !element.open) element.showModal();
    if (!record && element.open) element.close();
  }, [record]);
  return (
    <dialog ref={dialog} class="record" aria-labelledby="record-title" onClose={onClose}>
      <h2 id="record-title">Record</h2>
      {record && (
        <dl>
          {fields.map((field) => (
            <div key={field.name}>
              <dt>{field.label || field.name}</dt>
              <Value field={field} value={record[field.name]} />
            </div>
          ))}
        </dl>
      )}
      <form method="dialog">
        <button type="submit">Close</button>
      </form>
    </dialog>
  );
}
