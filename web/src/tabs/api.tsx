// The API tab: the records URL of the current state, ready for curl, and a copy button.
import { mount } from '../shared/mount.js';
import { pageData } from '../shared/page.js';
import { apiUrl } from '../shared/api.js';
import { useUrlState } from '../shared/use-url-state.js';
import { datasetPath, useDataset } from '../shared/dataset.js';
import { pageParams } from '../shared/url-state.js';
import { FilterSummary } from '../shared/filter-summary.js';
import { CopyButton } from '../shared/copy-button.js';

/** The table tab's page size: the URL gives the same page of records as the table. */
const PAGE_SIZE = 20;

/** `text` quoted for a POSIX shell. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function Api({ id }: { id: string }) {
  const [state, setState] = useUrlState();
  const dataset = useDataset(id);
  const url = `${location.origin}${apiUrl(datasetPath(id, '/records'), pageParams(state, PAGE_SIZE))}`;
  const curl = `curl ${shellQuote(url)}`;
  return (
    <>
      <FilterSummary state={state} fields={dataset.data?.fields ?? []} onChange={setState} />
      <section>
        <h2>Records URL</h2>
        <p>
          The records the table shows for these filters, from the{' '}
          <a href={`${pageData().api}/console`}>Explore API v2.1</a>:
        </p>
        <pre class="code">
          <a href={url} id="records-url">
            {url}
          </a>
        </pre>
        <h2>With curl</h2>
        <div class="copy-row">
          <pre class="code">
            <code id="curl">{curl}</code>
          </pre>
          <CopyButton text={curl} />
        </div>
      </section>
    </>
  );
}

mount(<Api id={pageData().dataset ?? ''} />);
