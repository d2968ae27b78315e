// The portal's sources beside its catalog, as the official JS client names them: `monitoring`
// (the portal's API calls as the dataset ods-api-monitoring, kept by src/monitoring/) and
// `opendatasoft` (the data network, which a portal of its own has none of: an empty catalog).
// Each is a portal of its own to the v2.1 handlers: its datasets, and its catalog table.
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { catalogColumns, catalogRowChange, catalogTable } from '../catalog/catalog-table.js';
import { TOKENS_COLUMN } from '../catalog/catalog-tokens.js';
import {
  defineCatalogSearchSql,
  replaceCatalogSearchSql,
  type CatalogSearchNames,
} from '../search/catalog-search.js';
import type { Dataset, Portal } from '../catalog/portal.js';
import { ORDINAL_COLUMN, RECORD_ID_COLUMN, type TableColumn } from '../catalog/schema.js';
import type { Engine, ParquetFiles } from '../engine/engine.js';
import { catalogCounts } from '../odsql/dialect/duckdb/catalog-counts.js';
import type { QuerySource } from '../odsql/source.js';
import type { Services, SourceData } from '../http/services.js';
import { CallLog, DEFAULT_CALL_LOG, SCHEMA_FILE, type CallLogOptions } from '../monitoring/call-log.js';
import {
  DEFAULT_MONITORING_DAYS,
  MONITORING_DATASET_ID,
  MONITORING_FIELDS,
  monitoringDatasetFile,
} from '../monitoring/dataset.js';
import type { Logger } from '../log.js';

/** The folder of a portal where its API calls are kept. */
export const monitoringDirectory = (portalDir: string): string => path.join(portalDir, 'monitoring');

/** The names the catalog's full-text index is built from (src/search/catalog-search.ts). */
const searchNames = (source: { table: string; searchTable: string }): CatalogSearchNames => ({
  catalog: source.table,
  search: source.searchTable,
  recordId: RECORD_ID_COLUMN,
  ordinal: ORDINAL_COLUMN,
  tokens: TOKENS_COLUMN,
});

/**
 * Defines the catalog table of `portal`'s datasets in the engine, its full-text index and its
 * facet fields' tables of counts; its query source.
 */
export async function defineCatalog(engine: Engine, portal: Portal): Promise<QuerySource> {
  const table = catalogTable(portal);
  await engine.defineJsonTable(table.source.table, table.columns, table.rowLines);
  const counts = catalogCounts(table.source.table, table.source.fields);
  await engine.runStatements([defineCatalogSearchSql(searchNames(table.source)), ...counts.statements]);
  return { ...table.source, valueCounts: counts.valueCounts, elementCounts: counts.elementCounts };
}

/**
 * Brings the catalog's full-text index and tables of counts up to date after the catalog table's
 * rows of `ids` were replaced, added or removed in place (their ordinals given, the others'
 * kept), in one transaction: only the index blocks holding those ids are built again, from the
 * tokens of the rows now in the table; the counts are counted again (at 100,000 datasets, 600,000
 * keywords).
 */
export async function replaceCatalogSearchRows(
  engine: Engine,
  catalog: QuerySource,
  ids: readonly string[],
): Promise<void> {
  if (catalog.searchTable === null || ids.length === 0) return;
  const names = searchNames({ table: catalog.table, searchTable: catalog.searchTable });
  const counts = catalogCounts(catalog.table, catalog.fields);
  await engine.runStatements([...replaceCatalogSearchSql(names, ids), ...counts.statements]);
}

/**
 * Brings the catalog table of `before` (defined as `source`) up to `portal` in place: the rows of
 * the datasets replaced and removed, in one transaction, then their blocks of its full-text index. Its rows are then no longer stored in
 * the catalog's order (`unordered`). Null when it must be defined again (catalogRowChange).
 */
export async function updateCatalog(
  engine: Engine,
  portal: Portal,
  before: Portal,
  source: QuerySource,
): Promise<QuerySource | null> {
  const change = catalogRowChange(portal, before);
  if (change === null) return null;
  const columns = catalogColumns(source.fields);
  const kept = { key: RECORD_ID_COLUMN, kept: ORDINAL_COLUMN, removed: change.removed };
  await engine.defineJsonTable(source.table, columns, change.rowLines, kept);
  await replaceCatalogSearchRows(engine, source, [...change.replaced, ...change.removed]);
  return { ...source, unordered: true };
}

/** A source of `datasets` (none: the data network of a portal that belongs to none). */
async function sourceOf(
  engine: Engine,
  base: Portal,
  prefix: string,
  datasets: readonly Dataset[] = [],
): Promise<SourceData> {
  // A portal made by hand: not the base's load (whose index lines are the base's datasets).
  const portal: Portal = {
    ...base,
    load: undefined,
    viewPrefix: prefix,
    datasets: new Map(datasets.map((d) => [d.id, d])),
    problems: [],
    unloaded: new Set(),
  };
  const catalog = await defineCatalog(engine, portal);
  return { portal: () => portal, catalog: () => catalog };
}

/** The columns of the monitoring files: the dataset's fields, then the hidden record id and ordinal. */
const MONITORING_COLUMNS: readonly TableColumn[] = [
  ...MONITORING_FIELDS.map((f) => ({ name: f.name, type: f.type, multivalued: false })),
  { name: '_recordid', type: 'text', multivalued: false },
  { name: '_ordinal', type: 'int', multivalued: false },
];

/**
 * The monitoring source of a portal: the folder of its calls (made, with an empty file so that
 * its view reads before the first call), a view over every file in it, and the log that keeps
 * this process's calls there.
 */
export async function monitoringSource(
  { engine, parquetFiles: files }: { engine: Engine; parquetFiles: ParquetFiles },
  base: Portal,
  prefix: string,
  options: Pick<CallLogOptions, 'days'> & Partial<CallLogOptions>,
  log: Logger,
): Promise<{ source: SourceData; calls: CallLog }> {
  const dir = monitoringDirectory(base.dir);
  await mkdir(dir, { recursive: true });
  const schema = path.join(dir, SCHEMA_FILE);
  if (!(await stat(schema).catch(() => null))) await files.writeJsonParquet(schema, MONITORING_COLUMNS, '[]');
  const file = monitoringDatasetFile(options.days);
  const dataset: Dataset = {
    id: MONITORING_DATASET_ID,
    view: prefix + MONITORING_DATASET_ID,
    dir,
    parquetPath: schema,
    searchIndexPath: null,
    valueCountsPaths: new Map(),
    file,
    attachments: [],
  };
  await engine.defineView(dataset.view, path.join(dir, '*.parquet'));
  const source = await sourceOf(engine, base, prefix, [dataset]);
  const writer = {
    writeRows: (target: string, rowsJson: string) =>
      files.writeJsonParquet(target, MONITORING_COLUMNS, rowsJson),
    merge: (sources: readonly string[], target: string) => files.mergeParquet(sources, target),
  };
  const calls = new CallLog(dir, writer, { ...DEFAULT_CALL_LOG, ...options }, (message) => log.warn(message));
  await calls.tidy();
  calls.start();
  return { source, calls };
}

/**
 * The sources of a portal beside its catalog: the data network (empty), and the monitoring
 * dataset with the log of its calls unless `monitoringDays` is 0.
 */
export async function portalSources(
  local: { engine: Engine; parquetFiles: ParquetFiles },
  portal: Portal,
  viewPrefix: string,
  options: { monitoringDays?: number; monitoringBatch?: Partial<Omit<CallLogOptions, 'days'>> },
  log: Logger,
): Promise<{ sources: NonNullable<Services['sources']>; calls: CallLog | null }> {
  const days = options.monitoringDays ?? DEFAULT_MONITORING_DAYS;
  const dataNetwork = await sourceOf(local.engine, portal, `${viewPrefix}network/`);
  const batch = { days, ...options.monitoringBatch };
  const monitoring =
    days > 0 ? await monitoringSource(local, portal, `${viewPrefix}monitoring/`, batch, log) : null;
  return {
    sources: { monitoring: monitoring?.source ?? null, dataNetwork },
    calls: monitoring?.calls ?? null,
  };
}
