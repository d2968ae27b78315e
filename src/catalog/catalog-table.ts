// The catalog as a table of datasets, so that ODSQL queries it like any dataset
// (supplement 2: `<template>.<name>`, `default.` optional).
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { Dataset, Portal } from './dataset-types.js';
import { ORDINAL_COLUMN, RECORD_ID_COLUMN, type Field, type FieldType, type TableColumn } from './schema.js';
import { datasetFeatures, type FeatureView } from './features.js';
import { IndexFile, type IndexLine, type TemplateColumn } from './catalog-index.js';
import { rowTokens, TOKENS_COLUMN } from './catalog-tokens.js';

/** The name of the catalog table in the engine. */
export const CATALOG_TABLE = '_catalog';

/** The name of the catalog's full-text index beside its table (src/search/catalog-search.ts). */
export const catalogSearchTable = (table: string): string => `${table}__search`;

type Column = { name: string; type: FieldType; multivalued: boolean; value: (d: Dataset) => unknown };

const text = (name: string, value: (d: Dataset) => unknown): Column => ({
  name,
  type: 'text',
  multivalued: false,
  value,
});
const list = (name: string, value: (d: Dataset) => unknown): Column => ({
  name,
  type: 'text',
  multivalued: true,
  value,
});
const meta = (d: Dataset, key: string): unknown => d.file.metas.default[key] ?? null;

/** The standard columns: every `default` meta of the spec that a query can filter or facet on. */
/**
 * A dataset's records_count where everyone reads the same count (public, no audience with a row
 * filter); null otherwise: the catalog table is shared, and callers get their own count on the
 * dataset object (src/api/caller-metas.ts).
 */
function sharedCount(dataset: Dataset): number | null {
  const { visibility, access, computed } = dataset.file;
  return visibility === 'public' && access.every((a) => !a.row_filter) ? computed.records_count : null;
}

/** What every reader of the shared table may see: its shared count, no field any audience hides. */
function sharedView(dataset: Dataset): FeatureView {
  const hiddenFields = new Set(dataset.file.access.flatMap((a) => a.hidden_fields));
  return { recordsCount: sharedCount(dataset), hiddenFields };
}

/**
 * The `visibility` meta of a dataset as the public service writes it: `domain` (open to everyone
 * who can see the portal) or `restricted` (open to its audiences only).
 */
export function visibilityMeta(dataset: Dataset): 'domain' | 'restricted' {
  return dataset.file.visibility === 'restricted' ? 'restricted' : 'domain';
}

const STANDARD_COLUMNS: readonly Column[] = [
  text('dataset_id', (d) => d.id),
  text('dataset_uid', (d) => d.file.dataset_uid),
  ...['title', 'description', 'license', 'license_url', 'language', 'publisher', 'references'].map((k) =>
    text(k, (d) => meta(d, k)),
  ),
  ...['theme', 'keyword', 'attributions', 'territory'].map((k) => list(k, (d) => meta(d, k))),
  list('features', (d) => datasetFeatures(d, sharedView(d))),
  {
    name: 'modified',
    type: 'datetime',
    multivalued: false,
    value: (d) => d.file.metas.default.modified ?? d.file.computed.data_processed,
  },
  {
    name: 'data_processed',
    type: 'datetime',
    multivalued: false,
    value: (d) => d.file.computed.data_processed,
  },
  {
    name: 'metadata_processed',
    type: 'datetime',
    multivalued: false,
    value: (d) => d.file.computed.metadata_processed,
  },
  { name: 'records_count', type: 'int', multivalued: false, value: sharedCount },
  {
    name: 'has_records',
    type: 'boolean',
    multivalued: false,
    value: (d) => (sharedCount(d) === null ? null : d.file.computed.records_count > 0),
  },
  text('visibility', visibilityMeta),
];

const FACETS = new Set(['theme', 'keyword', 'publisher', 'license', 'language', 'features', 'modified']);

function typeOfValue(value: unknown): { type: FieldType; multivalued: boolean } {
  if (Array.isArray(value)) return { type: 'text', multivalued: true };
  if (typeof value === 'number') return { type: 'double', multivalued: false };
  if (typeof value === 'boolean') return { type: 'boolean', multivalued: false };
  return { type: 'text', multivalued: false };
}

/** Columns for the non-default templates (`dcat.created`, `custom.x`), typed from their first value. */
function templateColumns(datasets: readonly Dataset[]): Column[] {
  const columns = new Map<string, Column>();
  for (const dataset of datasets) {
    for (const [name, type, multivalued] of ownTemplates(dataset)) {
      if (!columns.has(name)) columns.set(name, templateColumn(name, type, multivalued));
    }
  }
  return [...columns.values()];
}

/** The template column `name` (`template.key`), reading its value from a dataset's metas. */
function templateColumn(name: string, type: string, multivalued: boolean): Column {
  const [template, ...rest] = name.split('.');
  const key = rest.join('.');
  return {
    name,
    type: type as FieldType,
    multivalued,
    value: (d) => (d.file.metas[template!] as Record<string, unknown> | undefined)?.[key] ?? null,
  };
}

/** The template columns a dataset's metas fill, typed from its values (objects and nulls fill none). */
function ownTemplates(dataset: Dataset): TemplateColumn[] {
  const columns: TemplateColumn[] = [];
  for (const [template, metas] of Object.entries(dataset.file.metas)) {
    if (template === 'default') continue;
    for (const [key, value] of Object.entries(metas)) {
      if (value === null || (typeof value === 'object' && !Array.isArray(value))) continue;
      const { type, multivalued } = typeOfValue(value);
      columns.push([`${template}.${key}`, type, multivalued]);
    }
  }
  return columns;
}

/** A dataset's row of the catalog table (its template columns' values by name too), and those columns. */
export function catalogRow(dataset: Dataset): { row: Record<string, unknown>; templates: TemplateColumn[] } {
  const templates = ownTemplates(dataset);
  const row: Record<string, unknown> = {};
  for (const c of STANDARD_COLUMNS) row[c.name] = c.value(dataset);
  for (const [name, type, multivalued] of templates)
    row[name] = templateColumn(name, type, multivalued).value(dataset);
  row[TOKENS_COLUMN] = rowTokens(row);
  return { row, templates };
}

/** The catalog table's definition: its query source, column types, and its rows as JSON lines. */
export interface CatalogTable {
  /** What ODSQL queries it as (a QuerySource, src/odsql/source.ts): its table, its full-text index, its fields. */
  readonly source: {
    readonly table: string;
    readonly searchTable: string;
    readonly fields: readonly Field[];
  };
  /** The table's columns, the hidden record id and ordinal first, its rows' tokens last. */
  readonly columns: readonly TableColumn[];
  /** Its rows, one JSON object a line, in chunks (read once). */
  readonly rowLines: AsyncIterable<Buffer>;
}

/** The start of a row's JSON line: its hidden record id and ordinal. */
const hidden = (id: string, ordinal: number): string =>
  `{${JSON.stringify(RECORD_ID_COLUMN)}:${JSON.stringify(id)},${JSON.stringify(ORDINAL_COLUMN)}:${ordinal},`;

/** Rows gathered into one chunk of the catalog table's lines (each chunk one write). */
const ROWS_PER_CHUNK = 1_000;

/**
 * The rows of the catalog table as JSON lines, in chunks: from the index lines when the portal was
 * loaded through them (each row's JSON as written, without parsing any), else from its datasets.
 * Lines, not one JSON array: DuckDB reads them from a file in parallel (read_json), where one
 * array of 100,000 rows given as a parameter ran past the query deadline.
 */
async function* rowLines(portal: Portal, columns: readonly Column[]): AsyncGenerator<Buffer> {
  const newline = Buffer.from('\n');
  let parts: Buffer[] = [];
  let i = 0;
  const lines = portal.load?.lines;
  for (const id of lines ? lines.keys() : portal.datasets.keys()) {
    if (lines) {
      const line = lines.get(id)!;
      parts.push(Buffer.from(hidden(id, i + 1)), IndexFile.row(line).subarray(1), newline);
    } else {
      const d = portal.datasets.get(id)!;
      const row: Record<string, unknown> = { [RECORD_ID_COLUMN]: d.id, [ORDINAL_COLUMN]: i + 1 };
      for (const c of columns) row[c.name] = c.value(d);
      row[TOKENS_COLUMN] = rowTokens(row);
      parts.push(Buffer.from(`${JSON.stringify(row)}\n`));
    }
    if (++i % ROWS_PER_CHUNK === 0) {
      yield Buffer.concat(parts);
      parts = [];
      // A chunk is a few ms of reads: requests in flight during a reload get their turn between.
      await yieldToEvents();
    }
  }
  if (parts.length > 0) yield Buffer.concat(parts);
}

/** The template columns of a portal, from its index lines' facts or its datasets. */
function portalTemplateColumns(portal: Portal): Column[] {
  if (!portal.load) return templateColumns([...portal.datasets.values()]);
  const columns = new Map<string, Column>();
  for (const line of portal.load.lines.values()) {
    for (const [name, type, multivalued] of line.facts.templates) {
      if (!columns.has(name)) columns.set(name, templateColumn(name, type, multivalued));
    }
  }
  return [...columns.values()];
}

/** A dataset's id is its record id; its ordinal, as a dataset view's, breaks ties in sorts. */
const HIDDEN_COLUMNS: readonly TableColumn[] = [
  { name: RECORD_ID_COLUMN, type: 'text', multivalued: false },
  { name: ORDINAL_COLUMN, type: 'int', multivalued: false },
];

/** The hidden column of a row's search tokens, last. */
const TOKENS: TableColumn = { name: TOKENS_COLUMN, type: 'text', multivalued: false };

/** The columns of the catalog table whose source has `fields` (the table's columns but the uid and hidden ones). */
export function catalogColumns(fields: readonly Field[]): TableColumn[] {
  const uid: TableColumn = { name: 'dataset_uid', type: 'text', multivalued: false };
  const own = fields.map((f) => ({
    name: f.name,
    type: f.type,
    multivalued: f.annotations.multivalued !== undefined,
  }));
  return [...HIDDEN_COLUMNS, uid, ...own, TOKENS];
}

/** Builds the catalog table of a portal. */
export function catalogTable(portal: Portal): CatalogTable {
  const columns = [...STANDARD_COLUMNS, ...portalTemplateColumns(portal)];
  const fields: Field[] = columns
    .filter((c) => c.name !== 'dataset_uid')
    .map((c) => ({
      name: c.name,
      label: c.name,
      type: c.type,
      description: null,
      annotations: {
        ...((FACETS.has(c.name) || portal.settings.catalog_facets.includes(c.name)) && { facet: [] }),
        ...(c.multivalued && { multivalued: [','] }),
        ...(c.name === 'modified' && { timerangeFilter: [] }),
      },
    }));
  const table = portal.viewPrefix + CATALOG_TABLE;
  return {
    source: { table, searchTable: catalogSearchTable(table), fields },
    columns: [
      ...HIDDEN_COLUMNS,
      ...columns.map(({ name, type, multivalued }) => ({ name, type, multivalued })),
      TOKENS,
    ],
    rowLines: rowLines(portal, columns),
  };
}

/** Rows a reload replaces in place at most; past them the table is defined again (one statement). */
const IN_PLACE_ROWS = 10_000;

/** The change of a catalog table a reload makes in place: the rows replaced (their JSON lines and ids), the ids removed. */
export interface CatalogRowChange {
  readonly rowLines: readonly Buffer[];
  readonly replaced: readonly string[];
  readonly removed: readonly string[];
}

/**
 * What `before`'s catalog table needs to become `portal`'s in place, or null when it must be defined
 * again: a dataset added (its ordinal would fall between its neighbours'), a replaced or removed
 * row whose template columns differ (the table's columns would), more than IN_PLACE_ROWS rows.
 */
export function catalogRowChange(portal: Portal, before: Portal): CatalogRowChange | null {
  const [lines, old] = [portal.load?.lines, before.load?.lines];
  const changes = portal.load?.changes;
  if (!lines || !old || !changes || changes.added.length > 0) return null;
  if (changes.replaced.length + changes.removed.length > IN_PLACE_ROWS) return null;
  const templates = (line: IndexLine | undefined): string => JSON.stringify(line?.facts.templates ?? []);
  if (changes.replaced.some((id) => templates(lines.get(id)) !== templates(old.get(id)))) return null;
  if (changes.removed.some((id) => templates(old.get(id)) !== '[]')) return null;
  // The ordinal written is a placeholder: each row keeps the one of the row it replaces.
  const rowLines = changes.replaced.map((id) =>
    Buffer.concat([Buffer.from(hidden(id, 0)), IndexFile.row(lines.get(id)!).subarray(1), Buffer.from('\n')]),
  );
  return { rowLines, replaced: changes.replaced, removed: changes.removed };
}
