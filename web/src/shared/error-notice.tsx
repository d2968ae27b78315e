// A failed request shown in place of what it would have shown: plain words first, the API's own
// text below (it names the parameter or the bound), and a Retry button asking again.
import type { ComponentChildren } from 'preact';
import type { ApiFailure } from './api.js';
import { plainWords } from './plain-errors.js';

interface Props {
  readonly error: ApiFailure;
  /** Asks again; left out where asking again cannot help (a page past the cap). */
  readonly onRetry?: () => void;
  /** What the page offers instead of (or beside) retrying: a link to the last page, to the export. */
  readonly children?: ComponentChildren;
}

/** The error of one region, with its retry. */
export function ErrorNotice({ error, onRetry, children }: Props) {
  return (
    <div role="alert" class="error notice">
      <p class="plain">{plainWords(error)}</p>
      {children}
      <p class="details">
        The server said: <span class="api-message">{error.message}</span>
      </p>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
