// One dataset folder read and validated: its dataset.json (zod), its data files, its row filters
// and engine kind checked; what the catalog's index keeps of it.
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ZodError, ZodType } from 'zod';
import { datasetFileSchema, type DatasetFile } from './schema.js';
import { attachmentEntries, attachmentFileNames, attachmentOf } from './attachments.js';
import { valueCountsPath } from './dataset-shelf.js';
import type { FileStamps } from './data-version.js';
import type { Dataset, DatasetChecks, RowFilterCheck } from './dataset-types.js';

/** A dataset folder read: the dataset, and the size and time of the files its version covers. */
export interface FolderRead {
  readonly dataset: Dataset;
  readonly stamps: FileStamps;
}

/**
 * Reads and validates the dataset folder `dir`; null (and its problems) when it cannot be served.
 * Synchronous, a dozen system calls: a first start reads 100,000 folders, and the same calls
 * made through libuv's pool, 32 folders at a time, starved the event loop's thread (2 cores).
 */
export function readDatasetFolder(
  dir: string,
  viewPrefix: string,
  checks: DatasetChecks,
  problems: string[],
): FolderRead | null {
  const jsonPath = path.join(dir, 'dataset.json');
  const file = parseJsonText(readText(jsonPath, problems), jsonPath, datasetFileSchema, problems);
  if (!file) return null;
  if (file.engine && !checks.engineKinds.has(file.engine.kind)) {
    const kinds = [...checks.engineKinds].join(', ') || 'none';
    problems.push(`${jsonPath}: engine.kind: no engine named "${file.engine.kind}" (kinds: ${kinds})`);
    return null;
  }
  const parquetPath = path.join(dir, 'data.parquet');
  // An attached dataset's records are in a ClickHouse table (file.engine), not in a file here.
  const data = file.engine ? null : parquetStamp(parquetPath, problems);
  if (data === undefined) return null;
  if (!rowFiltersHold(file, jsonPath, checks.rowFilter, problems)) return null;
  const searchPath = path.join(dir, 'search.parquet');
  const search = file.engine ? null : fileStampSync(searchPath);
  const entries = attachmentEntries(file);
  const attachmentsDir = path.join(dir, 'attachments');
  // Listed only when there: a failed listing costs an error's stack (20 µs a folder), a stat not.
  const listed = statSync(attachmentsDir, { throwIfNoEntry: false })?.isDirectory() ?? false;
  const attachments = (listed ? attachmentFileNames(attachmentsDir) : []).map((name) =>
    attachmentOf(attachmentsDir, name, entries),
  );
  const dataset: Dataset = {
    id: path.basename(dir),
    view: viewPrefix + path.basename(dir),
    dir,
    parquetPath,
    searchIndexPath: search ? searchPath : null,
    valueCountsPaths: file.engine ? new Map() : valueCountsPaths(dir, file.computed.value_counts),
    file,
    attachments,
  };
  const stamps: FileStamps = [
    ['data', data],
    ['search', search],
    ...attachments.map((a): FileStamps[number] => [`attachments/${a.fileName}`, fileStampSync(a.filePath)]),
  ];
  return { dataset, stamps };
}

/** A file's text, or null with its problem. */
function readText(file: string, problems: string[]): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    problems.push(`${file}: cannot be read`);
    return null;
  }
}

/** Size and modification time of a file, or null when it is gone. */
function fileStampSync(file: string): [number, number] | null {
  const found = statSync(file, { throwIfNoEntry: false });
  return found?.isFile() ? [found.size, found.mtimeMs] : null;
}

/**
 * The size and time of a dataset's data.parquet, undefined (and its problem) when it is missing or
 * does not begin and end with Parquet's magic bytes, `PAR1` (the test DuckDB makes when it opens
 * the file, made here: a dataset is opened on first use).
 */
function parquetStamp(file: string, problems: string[]): [number, number] | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    problems.push(`${file}: missing`);
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      problems.push(`${file}: missing`);
      return undefined;
    }
    const { size, mtimeMs } = stats;
    const [head, tail] = [Buffer.alloc(4), Buffer.alloc(4)];
    readSync(fd, head, 0, 4, 0);
    readSync(fd, tail, 0, 4, Math.max(0, size - 4));
    if (size >= 8 && head.toString('latin1') === 'PAR1' && tail.toString('latin1') === 'PAR1')
      return [size, mtimeMs];
    problems.push(`No magic bytes found at end of file '${file}'`);
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The tables of value counts of `fields` that are there (one missing only leaves its field to the rows). */
function valueCountsPaths(dir: string, fields: readonly string[]): Map<string, string> {
  const paths = new Map<string, string>();
  for (const field of fields) {
    const file = valueCountsPath(dir, field);
    if (statSync(file, { throwIfNoEntry: false })?.isFile()) paths.set(field, file);
  }
  return paths;
}

/** Whether every row filter of a dataset's audiences is a condition (else the first that is not is a problem). */
function rowFiltersHold(
  file: DatasetFile,
  jsonPath: string,
  checkRowFilter: RowFilterCheck,
  problems: string[],
): boolean {
  const checked = new Set<string>();
  for (const [index, { row_filter: text }] of file.access.entries()) {
    if (text === null || text.trim() === '' || checked.has(text)) continue;
    const problem = checkRowFilter(text);
    if (problem !== null) {
      problems.push(`${jsonPath}: access.${index}.row_filter: ${problem}`);
      return false;
    }
    checked.add(text);
  }
  return true;
}

/** A JSON file validated by `schema`, or null with its problem. */
export async function readJson<T>(file: string, schema: ZodType<T>, problems: string[]): Promise<T | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) problems.push(`${file}: cannot be read`);
  return parseJsonText(text, file, schema, problems);
}

/** The text of the JSON file `file` validated by `schema`, or null with its problem. */
function parseJsonText<T>(
  text: string | null,
  file: string,
  schema: ZodType<T>,
  problems: string[],
): T | null {
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    problems.push(`${file}: not valid JSON (${(error as Error).message})`);
    return null;
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  problems.push(`${file}: ${describeZodError(parsed.error)}`);
  return null;
}

/** One line per issue: the field path and what is wrong with it. */
export function describeZodError(error: ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}
