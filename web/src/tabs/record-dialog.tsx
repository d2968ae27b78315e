// The whole record in a modal <dialog>: every field's label and value. Escape or Close shuts it
// and the focus goes back to the row.
import { useEffect, useRef } from 'preact/hooks';
import type { Field } from '../shared/types.js';
import { formatValue } from '../shared/format-value.js';

interface Props {
  readonly fields: readonly Field[];
  readonly record: Readonly<Record<string, unknown>> | null;
  readonly onClose: () => void;
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
              <dd>{formatValue(record[field.name])}</dd>
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
