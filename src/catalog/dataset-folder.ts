// One dataset folder read and validated: its dataset.json (zod), its data files, its row filters
// and engine kind checked; what the catalog's index keeps of it.
import { open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ZodError, ZodType } from 'zod';
import { datasetFileSchema, type DatasetFile } from './schema.js';
import { attachmentEntries, listAttachments } from './attachments.js';
import { valueCountsPath } from './dataset-shelf.js';
import type { Dataset, DatasetChecks, RowFilterCheck } from './dataset-types.js';

/** Reads and validates the dataset folder `dir`; null (and its problems) when it cannot be served. */
export async function loadDataset(
  dir: string,
  viewPrefix: string,
  checks: DatasetChecks,
  problems: string[],
): Promise<Dataset | null> {
  const file = await readJson(path.join(dir, 'dataset.json'), datasetFileSchema, problems);
  if (!file) return null;
  if (file.engine && !checks.engineKinds.has(file.engine.kind)) {
    const kinds = [...checks.engineKinds].join(', ') || 'none';
    problems.push(
      `${path.join(dir, 'dataset.json')}: engine.kind: no engine named "${file.engine.kind}" (kinds: ${kinds})`,
    );
    return null;
  }
  const parquetPath = path.join(dir, 'data.parquet');
  // An attached dataset's records are in a ClickHouse table (file.engine), not in a file here.
  if (!file.engine && !(await isFile(parquetPath))) {
    problems.push(`${parquetPath}: missing`);
    return null;
  }
  if (!file.engine && !(await hasParquetMagic(parquetPath))) {
    // The test DuckDB makes when it opens the file, made here: a dataset is opened on first use.
    problems.push(`No magic bytes found at end of file '${parquetPath}'`);
    return null;
  }
  if (!rowFiltersHold(file, path.join(dir, 'dataset.json'), checks.rowFilter, problems)) return null;
  const searchPath = path.join(dir, 'search.parquet');
  const id = path.basename(dir);
  return {
    id,
    view: viewPrefix + id,
    dir,
    parquetPath,
    searchIndexPath: !file.engine && (await isFile(searchPath)) ? searchPath : null,
    valueCountsPaths: file.engine ? new Map() : await valueCountsPaths(dir, file.computed.value_counts),
    file,
    attachments: await listAttachments(path.join(dir, 'attachments'), attachmentEntries(file)),
  };
}

/** The tables of value counts of `fields` that are there (one missing only leaves its field to the rows). */
async function valueCountsPaths(dir: string, fields: readonly string[]): Promise<Map<string, string>> {
  const paths = new Map<string, string>();
  for (const field of fields) {
    const file = valueCountsPath(dir, field);
    if (await isFile(file)) paths.set(field, file);
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
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    problems.push(`${file}: cannot be read`);
    return null;
  }
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

/** Whether a file begins and ends with Parquet's magic bytes, `PAR1`. */
async function hasParquetMagic(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const [head, tail] = [Buffer.alloc(4), Buffer.alloc(4)];
    await handle.read(head, 0, 4, 0);
    await handle.read(tail, 0, 4, Math.max(0, size - 4));
    return size >= 8 && head.toString('latin1') === 'PAR1' && tail.toString('latin1') === 'PAR1';
  } finally {
    await handle.close();
  }
}

async function isFile(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}
