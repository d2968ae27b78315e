// A number input of the analyze form, typed freely and counted once committed.
import { useEffect, useState } from 'preact/hooks';

/**
 * A number typed freely (its own text, so a redraw while typing does not reset it), counted once
 * committed: on Enter or when the focus leaves.
 */
export function NumberInput(props: {
  value: string;
  onCommit: (text: string) => void;
  min: string;
  max?: string;
  step: string;
  placeholder?: string;
  label?: string;
}) {
  const [text, setText] = useState(props.value);
  useEffect(() => setText(props.value), [props.value]);
  return (
    <input
      type="number"
      min={props.min}
      max={props.max}
      step={props.step}
      placeholder={props.placeholder}
      aria-label={props.label}
      value={text}
      onInput={(e) => setText(e.currentTarget.value)}
      onChange={(e) => props.onCommit(e.currentTarget.value)}
    />
  );
}
