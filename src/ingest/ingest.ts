// ingest: one source file -> one dataset directory (data.parquet, value counts, search index, dataset.json, attachments), all or nothing.
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DatasetFile } from '../catalog/schema.js';
import { buildSearchIndex } from '../search/build-index.js';
import { autoFacetsWanted, chooseAutoFacets, withoutAutoFacets } from './auto-facets.js';
import { computeFacts, isoNow } from './computed.js';
import { attachmentsOf, copyAttachments, withAttachmentEntries } from './copy-attachments.js';
import { buildDatasetFile, readPreviousDatasetFile, settingsByField } from './dataset-file.js';
import { checkSourceFile, detectInputFormat, type InputFormat } from './input-format.js';
import { describeProblems, findProblems, hasProblems, recordsAreLines } from './problems.js';
import { resolveField } from './plan.js';
import { ensurePortalFile } from './portal-file.js';
import { IngestProgress, type ProgressSinks } from './progress.js';
import { replaceDatasetDirectory } from './staging.js';
import { sortKey } from './sort-key.js';
import { planStoredData, storedFields, writeStoredData, type StoredData } from './stored-data.js';
import { writeValueCounts } from './value-counts.js';
import { readSource, TEXT_FORMATS } from './read-source.js';
import { DEFAULT_MAX_DOWNLOAD, isUrl, withDownload } from './download.js';
import { carryProcessingDates, sameFileContent } from './unchanged.js';
import { withWorkConnection, type ConnectBeside } from './work-connection.js';
import { recordSource } from './source-record.js';
import { checkDatasetId, withDatasetLock } from './dataset-lock.js';

import type { IngestOptions, IngestReport } from './ingest-options.js';

export type { IngestOptions, IngestReport };

function progressSinks(options: IngestOptions): ProgressSinks {
  return {
    ...(options.progress ? { line: options.progress } : {}),
    ...(options.progressTerminal ? { terminal: options.progressTerminal } : {}),
    ...(options.progressEveryMs !== undefined ? { everyMs: options.progressEveryMs } : {}),
  };
}

/**
 * Ingests `options.file` (a path, or an http(s) URL downloaded first) as dataset `options.id` of
 * the portal, replacing any previous version atomically.
 */
export async function ingest(options: IngestOptions): Promise<IngestReport> {
  checkDatasetId(options.id);
  const locked = (file: IngestOptions, source?: string): Promise<IngestReport> =>
    withDatasetLock(options.portal, options.id, () => ingestFile(file, source));
  if (!isUrl(options.file)) return locked(options);
  const download = {
    maxBytes: options.maxDownload ?? DEFAULT_MAX_DOWNLOAD,
    ...(options.downloadStallMs !== undefined ? { stallMs: options.downloadStallMs } : {}),
    ...(options.progress ? { progress: options.progress } : {}),
  };
  return withDownload(options.file, download, (file, downloaded) =>
    locked({ ...options, file, downloaded }, options.file),
  );
}

/** Ingests a local file, holding the dataset's lock; `source` is what the user named (the URL of a download). */
async function ingestFile(options: IngestOptions, source = options.file): Promise<IngestReport> {
  await checkSourceFile(options.file);
  attachmentsOf(options);
  const format = options.format ?? (await detectInputFormat(options.file));
  const datasetsDir = path.join(options.portal, 'datasets');
  const finalDir = path.join(datasetsDir, options.id);
  const previous = await readPreviousDatasetFile(path.join(finalDir, 'dataset.json'));
  const started = Date.now();
  const report = await replaceDatasetDirectory(datasetsDir, options.id, (staging) =>
    withWorkConnection(async (connection, workDir, connectBeside) => {
      const progress = new IngestProgress(options.id, connection, progressSinks(options));
      const context = {
        connection,
        connectBeside,
        workDir,
        staging,
        finalDir,
        format,
        previous,
        options,
        source,
        progress,
      };
      const built = await buildDataset(context).finally(() => progress.stop());
      // Last, so that a failed ingest into a new folder leaves no portal.json behind.
      await ensurePortalFile(options.portal);
      return built;
    }),
  );
  options.progress?.(
    `${options.id}: ${report.recordsCount} records in ${((Date.now() - started) / 1000).toFixed(1)} s` +
      (report.summary.length > 0
        ? `; ${report.summary.length} ${report.summary.length === 1 ? 'problem' : 'problems'}:`
        : ''),
  );
  for (const line of report.summary) options.progress?.(`${options.id}: ${line}`);
  return { ...report, directory: finalDir };
}

interface BuildContext {
  readonly connection: DuckDBConnection;
  readonly connectBeside: ConnectBeside;
  readonly workDir: string;
  readonly staging: string;
  readonly finalDir: string;
  readonly format: InputFormat;
  readonly previous: DatasetFile | null;
  readonly options: IngestOptions;
  /** The source as the user named it (a URL's, not its downloaded copy's), for messages. */
  readonly source: string;
  readonly progress: IngestProgress;
}

/** Fills the staging directory: data.parquet, value counts, dataset.json, the search index, attachments. */
async function buildDataset(context: BuildContext): Promise<Omit<IngestReport, 'directory'>> {
  const { connection, staging, options, previous, progress } = context;
  const { source, encoding, data, problems, summary } = await readAndPlan(context);
  const types = data.columns.map((c) => `${c.name}: ${c.type}`).join(', ');
  const sortBy = sortKey(data.columns, options, withoutAutoFacets(previous), source.rowCount);
  const sorted = sortBy.length > 0 ? `; sorted on ${sortBy.join(', ')}` : '';
  progress.phase('writing data.parquet', { rows: source.rowCount }, `${types}${sorted}`);
  const dataPath = path.join(staging, 'data.parquet');
  await writeStoredData(connection, data, dataPath, source.rowCount, sortBy);
  progress.phase('building the search index');
  // The index reads only data.parquet's text fields: it is built beside the facts, distinct and
  // value counts, whose statements leave a core idle (200 columns: 3.45 s -> 3.25 wall).
  const described = async (): Promise<DatasetFile> => {
    const beside = await context.connectBeside();
    return describeDataset({ ...context, connection: beside }, data, dataPath, sortBy);
  };
  const [datasetFile] = await bothSettled(
    described(),
    buildSearchIndex(connection, staging, storedFields(data)),
  );
  await writeFile(path.join(staging, 'dataset.json'), `${JSON.stringify(datasetFile, null, 2)}\n`);
  progress.stop();
  await copyAttachments(context.finalDir, staging, attachmentsOf(options));
  return {
    datasetId: options.id,
    format: context.format,
    encoding,
    recordsCount: datasetFile.computed.records_count,
    fields: datasetFile.fields,
    recordIdField: data.idField,
    dataChanged: datasetFile.computed.data_processed !== previous?.computed.data_processed,
    problems,
    summary,
  };
}

/** Both results once both promises have settled (never one running on a closed connection), or the first error. */
async function bothSettled<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [x, y] = await Promise.allSettled([a, b]);
  if (x.status === 'rejected') throw x.reason;
  if (y.status === 'rejected') throw y.reason;
  return [x.value, y.value];
}

/** Reads the source, plans its fields and finds what cannot be stored as written (`--strict` stops here). */
async function readAndPlan(context: BuildContext) {
  const { connection, options, previous, progress } = context;
  progress.phase(`reading ${context.source} as ${context.format}`, {
    bytes: (await stat(options.file)).size,
  });
  const {
    source,
    encoding,
    path: sourcePath,
    problems: read = [],
  } = await readSource({
    ...context,
    name: context.source,
  });
  if (source.rowCount === 0) {
    const header = TEXT_FORMATS.has(context.format) || context.format === 'xlsx' ? ': only a header' : '';
    throw new Error(`${context.source}: no records${header}`);
  }
  const transcoded = encoding && encoding !== 'utf-8' ? ` (transcoded from ${encoding})` : '';
  progress.note(`${source.rowCount} rows, ${source.columns.length} columns${transcoded}`);
  progress.phase('choosing the field types', { rows: source.rowCount });
  const data = await planStoredData(connection, source, options, previous);
  const problems = await findProblems(connection, data.columns);
  const lines = hasProblems(problems) && TEXT_FORMATS.has(context.format);
  const summary = [
    ...read,
    ...describeProblems(problems, lines && (await recordsAreLines(sourcePath, source.rowCount))),
  ];
  if (options.strict && summary.length > 0) {
    throw new Error(
      `${context.source}: --strict: not every value can be stored as written; nothing was written\n${summary.join('\n')}`,
    );
  }
  return { source, encoding, data, problems, summary };
}

/** dataset.json of the staged version: computed facts measured, previous settings merged, dates kept if unchanged. */
async function describeDataset(
  context: BuildContext,
  data: StoredData,
  dataPath: string,
  sortBy: readonly string[],
): Promise<DatasetFile> {
  const { options, previous, connection } = context;
  const fields = storedFields(data);
  const names = fields.map((f) => f.name);
  const facts = await computeFacts(connection, dataPath, fields, isoNow());
  // The previous version's automatic facets are chosen again, not kept as if given.
  const kept = withoutAutoFacets(previous);
  const automatic = autoFacetsWanted(options, kept, fields)
    ? await chooseAutoFacets(connection, dataPath, fields, facts)
    : [];
  const facets = [...(options.facets ?? []), ...automatic];
  const built = buildDatasetFile({
    id: options.id,
    previous: kept,
    fields,
    computed: {
      ...facts,
      sort_by: [...sortBy],
      value_counts: await writeValueCounts(connection, dataPath, context.staging, fields, facts),
      geo_point_from: data.columns.find((c) => c.pointFrom)?.pointFrom ?? null,
      auto_facets: automatic,
    },
    ...(options.title !== undefined ? { title: options.title } : {}),
    ...(options.metas ? { metas: options.metas } : {}),
    ...(options.visibility ? { visibility: options.visibility } : {}),
    ...(options.access ? { access: options.access } : {}),
    replaceFacets: options.replaceFacets ?? (options.facets?.length ?? 0) > 0,
    fieldSettings: settingsByField(options.fields ?? {}, facets, (option, name) =>
      resolveField(option, name, names),
    ),
  });
  const next = recordSource(withAttachmentEntries(built, attachmentsOf(options)), previous, options);
  const dataUnchanged = await sameFileContent(dataPath, path.join(context.finalDir, 'data.parquet'));
  return carryProcessingDates(next, previous, dataUnchanged);
}
