// The analyze form's inputs: a number typed freely and counted once committed, a field chosen by
// its label.
import { useEffect, useState } from 'preact/hooks';
import type { Field } from '../shared/types.js';

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

/**
 * A choice of one of `fields` by label (with `none`: the empty value first, so named), in a label
 * saying `text` (else named by `label`).
 */
export function FieldSelect(props: {
  value: string;
  fields: readonly Field[];
  onChange: (name: string) => void;
  none?: string;
  text?: string;
  label?: string;
}) {
  const select = (
    <select
      value={props.value}
      aria-label={props.label}
      onChange={(e) => props.onChange(e.currentTarget.value)}
    >
      {props.none !== undefined && <option value="">{props.none}</option>}
      {props.fields.map((f) => (
        <option key={f.name} value={f.name}>
          {f.label || f.name}
        </option>
      ))}
    </select>
  );
  return props.text ? (
    <label>
      {props.text} {select}
    </label>
  ) : (
    select
  );
}
