// The analyze tab: a chart of the records matching the page's filters, grouped on an X axis, with
// one aggregate per series, optionally split by a second field. The chart's data is what the API
// answers to the queries of analyze-query.ts (the main one's URL is shown to copy); the choices
// live in the URL beside the filters.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { View } from 'vega';
import type { Result } from 'vega-embed';
import { mount } from '../shared/mount.js';
import { pageData } from '../shared/page.js';
import type { ApiFailure } from '../shared/api.js';
import { failureOf } from '../shared/use-api.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { useUrlState } from '../shared/use-url-state.js';
import { datasetPath, fieldLabel, useDataset } from '../shared/dataset.js';
import { FilterSummary } from '../shared/filter-summary.js';
import { CopyButton } from '../shared/copy-button.js';
import { counted, formatCount, noun } from '../shared/text.js';
import type { Field } from '../shared/types.js';
import type { FilterState } from '../shared/url-state.js';
import {
  chartFits,
  choicesParams,
  isAdditive,
  readChoices,
  seriesLabel,
  type Choices,
} from './analyze-choices.js';
import { chartSpec, drawChart, layoutOf, PIE_MOST, type Layout } from './analyze-chart.js';
import type { Drawing } from './analyze-spec.js';
import { loadChart, type ChartData } from './analyze-load.js';
import { ChartDownloads } from './analyze-download.js';
import { AnalyzeForm } from './analyze-form.js';
import './analyze.css';

/** The URL parameters the choices own; the others (the filters) are left as they are. */
const OWN = ['x', 'x.level', 'x.width', 'y', 'chart', 'split', 'split.top'];

/** The choices in the URL, and a setter pushing a new URL with them. */
function useChoices(fields: readonly Field[]): [Choices, (next: Choices) => void] {
  const [search, setSearch] = useState(location.search);
  useEffect(() => {
    const onPop = () => setSearch(location.search);
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  const set = (next: Choices) => {
    const params = new URLSearchParams(location.search);
    for (const name of OWN) params.delete(name);
    for (const [name, value] of choicesParams(next, fields)) params.append(name, value);
    history.pushState(null, '', `${location.pathname}?${params.toString()}`);
    setSearch(location.search);
  };
  return [readChoices(search, fields), set];
}

interface Loaded {
  /** The last chart loaded (kept while the next one loads, so the page does not flicker). */
  readonly data: ChartData | null;
  readonly error: ApiFailure | null;
  readonly loading: boolean;
  readonly retry: () => void;
}

/** Loads the chart's data again whenever the filters or choices change; a later ask aborts the earlier. */
function useChart(path: string, fields: readonly Field[], state: FilterState, choices: Choices): Loaded {
  const [attempt, setAttempt] = useState(0);
  const [held, setHeld] = useState<Omit<Loaded, 'retry'>>({ data: null, error: null, loading: true });
  const measures = choices.series.map((s) => seriesLabel(s, (name) => fieldLabel(fields, name)));
  const key = `${attempt} ${JSON.stringify([state, choices, measures])}`;
  useEffect(() => {
    const controller = new AbortController();
    const take = (next: (last: typeof held) => typeof held) => {
      if (!controller.signal.aborted) setHeld(next);
    };
    setHeld((last) => ({ ...last, loading: true }));
    loadChart({ path, fields, state, choices, measures }, controller.signal).then(
      (data) => take(() => ({ data, error: null, loading: false })),
      (error: unknown) => take((last) => ({ data: last.data, error: failureOf(error), loading: false })),
    );
    return () => controller.abort();
  }, [key]);
  return { ...held, retry: () => setAttempt((n) => n + 1) };
}

/** The chart drawn at the element's width (again when that changes); its view handed up for downloads. */
function ChartView(props: {
  data: ChartData;
  drawing: Omit<Drawing, 'width'>;
  layout: Layout;
  onView: (view: View | null) => void;
}) {
  const element = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const observer = new ResizeObserver(([entry]) => {
      const next = Math.floor(entry?.contentRect.width ?? 0);
      setWidth((last) => (Math.abs(next - last) > 8 ? next : last));
    });
    observer.observe(element.current!);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    if (!width) return;
    let drawn: Result | null = null;
    let gone = false;
    const spec = chartSpec(props.data, { ...props.drawing, width }, props.layout);
    drawChart(element.current!, spec).then(
      (result) => {
        if (gone) return result.finalize();
        drawn = result;
        props.onView(result.view);
      },
      () => undefined,
    );
    return () => {
      gone = true;
      props.onView(null);
      drawn?.finalize();
    };
  }, [props.data, props.layout, width, JSON.stringify(props.drawing)]);
  return (
    <div
      class="chart"
      ref={element}
      role="img"
      aria-label={`Chart of ${counted(props.data.groups, 'group')}`}
    />
  );
}

/** What the chart holds in words: its groups and series, and what was not drawn. */
function Summary({ data, pieRefused }: { data: ChartData; pieRefused: boolean }) {
  const groups = data.groups;
  return (
    <p class="total">
      <output>{formatCount(groups)}</output> {noun(groups, 'group')}
      {data.level ? ` by ${data.level}` : ''}
      {data.split ? `, ${formatCount(data.colours.length)} series` : ''}
      {data.more ? '; the API holds more groups than drawn (narrow the filters or choose wider groups)' : ''}
      {pieRefused ? `. A pie takes 2 to ${PIE_MOST} groups, none negative: drawn as columns.` : ''}
    </p>
  );
}

function Analysis({ id, fields }: { id: string; fields: readonly Field[] }) {
  const [state, setState] = useUrlState();
  const [choices, setChoices] = useChoices(fields);
  const [view, setView] = useState<View | null>(null);
  const answer = useChart(datasetPath(id, '/records'), fields, state, choices);
  const data = answer.data;
  const label = (name: string) => fieldLabel(fields, name);
  const fits = chartFits(choices.chart, choices, fields);
  const layout = data ? layoutOf(data, fits && choices.chart === 'pie') : 'single';
  const drawing: Omit<Drawing, 'width'> = {
    chart: !fits || choices.chart === 'pie' ? 'column' : choices.chart,
    xTitle: data?.level ? `${label(choices.x)}, by ${data.level}` : label(choices.x),
    colourTitle: choices.split ? label(choices.split) : null,
    stack: choices.split !== '' && choices.series.every(isAdditive),
  };
  const url = data ? `${location.origin}${data.url}` : '';
  return (
    <>
      <FilterSummary state={state} fields={fields} onChange={setState} />
      <AnalyzeForm fields={fields} choices={choices} level={data?.level ?? null} onChange={setChoices} />
      <section class="chart-panel" aria-busy={answer.loading} aria-label="Chart">
        {answer.error ? (
          <ErrorNotice error={answer.error} onRetry={answer.retry} />
        ) : (
          data && <Summary data={data} pieRefused={choices.chart === 'pie' && fits && layout !== 'pie'} />
        )}
        {data && !answer.error && (
          <ChartView data={data} drawing={drawing} layout={layout} onView={setView} />
        )}
        <ChartDownloads view={answer.error ? null : view} name={`${id}-chart`} />
        <label for="chart-url">The chart's data from the API</label>
        <div class="copy-row">
          <input
            id="chart-url"
            readOnly
            value={url}
            spellcheck={false}
            onFocus={(e) => e.currentTarget.select()}
          />
          <CopyButton text={url} />
        </div>
      </section>
    </>
  );
}

function Analyze({ id }: { id: string }) {
  const dataset = useDataset(id);
  if (dataset.error) {
    return (
      <p role="alert" class="error">
        {dataset.error.message}
      </p>
    );
  }
  return dataset.data ? <Analysis id={id} fields={dataset.data.fields} /> : <p>Loading…</p>;
}

mount(<Analyze id={pageData().dataset ?? ''} />);
