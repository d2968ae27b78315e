// A button copying a text (an API URL, a curl line) to the clipboard, saying when it did.
import { useState } from 'preact/hooks';

/** "Copy", then "Copied" once the clipboard took the text. */
export function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={() => {
        navigator.clipboard.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        );
      }}
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
