// The ODSQL `where` box: submitting it sets `where`; the API's QueryLangError is shown beside it,
// and the URL keeps the text, so it can be fixed here or by hand.
import { useEffect, useState } from 'preact/hooks';
import type { ApiFailure } from './api.js';
import type { FilterState } from './url-state.js';

interface Props {
  readonly state: FilterState;
  readonly onChange: (next: FilterState) => void;
  /** The failure of the last query: shown here when it is a QueryLangError. */
  readonly error: ApiFailure | null;
}

/** The where form and its error. */
export function WhereBox({ state, onChange, error }: Props) {
  const [text, setText] = useState(state.where);
  useEffect(() => setText(state.where), [state.where]);
  const queryError = error?.errorCode === 'QueryLangError' ? error : null;
  return (
    <form
      class="where"
      onSubmit={(event) => {
        event.preventDefault();
        onChange({ ...state, where: text, page: 1 });
      }}
    >
      <label for="where">ODSQL filter (where)</label>
      <div class="where-row">
        <input
          id="where"
          name="where"
          value={text}
          spellcheck={false}
          placeholder="e.g. field = 'value' and other > 10"
          aria-invalid={queryError ? true : undefined}
          aria-describedby={queryError ? 'where-error' : undefined}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        <button type="submit">Apply</button>
      </div>
      {queryError && (
        <p id="where-error" class="error" role="alert">
          <strong>{queryError.errorCode || 'Error'}:</strong> {queryError.message}
        </p>
      )}
    </form>
  );
}
