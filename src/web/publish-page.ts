// The HTML of the account page's Datasets tab, rendered on the server like the rest of the account
// page (it works without JavaScript): the publish form (a file or a URL) and the portal's
// datasets with Replace and Delete; a draft's preview (fields, types, problems, first rows) with
// the form of its metadata; the confirmation of a deletion.
import { escapeHtml } from './layout.js';
import { alert, form } from './account-page.js';
import type { Draft, DraftSettings } from './publish-drafts.js';
import { wholeReaders } from './publish-settings.js';

/** Where the Datasets tab's forms post to. */
export const PUBLISH_PATHS = {
  tab: '/account/datasets/',
  drafts: '/account/datasets/drafts',
  draft: (token: string) => `/account/datasets/drafts/${token}`,
  publish: (token: string) => `/account/datasets/drafts/${token}/publish`,
  discard: (token: string) => `/account/datasets/drafts/${token}/discard`,
  remove: (id: string) => `/account/datasets/${encodeURIComponent(id)}/delete`,
} as const;

/** The formats ingest reads, as the file input's `accept`. */
const ACCEPT = '.csv,.tsv,.txt,.json,.jsonl,.ndjson,.geojson,.parquet,.xlsx';

/** A dataset as the tab lists it. */
export interface ListedDataset {
  readonly id: string;
  readonly title: string;
  readonly records: number;
  readonly visibility: string;
}

const field = (id: string, label: string, input: string): string =>
  `<p><label for="${id}">${label}</label> ${input}</p>`;

const text = (name: string, value: string, extra = ''): string =>
  `<input id="${name}" name="${name}" value="${escapeHtml(value)}" autocomplete="off"${extra}>`;

/** The publish form: a dataset id, and a file or a URL. */
function sourceForm(csrf: string, id: string, maxBytes: number): string {
  const mib = Math.floor(maxBytes / 2 ** 20);
  return (
    `<form method="post" action="${PUBLISH_PATHS.drafts}" enctype="multipart/form-data" id="publish">` +
    `<input type="hidden" name="_csrf" value="${escapeHtml(csrf)}">` +
    field(
      'id',
      'Dataset id <span class="muted">(lowercase letters, digits, _ and -; an existing id is replaced)</span>',
      text('id', id, ' required maxlength="100" pattern="[a-z0-9][a-z0-9_\\-]*"'),
    ) +
    field(
      'file',
      `File <span class="muted">(CSV, TSV, JSON, JSON lines, GeoJSON, Parquet or .xlsx; at most ${mib} MiB)</span>`,
      `<input id="file" name="file" type="file" accept="${ACCEPT}">`,
    ) +
    field('url', 'or a URL <span class="muted">(http or https)</span>', text('url', '', ' type="url"')) +
    '<button type="submit">Upload and preview</button></form>'
  );
}

function datasetRow(dataset: ListedDataset): string {
  const id = escapeHtml(dataset.id);
  const cells = [
    `<a href="/explore/dataset/${encodeURIComponent(dataset.id)}/">${escapeHtml(dataset.title)}</a>`,
    `<code>${id}</code>`,
    dataset.records.toLocaleString('en'),
    escapeHtml(dataset.visibility),
    `<a href="${PUBLISH_PATHS.tab}?id=${encodeURIComponent(dataset.id)}#publish" aria-label="Replace ${id}">Replace</a> ` +
      `<a href="${PUBLISH_PATHS.remove(dataset.id)}" aria-label="Delete ${id}">Delete</a>`,
  ];
  const names = ['Title', 'Id', 'Records', 'Visibility', 'Actions'];
  return `<tr>${cells.map((cell, i) => `<td data-label="${names[i]!}">${cell}</td>`).join('')}</tr>`;
}

/** The Datasets tab: a message, the publish form, the datasets (the first `shown` of `total`). */
export function datasetsMain(
  top: string,
  csrf: string,
  datasets: readonly ListedDataset[],
  total: number,
  notice: {
    readonly message?: string;
    readonly done?: string;
    readonly id?: string;
    readonly maxBytes: number;
  },
): string {
  const done = notice.done === undefined ? '' : `<p role="status">${escapeHtml(notice.done)}</p>`;
  const more =
    total > datasets.length
      ? `<p>${total - datasets.length} more datasets: give an id in the form to replace one.</p>`
      : '';
  const table =
    datasets.length === 0
      ? '<p>The portal has no datasets yet.</p>'
      : '<div class="scroll" tabindex="0" role="region" aria-label="The portal\'s datasets"><table class="keys"><thead><tr>' +
        ['Title', 'Id', 'Records', 'Visibility', 'Actions'].map((h) => `<th scope="col">${h}</th>`).join('') +
        `</tr></thead><tbody>${datasets.map(datasetRow).join('')}</tbody></table></div>${more}`;
  return (
    `${top}<section class="publish" aria-labelledby="datasets-heading"><h2 id="datasets-heading">Datasets</h2>` +
    `${alert(notice.message ?? null)}${done}<h3>Publish a dataset</h3>` +
    `${sourceForm(csrf, notice.id ?? '', notice.maxBytes)}<h3>The portal's datasets</h3>${table}</section>`
  );
}

function fieldsTable(draft: Draft): string {
  const rows = draft.fields
    .map(
      (f) =>
        `<tr><td><code>${escapeHtml(f.name)}</code></td><td>${escapeHtml(f.label)}</td><td>${f.type}</td></tr>`,
    )
    .join('');
  return (
    '<div class="scroll" tabindex="0" role="region" aria-label="Detected fields"><table><thead><tr>' +
    '<th scope="col">Name</th><th scope="col">Label</th><th scope="col">Type</th></tr></thead>' +
    `<tbody>${rows}</tbody></table></div>`
  );
}

function previewTable(draft: Draft): string {
  const head = draft.preview.columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('');
  const rows = draft.preview.rows
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
    .join('');
  return (
    '<div class="scroll" tabindex="0" role="region" aria-label="The first records">' +
    `<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`
  );
}

/** A text field holding a list, its values separated by commas. */
const listField = (name: string, label: string, values: readonly string[]): string =>
  field(name, `${label} <span class="muted">(separated by commas)</span>`, text(name, values.join(', ')));

function checked(on: boolean): string {
  return on ? ' checked' : '';
}

/** The metadata form of a draft, filled with `settings`. */
function settingsForm(draft: Draft, csrf: string, settings: DraftSettings): string {
  const facets = draft.fields
    .map(
      (f, i) =>
        `<label><input type="checkbox" id="facet-${i}" name="facet" value="${escapeHtml(f.name)}"` +
        `${checked(settings.facets.includes(f.name))}> ${escapeHtml(f.label)}</label>`,
    )
    .join(' ');
  const visibility = (['public', 'restricted'] as const)
    .map(
      (v) =>
        `<label><input type="radio" name="visibility" value="${v}"${checked(settings.visibility === v)}> ${v}</label>`,
    )
    .join(' ');
  const readers = wholeReaders(settings.access);
  const filtered =
    settings.access.length -
    settings.access.filter((a) => a.row_filter === null && a.hidden_fields.length === 0).length;
  const kept =
    filtered > 0
      ? `<p>${filtered} audiences with a row filter or hidden fields are kept as they are.</p>`
      : '';
  const fields =
    field('title', 'Title', text('title', settings.title, ' required maxlength="300"')) +
    field(
      'description',
      'Description <span class="muted">(HTML)</span>',
      `<textarea id="description" name="description" rows="4">${escapeHtml(settings.description)}</textarea>`,
    ) +
    listField('keyword', 'Keywords', settings.keyword) +
    listField('theme', 'Themes', settings.theme) +
    field('license', 'License', text('license', settings.license)) +
    `<fieldset><legend>Facets</legend>${facets}</fieldset>` +
    `<fieldset><legend>Visibility</legend>${visibility}</fieldset>` +
    '<fieldset><legend>Readers of the whole dataset <span class="muted">(a restricted dataset shows its data to them only; * is everyone)</span></legend>' +
    listField('users', 'Users', readers.users) +
    listField('groups', 'Groups', readers.groups) +
    `${kept}</fieldset>`;
  const button = draft.replaces ? `Replace ${draft.dataset}` : `Publish ${draft.dataset}`;
  return form(PUBLISH_PATHS.publish(draft.token), csrf, fields, button);
}

/** A draft's preview and the form that publishes it. */
export function draftMain(
  top: string,
  draft: Draft,
  csrf: string,
  notice: { readonly message?: string; readonly settings?: DraftSettings },
): string {
  const encoding = draft.encoding ? `, ${escapeHtml(draft.encoding)}` : '';
  const action = draft.replaces
    ? `Publishing replaces the current version of <code>${escapeHtml(draft.dataset)}</code>.`
    : `Publishing makes the new dataset <code>${escapeHtml(draft.dataset)}</code>.`;
  const problems =
    draft.problems.length === 0
      ? '<p>No problems found: every value is stored as written.</p>'
      : `<ul>${draft.problems.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul>`;
  return (
    `${top}<section class="publish" aria-labelledby="draft-heading"><h2 id="draft-heading">Preview of ${escapeHtml(draft.dataset)}</h2>` +
    alert(notice.message ?? null) +
    `<p>From <strong>${escapeHtml(draft.source)}</strong> (${draft.format}${encoding}): ` +
    `<span id="records-count">${draft.recordsCount}</span> records, ${draft.fields.length} fields. ${action}</p>` +
    `<h3>Fields</h3>${fieldsTable(draft)}<h3>Problems</h3>${problems}` +
    `<h3>The first ${draft.preview.rows.length} records</h3>${previewTable(draft)}` +
    `<h3>Metadata</h3>${settingsForm(draft, csrf, notice.settings ?? draft.settings)}` +
    `${form(PUBLISH_PATHS.discard(draft.token), csrf, '', 'Discard this draft')}</section>`
  );
}

/** The confirmation of a deletion. */
export function deleteMain(top: string, dataset: ListedDataset, csrf: string): string {
  const id = escapeHtml(dataset.id);
  return (
    `${top}<section class="publish" aria-labelledby="delete-heading"><h2 id="delete-heading">Delete ${escapeHtml(dataset.title)}?</h2>` +
    `<p>The dataset <code>${id}</code>, its ${dataset.records.toLocaleString('en')} records, its attachments ` +
    'and its settings are removed from the portal. This cannot be undone.</p>' +
    form(PUBLISH_PATHS.remove(dataset.id), csrf, '', `Delete ${dataset.id}`) +
    `<p><a href="${PUBLISH_PATHS.tab}">Cancel</a></p></section>`
  );
}
