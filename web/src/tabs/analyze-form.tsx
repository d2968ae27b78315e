// The analyze tab's form: the X axis (a field, a date level, a range width), the series, the
// split and the chart type. Every change is a new URL (analyze.tsx); typed numbers count once
// committed.
import type { Field } from '../shared/types.js';
import type { Level } from './analyze-dates.js';
import { ChartType, Split } from './analyze-form-more.js';
import { FieldSelect, NumberInput } from './analyze-inputs.js';
import {
  aggregateLabel,
  AGGREGATES,
  isNumeric,
  levelsOf,
  numericFields,
  xFields,
  type Choices,
  type Series,
} from './analyze-choices.js';

interface Props {
  readonly fields: readonly Field[];
  readonly choices: Choices;
  readonly onChange: (next: Choices) => void;
  /** The date level drawn (what "automatic" chose), when x is a date. */
  readonly level: Level | null;
}

function XAxis({ fields, choices, onChange, level }: Props) {
  const field = fields.find((f) => f.name === choices.x);
  const levels = levelsOf(field);
  return (
    <fieldset>
      <legend>X axis</legend>
      <FieldSelect
        text="Field"
        value={choices.x}
        fields={xFields(fields)}
        onChange={(x) =>
          onChange({ ...choices, x, width: '', level: '', split: choices.split === x ? '' : choices.split })
        }
      />
      {levels.length > 0 && (
        <label>
          By{' '}
          <select
            value={choices.level}
            onChange={(e) => onChange({ ...choices, level: e.currentTarget.value as Choices['level'] })}
          >
            <option value="">automatic{level && !choices.level ? ` (${level})` : ''}</option>
            {levels.map((each) => (
              <option key={each} value={each}>
                {each}
              </option>
            ))}
          </select>
        </label>
      )}
      {isNumeric(field) && (
        <label>
          Range width{' '}
          <NumberInput
            min="0"
            step="any"
            placeholder="each value"
            value={choices.width}
            onCommit={(width) => onChange({ ...choices, width })}
          />
        </label>
      )}
    </fieldset>
  );
}

function SeriesRow(props: {
  series: Series;
  index: number;
  numeric: readonly Field[];
  onChange: (next: Series | null) => void;
}) {
  const { series, index, numeric, onChange } = props;
  const fns = numeric.length ? AGGREGATES : (['count'] as const);
  return (
    <li>
      <select
        aria-label={`Series ${index + 1}: function`}
        value={series.fn}
        onChange={(e) => {
          const fn = e.currentTarget.value as Series['fn'];
          onChange({ ...series, fn, field: fn === 'count' ? '' : series.field || (numeric[0]?.name ?? '') });
        }}
      >
        {fns.map((fn) => (
          <option key={fn} value={fn}>
            {aggregateLabel(fn)}
          </option>
        ))}
      </select>
      {series.fn === 'percentile' && (
        <NumberInput
          min="1"
          max="99"
          step="1"
          label={`Series ${index + 1}: percentile`}
          value={String(series.p)}
          onCommit={(p) => onChange({ ...series, p: Number(p) })}
        />
      )}
      {series.fn !== 'count' && (
        <FieldSelect
          label={`Series ${index + 1}: field`}
          value={series.field}
          fields={numeric}
          onChange={(field) => onChange({ ...series, field })}
        />
      )}
      {index > 0 && (
        <button type="button" onClick={() => onChange(null)}>
          Remove
        </button>
      )}
    </li>
  );
}

function SeriesList({ fields, choices, onChange }: Props) {
  const numeric = numericFields(fields);
  const change = (index: number, next: Series | null) => {
    const series = choices.series.flatMap((s, i) => (i !== index ? [s] : next ? [next] : []));
    onChange({ ...choices, series });
  };
  return (
    <fieldset>
      <legend>Series</legend>
      <ol class="series">
        {choices.series.map((series, index) => (
          <SeriesRow
            key={index}
            series={series}
            index={index}
            numeric={numeric}
            onChange={(next) => change(index, next)}
          />
        ))}
      </ol>
      <button
        type="button"
        onClick={() => {
          const field = numeric[0]?.name;
          const added: Series = field ? { fn: 'avg', field, p: 50 } : { fn: 'count', field: '', p: 50 };
          onChange({ ...choices, series: [...choices.series, added] });
        }}
      >
        Add a series
      </button>
    </fieldset>
  );
}

/** The whole form. */
export function AnalyzeForm(props: Props) {
  return (
    <form class="analyze-form" onSubmit={(e) => e.preventDefault()}>
      <XAxis {...props} />
      <SeriesList {...props} />
      <Split {...props} />
      <ChartType {...props} />
    </form>
  );
}
