// Drafts of the account page's Datasets tab: a source received (uploaded or fetched) into a folder
// of this process, ingested there into a portal of its own (the staged dataset, not served), with
// what the preview shows kept in draft.json; then published into the portal by ingest itself
// (the CLI's code path: staged beside the dataset and swapped in atomically), or discarded. A
// draft's token is 32 hex digits, checked before it names any folder.
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Audience, DatasetFile } from '../catalog/schema.js';
import { ingest, type IngestOptions, type IngestReport } from '../ingest/ingest.js';
import { firstRows } from '../ingest/first-rows.js';
import { PublishError } from './publish-errors.js';

/** Drafts kept per process: making one more removes the oldest. */
const MAX_DRAFTS = 20;
/** A draft is removed when a new one is made this long after it. */
const DRAFT_MS = 24 * 3_600_000;
/** Rows the preview shows, and the characters of each cell. */
export const PREVIEW_ROWS = 10;
const PREVIEW_CELL = 80;

const TOKEN = /^[0-9a-f]{32}$/;

/** What the publish form sets, prefilled from the staged dataset.json. */
export interface DraftSettings {
  readonly title: string;
  readonly description: string;
  readonly keyword: readonly string[];
  readonly theme: readonly string[];
  readonly license: string;
  readonly visibility: DatasetFile['visibility'];
  readonly access: readonly Audience[];
  readonly facets: readonly string[];
}

/** A staged source, as draft.json keeps it. */
export interface Draft {
  readonly token: string;
  readonly dataset: string;
  /** The dataset existed when the draft was made: publishing replaces it. */
  readonly replaces: boolean;
  /** The file name or URL the source came from, for the page. */
  readonly source: string;
  /** The source's file name inside the draft's folder. */
  readonly sourceFile: string;
  readonly user: string;
  readonly created: string;
  readonly format: string;
  readonly encoding: string | null;
  readonly recordsCount: number;
  readonly fields: readonly { name: string; label: string; type: string }[];
  readonly problems: readonly string[];
  readonly preview: { readonly columns: readonly string[]; readonly rows: readonly string[][] };
  readonly settings: DraftSettings;
}

/** A new draft's folder, after removing drafts past their day and the oldest past MAX_DRAFTS. */
export async function newDraftFolder(draftsDir: string): Promise<{ token: string; dir: string }> {
  await mkdir(draftsDir, { recursive: true });
  const drafts = await Promise.all(
    (await readdir(draftsDir)).map(async (name) => ({
      name,
      time: (await stat(path.join(draftsDir, name)).catch(() => null))?.mtimeMs ?? 0,
    })),
  );
  drafts.sort((a, b) => b.time - a.time);
  const old = drafts.filter((d, i) => i >= MAX_DRAFTS - 1 || Date.now() - d.time > DRAFT_MS);
  for (const { name } of old) await rm(path.join(draftsDir, name), { recursive: true, force: true });
  const token = randomBytes(16).toString('hex');
  const dir = path.join(draftsDir, token);
  await mkdir(dir);
  return { token, dir };
}

/** The folder of draft `token`, or null when the token is not one. */
export function draftFolder(draftsDir: string, token: string): string | null {
  return TOKEN.test(token) ? path.join(draftsDir, token) : null;
}

/** The draft `token` of `user`, or null (an unknown token, another user's, a removed draft). */
export async function readDraft(draftsDir: string, token: string, user: string): Promise<Draft | null> {
  const dir = draftFolder(draftsDir, token);
  if (dir === null) return null;
  const text = await readFile(path.join(dir, 'draft.json'), 'utf8').catch(() => null);
  const draft = text === null ? null : (JSON.parse(text) as Draft);
  return draft?.user === user ? draft : null;
}

/** Removes draft `token`. */
export async function discardDraft(draftsDir: string, token: string): Promise<void> {
  const dir = draftFolder(draftsDir, token);
  if (dir !== null) await rm(dir, { recursive: true, force: true });
}

export interface StageInput {
  readonly token: string;
  readonly dir: string;
  readonly file: string;
  readonly source: string;
  readonly dataset: string;
  readonly user: string;
  readonly portalDir: string;
}

/** An ingest error as the page shows it: the draft's file path replaced by the source's name. */
function ingestFailure(error: unknown, file: string, source: string): PublishError {
  const message = error instanceof Error ? error.message : String(error);
  return new PublishError(400, message.split(file).join(source).split(path.dirname(file)).join('(draft)'));
}

/** Ingests the source into the draft's own portal and keeps what the preview shows. */
export async function stageDraft(input: StageInput): Promise<Draft> {
  const current = path.join(input.portalDir, 'datasets', input.dataset, 'dataset.json');
  const staged = path.join(input.dir, 'portal', 'datasets', input.dataset);
  const replaces = await stat(current).then(
    () => true,
    () => false,
  );
  // The current version's settings (multivalued fields, id field, metas) apply to the draft too.
  if (replaces) {
    await mkdir(staged, { recursive: true });
    await copyFile(current, path.join(staged, 'dataset.json'));
  }
  const report = await ingest({
    file: input.file,
    portal: path.join(input.dir, 'portal'),
    id: input.dataset,
  }).catch((error: unknown) => {
    throw ingestFailure(error, input.file, input.source);
  });
  const file = JSON.parse(await readFile(path.join(staged, 'dataset.json'), 'utf8')) as DatasetFile;
  const draft: Draft = {
    token: input.token,
    dataset: input.dataset,
    replaces,
    source: input.source,
    sourceFile: path.basename(input.file),
    user: input.user,
    created: new Date().toISOString(),
    format: report.format,
    encoding: report.encoding,
    recordsCount: report.recordsCount,
    fields: report.fields.map(({ name, label, type }) => ({ name, label, type })),
    problems: report.summary,
    preview: await previewRows(path.join(staged, 'data.parquet'), report),
    settings: settingsOf(file),
  };
  await writeFile(path.join(input.dir, 'draft.json'), JSON.stringify(draft));
  return draft;
}

const textList = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' && value !== '' ? [value] : [];

/** The form's settings as the staged dataset.json has them. */
function settingsOf(file: DatasetFile): DraftSettings {
  const metas = file.metas.default as Record<string, unknown>;
  return {
    title: typeof metas.title === 'string' ? metas.title : '',
    description: typeof metas.description === 'string' ? metas.description : '',
    keyword: textList(metas.keyword),
    theme: textList(metas.theme),
    license: typeof metas.license === 'string' ? metas.license : '',
    visibility: file.visibility,
    access: file.access,
    facets: file.fields.filter((f) => f.annotations.facet !== undefined).map((f) => f.name),
  };
}

/** The first PREVIEW_ROWS records of the staged data, each cell as short text. */
async function previewRows(dataPath: string, report: IngestReport): Promise<Draft['preview']> {
  const columns = report.fields.map((f) => f.name);
  const rows = await firstRows(dataPath, columns, PREVIEW_ROWS);
  const cell = (value: unknown): string => {
    const text = value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    return text.length > PREVIEW_CELL ? `${text.slice(0, PREVIEW_CELL - 1)}…` : text;
  };
  return { columns, rows: rows.map((row) => row.map(cell)) };
}

/** Publishes draft `draft` (folder `dir`) into the portal with `settings`: ingest, atomic. */
export async function publishDraft(
  draft: Draft,
  dir: string,
  portalDir: string,
  settings: DraftSettings,
): Promise<IngestReport> {
  const options: IngestOptions = {
    file: path.join(dir, draft.sourceFile),
    portal: portalDir,
    id: draft.dataset,
    title: settings.title,
    metas: {
      default: {
        // Left empty: none, as a dataset published without them has.
        description: settings.description === '' ? null : settings.description,
        keyword: settings.keyword.length > 0 ? [...settings.keyword] : null,
        theme: settings.theme.length > 0 ? [...settings.theme] : null,
        license: settings.license === '' ? null : settings.license,
      },
    },
    visibility: settings.visibility,
    access: [...settings.access],
    facets: [...settings.facets],
    replaceFacets: true,
    autoFacets: false,
  };
  return ingest(options).catch((error: unknown) => {
    throw ingestFailure(error, options.file, draft.source);
  });
}
