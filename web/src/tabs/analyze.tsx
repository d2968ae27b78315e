// The analyze tab: a chart of the records matching the page's filters, grouped on an X axis, with
// one aggregate per series. The chart's data is one records query, whose URL is shown to copy;
// the choices live in the URL beside the filters.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Result } from 'vega-embed';
import { mount } from '../shared/mount.js';
import { pageData } from '../shared/page.js';
import { apiUrl } from '../shared/api.js';
import { useApi } from '../shared/use-api.js';
import { useUrlState } from '../shared/use-url-state.js';
import { datasetPath, fieldLabel, useDataset } from '../shared/dataset.js';
import { FilterSummary } from '../shared/filter-summary.js';
import { CopyButton } from '../shared/copy-button.js';
import { counted, formatCount, noun } from '../shared/text.js';
import { formatValue } from '../shared/format-value.js';
import type { Field, Page } from '../shared/types.js';
import { chartParams, choicesParams, readChoices, seriesLabel, type Choices } from './analyze-choices.js';
import { chartSpec, drawChart, type Point } from './analyze-chart.js';
import { AnalyzeForm } from './analyze-form.js';
import './analyze.css';

type Row = Readonly<Record<string, unknown>>;

/** The URL parameters the choices own; the others (the filters) are left as they are. */
const OWN = ['x', 'x.level', 'x.width', 'y', 'chart'];

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

/** The API's rows as the chart's points: one per group and series. */
function pointsOf(rows: readonly Row[], labels: readonly string[]): Point[] {
  return rows.flatMap((row) =>
    labels.map((series, i) => {
      const value = row[`s${i}`];
      return {
        x: row.x === null ? '(empty)' : formatValue(row.x),
        series,
        value: typeof value === 'number' ? value : null,
      };
    }),
  );
}

function ChartView({ points, spec }: { points: readonly Point[]; spec: Parameters<typeof drawChart>[1] }) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let drawn: Result | null = null;
    let gone = false;
    drawChart(element.current!, spec).then(
      (result) => {
        if (gone) result.finalize();
        else drawn = result;
      },
      () => undefined,
    );
    return () => {
      gone = true;
      drawn?.finalize();
    };
  }, [spec]);
  return (
    <div class="chart" ref={element} role="img" aria-label={`Chart of ${counted(points.length, 'value')}`} />
  );
}

function Analysis({ id, fields }: { id: string; fields: readonly Field[] }) {
  const [state, setState] = useUrlState();
  const [choices, setChoices] = useChoices(fields);
  const params = chartParams(state, choices, fields);
  const path = datasetPath(id, '/records');
  const answer = useApi<Page<Row>>(path, params);
  const url = `${location.origin}${apiUrl(path, params)}`;
  const label = (name: string) => fieldLabel(fields, name);
  const labels = choices.series.map((s) => seriesLabel(s, label));
  const rows = answer.data && !answer.error ? answer.data.results : null;
  const [spec, setSpec] = useState<{ points: Point[]; spec: ReturnType<typeof chartSpec> } | null>(null);
  useEffect(() => {
    if (!rows) return;
    const points = pointsOf(rows, labels);
    setSpec({
      points,
      spec: chartSpec(points, { chart: choices.chart, xTitle: label(choices.x), series: labels }),
    });
  }, [rows, choices.chart]);
  return (
    <>
      <FilterSummary state={state} fields={fields} onChange={setState} />
      <AnalyzeForm fields={fields} choices={choices} onChange={setChoices} />
      <section class="chart-panel" aria-busy={answer.loading}>
        {answer.error ? (
          <p role="alert" class="error">
            <strong>{answer.error.errorCode || 'Error'}:</strong> {answer.error.message}
          </p>
        ) : (
          answer.data && (
            <p class="total">
              <output>{formatCount(answer.data.total_count)}</output> {noun(answer.data.total_count, 'group')}
              {answer.data.total_count > answer.data.results.length
                ? `, the first ${formatCount(answer.data.results.length)} drawn`
                : ''}
            </p>
          )
        )}
        {spec && !answer.error && <ChartView points={spec.points} spec={spec.spec} />}
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
