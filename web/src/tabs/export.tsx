// The export tab: one plain link per format the dataset supports (Parquet and CSV first), each
// the API's export URL with the current filters and order.
import { mount } from '../shared/mount.js';
import { pageData } from '../shared/page.js';
import { apiUrl } from '../shared/api.js';
import { useUrlState } from '../shared/use-url-state.js';
import { useApi } from '../shared/use-api.js';
import { datasetPath, useDataset } from '../shared/dataset.js';
import { filterParams, orderBy, type FilterState } from '../shared/url-state.js';
import { FilterSummary } from '../shared/filter-summary.js';

const FORMAT_NAMES = new Map([
  ['parquet', 'Parquet'],
  ['csv', 'CSV'],
  ['xlsx', 'Excel (XLSX)'],
  ['json', 'JSON'],
  ['jsonl', 'JSON Lines'],
  ['arrow', 'Apache Arrow IPC'],
  ['geojson', 'GeoJSON'],
  ['fgb', 'FlatGeobuf'],
  ['shp', 'Shapefile (zip)'],
  ['kml', 'KML'],
  ['gpx', 'GPX'],
  ['ov2', 'TomTom OV2'],
  ['jsonld', 'JSON-LD'],
  ['turtle', 'RDF Turtle'],
  ['n3', 'RDF N3'],
  ['rdfxml', 'RDF/XML'],
]);

/** Parquet and CSV first, then the API's order. */
const FIRST = ['parquet', 'csv'];

interface ExportList {
  readonly links: readonly { rel: string; href: string }[];
}

/** The export URL of `format` for the state: its filters and its order. */
function exportUrl(id: string, format: string, state: FilterState): string {
  const params = filterParams(state);
  const order = orderBy(state.sort);
  if (order) params.set('order_by', order);
  return apiUrl(datasetPath(id, `/exports/${encodeURIComponent(format)}`), params);
}

function Export({ id }: { id: string }) {
  const [state, setState] = useUrlState();
  const dataset = useDataset(id);
  const list = useApi<ExportList>(datasetPath(id, '/exports'));
  const formats = (list.data?.links ?? []).map((link) => link.rel).filter((rel) => rel !== 'self');
  const ordered = [...FIRST.filter((f) => formats.includes(f)), ...formats.filter((f) => !FIRST.includes(f))];
  const error = list.error ?? dataset.error;
  return (
    <>
      <FilterSummary state={state} fields={dataset.data?.fields ?? []} onChange={setState} />
      <section>
        <h2>Download</h2>
        {error && (
          <p role="alert" class="error">
            {error.message}
          </p>
        )}
        <ul class="exports">
          {ordered.map((format) => (
            <li key={format}>
              <a href={exportUrl(id, format, state)} data-format={format} download>
                {FORMAT_NAMES.get(format) ?? format.toUpperCase()}
              </a>{' '}
              <span class="muted">.{format}</span>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

mount(<Export id={pageData().dataset ?? ''} />);
