// Reads a portal directory into memory: the portal settings and every dataset that validates.
import { randomBytes } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ZodError, ZodType } from 'zod';
import { datasetFileSchema, portalFileSchema, type DatasetFile, type PortalFile } from './schema.js';
import { listAttachments, type Attachment } from './attachments.js';

/** A dataset as served: its directory, its validated metadata and its attachments. */
export interface Dataset {
  readonly id: string;
  /** The name of its view in the engine: the id, after the portal's view prefix. */
  readonly view: string;
  readonly dir: string;
  /** Its data.parquet (absent for a dataset attached to ClickHouse: see `file.engine`). */
  readonly parquetPath: string;
  /** Present when the dataset has a full-text index beside its data. */
  readonly searchIndexPath: string | null;
  /** Its tables of value counts by field (`computed.value_counts` whose file is there). */
  readonly valueCountsPaths: ReadonlyMap<string, string>;
  readonly file: DatasetFile;
  readonly attachments: readonly Attachment[];
}

/**
 * Why an audience's row filter (ODSQL text, kept as text here) cannot be a condition, or null
 * when it can: handed in by the server, which parses filters where it compiles queries.
 */
export type RowFilterCheck = (text: string) => string | null;

/** What the loader cannot decide alone, handed in by the server: row filters and engine kinds. */
export interface DatasetChecks {
  readonly rowFilter: RowFilterCheck;
  /** The names `engine.kind` may give (the engines' registry sits above the catalog). */
  readonly engineKinds: ReadonlySet<string>;
}

/** A loaded portal; `problems` lists every file that did not validate (those datasets are not served). */
export interface Portal {
  readonly dir: string;
  /** What the names of its views in the engine start with: '' alone, apart when portals share an engine. */
  readonly viewPrefix: string;
  readonly settings: PortalFile;
  readonly datasets: ReadonlyMap<string, Dataset>;
  readonly problems: readonly string[];
  /**
   * Dataset folders that hold something but did not load (their problems say why), and datasets
   * caught in the middle of being replaced: a reload keeps serving their version loaded before.
   */
  readonly unloaded: ReadonlySet<string>;
}

export const DATASET_ID = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * The name of a folder beside a dataset's while ingest builds its next version ('staging') or
 * swaps it in ('old': the previous version, renamed aside): hidden (dot) names, so that a portal
 * being served never lists a half-built dataset.
 */
export function siblingName(id: string, role: 'staging' | 'old'): string {
  return `.${id}.${role}-${randomBytes(6).toString('hex')}`;
}

const OLD_SIBLING = /^\.([a-z0-9][a-z0-9_-]*)\.old-[0-9a-f]{12}$/;

/**
 * The id of the dataset whose previous version a folder named `name` is while a swap runs
 * (renamed aside, the next version not yet in place), else null.
 */
function idBeingSwapped(name: string): string | null {
  return OLD_SIBLING.exec(name)?.[1] ?? null;
}

/**
 * Loads `<dir>/portal.json` and every `<dir>/datasets/<id>/dataset.json`; the views of its datasets
 * are named `viewPrefix` + id; a dataset with a row filter or engine kind that `checks` refuses is
 * not served.
 */
export async function loadPortal(dir: string, checks: DatasetChecks, viewPrefix = ''): Promise<Portal> {
  const problems: string[] = [];
  const settingsPath = path.join(dir, 'portal.json');
  const settings =
    (await readJson(settingsPath, portalFileSchema, problems)) ??
    portalFileSchema.parse({ title: 'duckportal' });
  const datasets = new Map<string, Dataset>();
  const unloaded = new Set<string>();
  const root = path.join(dir, 'datasets');
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || !DATASET_ID.test(entry.name)) continue;
    const dataset = await loadDataset(path.join(root, entry.name), viewPrefix, checks, problems);
    if (dataset) datasets.set(dataset.id, dataset);
    else unloaded.add(entry.name);
  }
  // Caught between the two renames of an ingest's swap: the dataset is there, not yet in place.
  const names = new Set(entries.map((entry) => entry.name));
  for (const entry of entries) {
    const id = entry.isDirectory() ? idBeingSwapped(entry.name) : null;
    if (id === null || names.has(id)) continue;
    problems.push(`${path.join(root, id)}: being replaced (renamed aside as ${entry.name})`);
    unloaded.add(id);
  }
  return { dir, viewPrefix, settings, datasets, problems, unloaded };
}

async function loadDataset(
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
    attachments: await listAttachments(
      path.join(dir, 'attachments'),
      new Set(file.attachments.filter((a) => a.all_audiences).map((a) => a.file)),
    ),
  };
}

/** Where ingest writes the table of value counts of `field` in the folder of a dataset. */
export function valueCountsPath(datasetDir: string, field: string): string {
  return path.join(datasetDir, 'counts', `${field}.parquet`);
}

/** The view over a dataset's full-text index, from the name of the dataset's view. */
export function searchViewName(datasetView: string): string {
  return `${datasetView}__search`;
}

/** The view over the table of value counts of `field`, from the name of the dataset's view. */
export function valueCountsViewName(datasetView: string, field: string): string {
  return `${datasetView}__counts__${field}`;
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

async function readJson<T>(file: string, schema: ZodType<T>, problems: string[]): Promise<T | null> {
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

async function isFile(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}
