// The information tab: the dataset's metadata, its field schema and its attachments, from the
// dataset lookup (/catalog/datasets/<id>); the filters the other tabs carry are listed above when
// there are any (they do not apply here, but stay removable).
import { Fragment } from 'preact';
import DOMPurify from 'dompurify';
import { mount } from '../shared/mount.js';
import { pageData } from '../shared/page.js';
import { apiUrl } from '../shared/api.js';
import { useApi } from '../shared/use-api.js';
import type { Dataset, DatasetMetas } from '../shared/types.js';
import { formatCount, formatDate } from '../shared/text.js';
import { useUrlState } from '../shared/use-url-state.js';
import { FilterSummary, summaryItems } from '../shared/filter-summary.js';
import { ErrorNotice } from '../shared/error-notice.js';

/** The metas shown as a definition list: [label, value]; empty ones are left out. */
function facts(metas: DatasetMetas): [string, string][] {
  const list = (values: readonly string[] | null | undefined) => (values ?? []).join(', ');
  const rows: [string, string][] = [
    ['Publisher', metas.publisher ?? ''],
    ['Themes', list(metas.theme)],
    ['Keywords', list(metas.keyword)],
    ['Modified', formatDate(metas.modified)],
    ['Data processed', formatDate(metas.data_processed)],
    ['Metadata processed', formatDate(metas.metadata_processed)],
    ['Records', typeof metas.records_count === 'number' ? formatCount(metas.records_count) : ''],
  ];
  return rows.filter(([, value]) => value !== '');
}

function License({ metas }: { metas: DatasetMetas }) {
  if (!metas.license) return null;
  return (
    <>
      <dt>License</dt>
      <dd>{metas.license_url ? <a href={metas.license_url}>{metas.license}</a> : metas.license}</dd>
    </>
  );
}

function Schema({ dataset }: { dataset: Dataset }) {
  return (
    <section>
      <h2>Fields</h2>
      <div class="scroll">
        <table class="schema">
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {dataset.fields.map((field) => (
              <tr key={field.name}>
                <th scope="row">{field.label ?? field.name}</th>
                <td>
                  <code>{field.name}</code>
                </td>
                <td>{field.type}</td>
                <td>{field.description ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Attachments({ dataset }: { dataset: Dataset }) {
  if (!dataset.attachments.length) return null;
  const base = `/catalog/datasets/${encodeURIComponent(dataset.dataset_id)}/attachments/`;
  return (
    <section>
      <h2>Attachments</h2>
      <ul>
        {dataset.attachments.map((attachment) => (
          <li key={attachment.id}>
            <a href={apiUrl(base + encodeURIComponent(attachment.id))} download>
              {attachment.title}
            </a>{' '}
            <span class="muted">({attachment.mimetype})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The filters carried from the other tabs, when there are any. */
function CarriedFilters({ data }: { data: Dataset | null }) {
  const [state, setState] = useUrlState();
  if (!summaryItems(state, (name) => name).length) return null;
  return <FilterSummary state={state} fields={data?.fields ?? []} onChange={setState} />;
}

function Information({ id }: { id: string }) {
  const { data, error, loading, retry } = useApi<Dataset>(`/catalog/datasets/${encodeURIComponent(id)}`);
  return (
    <>
      <CarriedFilters data={data} />
      <div class="information-region" aria-busy={loading}>
        {error ? (
          <ErrorNotice error={error} onRetry={retry} />
        ) : data ? (
          <About data={data} />
        ) : (
          <p>Loading…</p>
        )}
      </div>
    </>
  );
}

function About({ data }: { data: Dataset }) {
  const metas = data.metas.default;
  return (
    <>
      {/* The description is the publisher's HTML: sanitized, links and formatting kept. */}
      <div
        class="description"
        dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(metas.description ?? '') }}
      />
      <dl class="facts">
        <License metas={metas} />
        {facts(metas).map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
      </dl>
      <Schema dataset={data} />
      <Attachments dataset={data} />
    </>
  );
}

mount(<Information id={pageData().dataset ?? ''} />);
