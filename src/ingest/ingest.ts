// ingest: one source file -> one dataset directory (data.parquet, search index, dataset.json, attachments), all or nothing.
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { DATASET_ID } from '../catalog/portal.js';
import { RECORD_ID_COLUMN, type DatasetFile, type Field } from '../catalog/schema.js';
import { buildSearchIndex } from '../search/build-index.js';
import { quoteIdentifier, quoteString } from '../sql-text.js';
import { computeFacts, isoNow } from './computed.js';
import {
  buildDatasetFile,
  readPreviousDatasetFile,
  type FieldSettings,
  type MetasInput,
} from './dataset-file.js';
import { checkSourceFile, detectInputFormat, type InputFormat } from './input-format.js';
import { loadSource, type SourceTable } from './load-source.js';
import { fieldOf, planColumns, PLAN_RELATION, resolveField, type PlannedColumn } from './plan.js';
import { ensurePortalFile } from './portal-file.js';
import { digestRecordIdSql, fieldRecordIdSql } from './record-id.js';
import { replaceDatasetDirectory } from './staging.js';
import { utf8Source, type TextEncoding } from './text-encoding.js';
import { carryProcessingDates, sameFileContent } from './unchanged.js';

export interface IngestOptions {
  readonly file: string;
  readonly portal: string;
  readonly id: string;
  /** Overrides detection by extension and content. */
  readonly format?: InputFormat;
  readonly title?: string;
  readonly geoPoint?: { readonly lat: string; readonly lon: string };
  readonly facets?: readonly string[];
  /** Field -> separator: text fields split into lists. */
  readonly multivalued?: Readonly<Record<string, string>>;
  /** The field whose value identifies each record (unique, never empty). */
  readonly recordId?: string;
  /** Metas by template; each replaces the previous value of the same name. */
  readonly metas?: MetasInput;
  /** Labels, descriptions and annotations by field (name or source header). */
  readonly fields?: Readonly<Record<string, FieldSettings>>;
  /** Files copied into attachments/ (beside those the previous version had). */
  readonly attachments?: readonly string[];
  /** Receives one line per phase; omit for silence. */
  readonly progress?: (message: string) => void;
}

export interface IngestReport {
  readonly datasetId: string;
  readonly directory: string;
  readonly format: InputFormat;
  /** The encoding a text source was read in (transcoded to UTF-8 unless utf-8), null for other formats. */
  readonly encoding: TextEncoding | null;
  readonly recordsCount: number;
  readonly fields: readonly Field[];
  /** The field that gives record ids, or null when ids are digests of the rows. */
  readonly recordIdField: string | null;
  /** False when data.parquet came out byte-identical to the previous version's. */
  readonly dataChanged: boolean;
}

const TEXT_FORMATS: ReadonlySet<InputFormat> = new Set(['csv', 'tsv']);

/** Ingests `options.file` as dataset `options.id` of the portal, replacing any previous version atomically. */
export async function ingest(options: IngestOptions): Promise<IngestReport> {
  if (!DATASET_ID.test(options.id)) {
    throw new Error(`invalid dataset id "${options.id}": use lowercase letters, digits, _ and - (not first)`);
  }
  await checkSourceFile(options.file);
  const format = options.format ?? (await detectInputFormat(options.file));
  await ensurePortalFile(options.portal);
  const datasetsDir = path.join(options.portal, 'datasets');
  const finalDir = path.join(datasetsDir, options.id);
  const previous = await readPreviousDatasetFile(path.join(finalDir, 'dataset.json'));
  const started = Date.now();
  const report = await replaceDatasetDirectory(datasetsDir, options.id, (staging) =>
    withWorkConnection((connection, workDir) =>
      buildDataset({ connection, workDir, staging, finalDir, format, previous, options }),
    ),
  );
  options.progress?.(
    `${options.id}: ${report.recordsCount} records in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { ...report, directory: finalDir };
}

/** A private in-memory DuckDB (not the server's locked engine) with UTC as its time zone and a scratch folder. */
async function withWorkConnection<T>(
  work: (connection: DuckDBConnection, workDir: string) => Promise<T>,
): Promise<T> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-ingest-'));
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    temp_directory: path.join(workDir, 'spill'),
  });
  const connection = await instance.connect();
  try {
    await connection.run("SET TimeZone = 'UTC'");
    return await work(connection, workDir);
  } finally {
    connection.closeSync();
    instance.closeSync();
    await rm(workDir, { recursive: true, force: true });
  }
}

interface BuildContext {
  readonly connection: DuckDBConnection;
  readonly workDir: string;
  readonly staging: string;
  readonly finalDir: string;
  readonly format: InputFormat;
  readonly previous: DatasetFile | null;
  readonly options: IngestOptions;
}

async function buildDataset(context: BuildContext): Promise<Omit<IngestReport, 'directory'>> {
  const { connection, staging, options, previous } = context;
  const say = (message: string): void => options.progress?.(`${options.id}: ${message}`);
  say(`reading ${options.file} as ${context.format}`);
  const { source, encoding } = await readSource(context);
  say(
    `${source.rowCount} rows, ${source.columns.length} columns${encoding && encoding !== 'utf-8' ? ` (from ${encoding})` : ''}`,
  );
  const remembered = rememberedSettings(previous);
  const columns = await planColumns(connection, source, {
    multivalued: options.multivalued ?? {},
    rememberedMultivalued: remembered.multivalued,
    ...(options.geoPoint ? { geoPoint: options.geoPoint } : {}),
  });
  const names = columns.map((c) => c.name);
  const idField =
    options.recordId ??
    (remembered.recordId && names.includes(remembered.recordId) ? remembered.recordId : undefined);
  const idColumn =
    idField === undefined
      ? null
      : columns.find((c) => c.name === resolveField('--record-id', idField, names))!;
  const recordIdSql = idColumn
    ? await fieldRecordIdSql(connection, idColumn)
    : digestRecordIdSql([
        ...source.columns.map((c) => c.column),
        ...(source.geometryColumn ? [source.geometryColumn] : []),
      ]);
  say(`writing data.parquet (${columns.map((c) => `${c.name}: ${c.type}`).join(', ')})`);
  const dataPath = path.join(staging, 'data.parquet');
  await writeData(connection, columns, recordIdSql, dataPath);
  const fields = columns.map((c) => withIdAnnotation(fieldOf(c), c === idColumn));
  const datasetFile = carryProcessingDates(
    buildDatasetFile({
      id: options.id,
      previous,
      fields,
      computed: await computeFacts(connection, dataPath, fields, isoNow()),
      ...(options.title !== undefined ? { title: options.title } : {}),
      ...(options.metas ? { metas: options.metas } : {}),
      fieldSettings: resolveFieldSettings(options, names),
    }),
    previous,
    await sameFileContent(dataPath, path.join(context.finalDir, 'data.parquet')),
  );
  await writeFile(path.join(staging, 'dataset.json'), `${JSON.stringify(datasetFile, null, 2)}\n`);
  say('building the search index');
  await buildSearchIndex(connection, staging, datasetFile.fields);
  await copyAttachments(context.finalDir, staging, options.attachments ?? []);
  return {
    datasetId: options.id,
    format: context.format,
    encoding,
    recordsCount: datasetFile.computed.records_count,
    fields: datasetFile.fields,
    recordIdField: idColumn?.name ?? null,
    dataChanged: datasetFile.computed.data_processed !== previous?.computed.data_processed,
  };
}

async function readSource(
  context: BuildContext,
): Promise<{ source: SourceTable; encoding: TextEncoding | null }> {
  const { file } = context.options;
  const text = TEXT_FORMATS.has(context.format) ? await utf8Source(file, context.workDir) : null;
  const source = await loadSource(context.connection, text?.path ?? file, context.format, file);
  return { source, encoding: text?.encoding ?? null };
}

async function writeData(
  connection: DuckDBConnection,
  columns: readonly PlannedColumn[],
  recordIdSql: string,
  target: string,
): Promise<void> {
  const select = [
    `${recordIdSql} AS ${RECORD_ID_COLUMN}`,
    ...columns.map((c) => `${c.sql} AS ${quoteIdentifier(c.name)}`),
  ];
  // Insertion order is preserved (DuckDB's default), so rows are written in file order without a sort.
  await connection.run(
    `COPY (SELECT ${select.join(',\n  ')} FROM ${PLAN_RELATION}) TO ${quoteString(target)} (FORMAT parquet)`,
  );
}

function withIdAnnotation(field: Field, isId: boolean): Field {
  return isId ? { ...field, annotations: { ...field.annotations, id: [] } } : field;
}

/** What the previous version's annotations say to do again: its multivalued splits and its id field. */
function rememberedSettings(previous: DatasetFile | null): {
  multivalued: Record<string, string>;
  recordId?: string;
} {
  const fields = previous?.fields ?? [];
  const multivalued = Object.fromEntries(
    fields.flatMap((f) =>
      f.annotations.multivalued?.[0] !== undefined ? [[f.name, f.annotations.multivalued[0]]] : [],
    ),
  );
  const recordId = fields.find((f) => f.annotations.id)?.name;
  return recordId ? { multivalued, recordId } : { multivalued };
}

/** Field settings keyed by resolved field name, with --facet folded in as `facet` annotations. */
function resolveFieldSettings(
  options: IngestOptions,
  names: readonly string[],
): Record<string, FieldSettings> {
  const settings: Record<string, FieldSettings> = {};
  for (const [given, value] of Object.entries(options.fields ?? {}))
    settings[resolveField('fields', given, names)] = value;
  for (const given of options.facets ?? []) {
    const name = resolveField('--facet', given, names);
    const current = settings[name] ?? {};
    settings[name] = { ...current, annotations: { ...current.annotations, facet: [] } };
  }
  return settings;
}

/** Keeps the previous version's attachments, then adds the given files (a same-named file is replaced). */
async function copyAttachments(finalDir: string, staging: string, files: readonly string[]): Promise<void> {
  const target = path.join(staging, 'attachments');
  await cp(path.join(finalDir, 'attachments'), target, { recursive: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    },
  );
  if (files.length > 0) await mkdir(target, { recursive: true });
  for (const file of files) await cp(file, path.join(target, path.basename(file)));
}
