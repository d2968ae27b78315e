// The whole record in a modal <dialog>: every field's label and value, written as the table's
// cells are (numbers and dates in the visitor's locale, the API's raw value as the title). Escape
// or Close shuts it and the focus goes back to where it was (a row, a record of the map's list).
// A record still to fetch (a click on the map) opens the dialog at once, its body busy as every
// data-driven region is while its request is in flight (feedback.css), then filled or failed.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Field } from '../shared/types.js';
import type { ApiFailure } from '../shared/api.js';
import { formatCell, formatValue } from '../shared/format-value.js';
import { failureOf } from '../shared/use-api.js';
import { ErrorNotice } from '../shared/error-notice.js';

type Row = Readonly<Record<string, unknown>>;

/** What the dialog shows: a record, or the request for one, in flight or failed. */
export interface RecordShown {
  readonly record: Row | null;
  readonly loading: boolean;
  readonly error: ApiFailure | null;
  /** Asks the failed request again. */
  readonly retry?: () => void;
}

interface Props {
  readonly fields: readonly Field[];
  /** Null: the dialog is shut. */
  readonly shown: RecordShown | null;
  readonly onClose: () => void;
}

/** A record already at hand, shown as it is. */
export const recordShown = (record: Row | null): RecordShown | null =>
  record && { record, loading: false, error: null };

/**
 * The dialog's state for records fetched on demand: `fetchRecord` opens it busy and fills it with the
 * record its loader answers (a newer fetch or a close aborts the one in flight, whose answer is
 * then dropped); `show` opens a record at hand.
 */
export function useRecordDialog() {
  const [shown, setShown] = useState<RecordShown | null>(null);
  const request = useRef<AbortController | null>(null);
  const close = () => {
    request.current?.abort();
    setShown(null);
  };
  const fetchRecord = (load: (signal: AbortSignal) => Promise<Row | undefined>) => {
    request.current?.abort();
    const controller = (request.current = new AbortController());
    const take = (next: RecordShown | null) => !controller.signal.aborted && setShown(next);
    setShown({ record: null, loading: true, error: null });
    load(controller.signal).then(
      (record) => take(recordShown(record ?? null)),
      (error: unknown) =>
        take({ record: null, loading: false, error: failureOf(error), retry: () => fetchRecord(load) }),
    );
  };
  useEffect(() => () => request.current?.abort(), []);
  return { shown, fetchRecord, show: (record: Row) => setShown(recordShown(record)), close };
}

/** One value, with the API's raw value as its title where the text differs from it. */
function Value({ field, value }: { field: Field; value: unknown }) {
  const text = formatCell(value, field);
  const raw = formatValue(value);
  return <dd title={raw !== text ? raw : undefined}>{text}</dd>;
}

/** Shown while `shown` is not null. */
export function RecordDialog({ fields, shown, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (shown && !element.open) element.showModal();
    if (!shown && element.open) element.close();
  }, [shown]);
  const record = shown?.record ?? null;
  return (
    <dialog ref={dialog} class="record" aria-labelledby="record-title" onClose={onClose}>
      <h2 id="record-title">Record</h2>
      <div class="record-body" aria-busy={shown?.loading ?? false}>
        {shown?.error && <ErrorNotice error={shown.error} onRetry={shown.retry} />}
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
      </div>
      <form method="dialog">
        <button type="submit">Close</button>
      </form>
    </dialog>
  );
}
