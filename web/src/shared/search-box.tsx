// A labelled full-text search form: submitting it sets `q` (and goes back to page 1).
import { useEffect, useState } from 'preact/hooks';
import type { FilterState } from './url-state.js';

interface Props {
  readonly state: FilterState;
  readonly onChange: (next: FilterState) => void;
  readonly label: string;
}

/** The search form; its input follows the URL's `q` (Back, a shared link). */
export function SearchBox({ state, onChange, label }: Props) {
  const [text, setText] = useState(state.q);
  useEffect(() => setText(state.q), [state.q]);
  return (
    <form
      role="search"
      class="search"
      onSubmit={(event) => {
        event.preventDefault();
        onChange({ ...state, q: text, page: 1 });
      }}
    >
      <label>
        <span>{label}</span>
        <input type="search" name="q" value={text} onInput={(event) => setText(event.currentTarget.value)} />
      </label>
      <button type="submit">Search</button>
    </form>
  );
}
