// A range facet of the table's sidebar: a date field's (or a number facet's) histogram under the
// page's other filters, and From/To inputs; the range chosen (inputs, a bar clicked, bars dragged)
// goes into the URL (ranges.ts) and filters every request of the page as one `where`.
import { useEffect, useState } from 'preact/hooks';
import type { Field, Page } from './types.js';
import { useApi } from './use-api.js';
import { filterParams, odsqlField, type FilterState } from './url-state.js';
import { RangeHistogram, type Bar } from './range-histogram.js';
import {
  barStart,
  DATE_STEPS,
  dateStep,
  dayOf,
  isBound,
  numberBarStart,
  numberWidth,
  type DateStep,
  type RangeFilter,
  type RangeKind,
} from './ranges.js';

interface Props {
  readonly kind: RangeKind;
  readonly field: Field;
  readonly label: string;
  /** The records API path of the dataset. */
  readonly path: string;
  readonly state: FilterState;
  readonly onChange: (next: FilterState) => void;
}

type Row = Readonly<Record<string, unknown>>;

/** The state with `field`'s range set to [from, to] (none when both are open), back on page 1. */
export function withRange(
  state: FilterState,
  kind: RangeKind,
  field: string,
  from: string,
  to: string,
): FilterState {
  const others = state.ranges.filter((r) => r.field !== field);
  const low = kind === 'number' ? Number(from) : from;
  const swap = from !== '' && to !== '' && low > (kind === 'number' ? Number(to) : to);
  const range: RangeFilter = { kind, field, from: swap ? to : from, to: swap ? from : to };
  return { ...state, ranges: from || to ? [...others, range] : others, page: 1 };
}

/** How the histogram groups: the group_by key, its noun, and the step from one bar to the next. */
interface Grouping {
  readonly key: string;
  readonly noun: string;
  readonly date: DateStep;
  readonly width: number;
  readonly integer: boolean;
}

/** The grouping of a field whose values span [lo, hi] (as the API wrote them). */
function groupingOf(kind: RangeKind, field: Field, lo: string, hi: string): Grouping {
  const name = odsqlField(field.name);
  const integer = field.type === 'int';
  if (kind === 'date') {
    const date = dateStep(new Date(lo), new Date(hi));
    return { key: date.key(name), noun: date.noun, date, width: 1, integer };
  }
  const width = numberWidth(Number(lo), Number(hi), integer);
  return { key: `range(${name}, ${width})`, noun: `range of ${width}`, date: DATE_STEPS[0]!, width, integer };
}

/** The bars of a group_by answer: dates stepped by the chosen width, numbers by theirs. */
function barsOf(kind: RangeKind, rows: readonly Row[], grouping: Grouping): Bar[] {
  return rows.flatMap((row): Bar[] => {
    const count = Number(row.n ?? 0);
    if (kind === 'date') {
      const start = barStart(row.b);
      if (!start) return [];
      const last = new Date(grouping.date.next(start).getTime() - 1);
      return [{ from: dayOf(start), to: dayOf(last), count, title: dayOf(start) }];
    }
    const start = numberBarStart(row.b);
    if (start === null) return [];
    const end = Number((start + grouping.width - (grouping.integer ? 1 : 0)).toPrecision(12));
    return [{ from: String(start), to: String(end), count, title: `${start} to ${end}` }];
  });
}

/** A bound of the span as the API wrote it (an ISO date or a number), or null. */
const boundOf = (value: unknown): string | null =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : null;

/** The span [lo, hi] of the field under `params`, then its groups at the width the span asks for. */
function useHistogram(kind: RangeKind, field: Field, path: string, params: URLSearchParams) {
  const name = odsqlField(field.name);
  const spanParams = new URLSearchParams(params);
  spanParams.set('select', `min(${name}) as lo, max(${name}) as hi`);
  const span = useApi<Page<Row>>(path, spanParams);
  const lo = boundOf(span.data?.results[0]?.lo);
  const hi = boundOf(span.data?.results[0]?.hi);
  const grouping = lo !== null && hi !== null ? groupingOf(kind, field, lo, hi) : null;
  const groupParams = new URLSearchParams(params);
  groupParams.set('select', 'count(*) as n');
  groupParams.set('group_by', `${grouping?.key ?? ''} as b`);
  groupParams.set('order_by', 'b');
  groupParams.set('limit', '100');
  const groups = useApi<Page<Row>>(grouping ? path : null, groupParams);
  const shown = (bound: string | null) =>
    bound === null ? '' : kind === 'date' ? dayOf(new Date(bound)) : bound;
  return {
    bars: grouping && groups.data ? barsOf(kind, groups.data.results, grouping) : [],
    noun: grouping?.noun ?? '',
    lo: shown(lo),
    hi: shown(hi),
    empty: span.data !== null && grouping === null,
    loading: span.loading || groups.loading,
    error: (span.error ?? groups.error)?.message ?? null,
  };
}

interface BoundProps {
  readonly bound: 'From' | 'To';
  /** The facet's label, which the input's name says too ("Departure from"). */
  readonly facet: string;
  readonly type: 'date' | 'number';
  readonly name: string;
  readonly value: string;
  /** The lowest and highest values under the other filters, as the input's min and max. */
  readonly span: { readonly lo: string; readonly hi: string };
  readonly onInput: (text: string) => void;
}

/** One end of the range: a date or number input labelled From or To. */
function BoundInput({ bound, facet, type, name, value, span, onInput }: BoundProps) {
  return (
    <label>
      <span>{bound}</span>
      <input
        type={type}
        step="any"
        name={name}
        aria-label={`${facet} ${bound.toLowerCase()}`}
        value={value}
        min={span.lo}
        max={span.hi}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    </label>
  );
}

/** The facet: histogram, From/To inputs with Apply, and Clear while a range is set. */
export function RangeFacet({ kind, field, label, path, state, onChange }: Props) {
  const own = state.ranges.find((r) => r.field === field.name);
  const others = { ...state, ranges: state.ranges.filter((r) => r.field !== field.name) };
  const histogram = useHistogram(kind, field, path, filterParams(others));
  const [from, setFrom] = useState(own?.from ?? '');
  const [to, setTo] = useState(own?.to ?? '');
  useEffect(() => {
    setFrom(own?.from ?? '');
    setTo(own?.to ?? '');
  }, [own?.from, own?.to]);
  const valid = isBound(kind, from) && isBound(kind, to);
  const inputType = kind === 'date' ? 'date' : 'number';
  const inside = (bar: Bar): boolean => {
    if (!own) return false;
    const before = (a: string, b: string) => (kind === 'number' ? Number(a) < Number(b) : a < b);
    return !(own.from && before(bar.to, own.from)) && !(own.to && before(own.to, bar.from));
  };
  const id = `range-${field.name}`;
  return (
    <section class="range-facet" aria-busy={histogram.loading} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{label}</h2>
      {histogram.error && <p class="error">{histogram.error}</p>}
      {histogram.empty && <p class="muted">No value under these filters.</p>}
      {histogram.bars.length > 0 && (
        <RangeHistogram
          bars={histogram.bars}
          selected={inside}
          label={`Records by ${histogram.noun}, ${histogram.bars.length} bars from ${histogram.lo} to ${histogram.hi}; click or drag to choose a range`}
          onSelect={(a, b) => onChange(withRange(state, kind, field.name, a, b))}
        />
      )}
      <form
        class="range-inputs"
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) onChange(withRange(state, kind, field.name, from, to));
        }}
      >
        {(
          [
            ['From', from, setFrom],
            ['To', to, setTo],
          ] as const
        ).map(([bound, value, set]) => (
          <BoundInput
            key={bound}
            bound={bound}
            facet={label}
            type={inputType}
            name={`${id}-${bound.toLowerCase()}`}
            value={value}
            span={histogram}
            onInput={set}
          />
        ))}
        <button type="submit" disabled={!valid}>
          Apply
        </button>
        {own && (
          <button
            type="button"
            class="link"
            onClick={() => onChange(withRange(state, kind, field.name, '', ''))}
          >
            Clear
          </button>
        )}
      </form>
    </section>
  );
}
