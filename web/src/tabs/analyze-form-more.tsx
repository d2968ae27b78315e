// The analyze form's last groups: the split (a text field whose top values each become a series,
// the rest "Others") and the chart type (area and pie offered only where they fit).
import type { Field } from '../shared/types.js';
import { FieldSelect, NumberInput } from './analyze-inputs.js';
import { chartFits, CHARTS, splitFields, TOP_MOST, type Choices } from './analyze-choices.js';

interface Props {
  readonly fields: readonly Field[];
  readonly choices: Choices;
  readonly onChange: (next: Choices) => void;
}

/** The split's field and how many of its values are drawn. */
export function Split({ fields, choices, onChange }: Props) {
  return (
    <fieldset>
      <legend>Split by</legend>
      <FieldSelect
        text="Field"
        value={choices.split}
        fields={splitFields(fields, choices.x)}
        none="none"
        onChange={(split) => onChange({ ...choices, split })}
      />
      {choices.split && (
        <label>
          Top{' '}
          <NumberInput
            min="1"
            max={String(TOP_MOST)}
            step="1"
            value={String(choices.top)}
            onCommit={(top) => onChange({ ...choices, top: Number(top) })}
          />{' '}
          values, the rest as Others
        </label>
      )}
    </fieldset>
  );
}

const WHY: Partial<Record<Choices['chart'], string>> = {
  area: 'an area needs a date or number on the X axis',
  pie: 'a pie needs one count or sum over a text field, not split',
};

/** The chart types: those that do not fit the choices are disabled, saying why. */
export function ChartType({ fields, choices, onChange }: Props) {
  const unfit = CHARTS.filter((chart) => !chartFits(chart, choices, fields));
  return (
    <fieldset>
      <legend>Chart</legend>
      {CHARTS.map((chart) => (
        <label key={chart}>
          <input
            type="radio"
            name="chart"
            value={chart}
            checked={choices.chart === chart}
            disabled={unfit.includes(chart)}
            aria-describedby={unfit.includes(chart) ? 'chart-unfit' : undefined}
            onChange={() => onChange({ ...choices, chart })}
          />{' '}
          {chart}
        </label>
      ))}
      {unfit.length > 0 && (
        <p id="chart-unfit" class="hint">
          {unfit.map((chart) => WHY[chart]).join('; ')}.
        </p>
      )}
    </fieldset>
  );
}
