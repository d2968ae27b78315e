// Loads a portal folder through the catalog's index (catalog-index.ts): every dataset folder is
// stamped (its own and its dataset.json's inode, size and time), and only the folders whose stamp
// differs from their index line are read and validated again; the others are served from their
// lines, parsed when first asked for (dataset-shelf.ts). A load also says which folders it read.
import { statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { portalFileSchema } from './schema.js';
import { catalogIndexPath, IndexFile, type IndexLine, type NewLine } from './catalog-index.js';
import { DatasetShelf, DEFAULT_SHELF_SIZE } from './dataset-shelf.js';
import { readDatasetFolder, readJson, type FolderRead } from './dataset-folder.js';
import { catalogRow } from './catalog-table.js';
import { TOKENS_VERSION } from './catalog-tokens.js';
import { versionOf } from './data-version.js';
import type { Dataset, DatasetChecks, Portal } from './dataset-types.js';

export const DATASET_ID = /^[a-z0-9][a-z0-9_-]*$/;

const OLD_SIBLING = /^\.([a-z0-9][a-z0-9_-]*)\.old-[0-9a-f]{12}$/;

/** Folders stamped between two turns of the event loop (about 20 ms of stat calls here). */
const STAMPS_PER_TURN = 1_000;
/** Time spent reading and validating folders between two turns of the event loop. */
const READ_SLICE_MS = 20;

/** The catalog's order of dataset ids (as String.prototype.localeCompare sorts them). */
export const compareIds = new Intl.Collator().compare;

/** The id of the dataset whose previous version a folder named `name` is while a swap runs, else null. */
function idBeingSwapped(name: string): string | null {
  return OLD_SIBLING.exec(name)?.[1] ?? null;
}

/**
 * The stamp of each dataset folder (its inode and time, its dataset.json's inode, size and time),
 * null where there is no dataset.json. Synchronous calls in slices: 100,000 stat promises took 8 s
 * through libuv's pool here, the same calls made in turn 2 s.
 */
async function stampsOf(root: string, ids: readonly string[]): Promise<(string | null)[]> {
  const stamps: (string | null)[] = [];
  for (let i = 0; i < ids.length; i++) {
    if (i % STAMPS_PER_TURN === STAMPS_PER_TURN - 1) await yieldToEvents();
    const dir = path.join(root, ids[i]!);
    const folder = statSync(dir, { throwIfNoEntry: false });
    const file = statSync(path.join(dir, 'dataset.json'), { throwIfNoEntry: false });
    stamps.push(
      folder && file ? `${folder.ino}:${folder.mtimeMs}:${file.ino}:${file.size}:${file.mtimeMs}` : null,
    );
  }
  return stamps;
}

/**
 * Whether a line's checks still pass (its engine kind registered, its row filters conditions) and
 * it holds every fact (a line written before `restricted` existed, or with other search tokens in
 * its row, is read again once).
 */
function stillHolds(line: IndexLine, checks: DatasetChecks): boolean {
  const { engine, filters = [], restricted, tokens } = line.facts;
  return (
    typeof restricted === 'boolean' &&
    tokens === TOKENS_VERSION &&
    (engine === undefined || checks.engineKinds.has(engine)) &&
    filters.every((f) => checks.rowFilter(f) === null)
  );
}

/** The index line of a dataset read from its folder. */
function newLine({ dataset, stamps }: FolderRead, stamp: string): NewLine {
  const { file } = dataset;
  const fileJson = JSON.stringify(file);
  const version = versionOf(dataset, stamps, fileJson);
  const { row, templates } = catalogRow(dataset);
  const filters = [...new Set(file.access.map((a) => a.row_filter ?? '').filter((t) => t.trim() !== ''))];
  return {
    id: dataset.id,
    stamp,
    facts: {
      templates,
      version: [version.tag, version.modified.getTime()],
      ...(file.engine && { engine: file.engine.kind }),
      ...(filters.length > 0 && { filters }),
      ...(file.access.length > 0 && { audiences: true }),
      restricted: file.visibility === 'restricted',
      tokens: TOKENS_VERSION,
    },
    row: JSON.stringify(row),
    // A StoredDataset's JSON, its file's written once.
    record: `{"file":${fileJson},${JSON.stringify({
      search: dataset.searchIndexPath !== null,
      counts: [...dataset.valueCountsPaths.keys()],
      attachments: dataset.attachments.map((a) => a.fileName),
    }).slice(1)}`,
  };
}

/** A dataset folder read, null (and why) when it cannot be, even when it changes while read. */
function readFolder(
  dir: string,
  viewPrefix: string,
  checks: DatasetChecks,
  problems: string[],
): FolderRead | null {
  try {
    return readDatasetFolder(dir, viewPrefix, checks, problems);
  } catch (error) {
    problems.push(`${dir}: cannot be read (${(error as Error).message})`);
    return null;
  }
}

/** What reading the changed folders gave: their lines as written, the last datasets parsed, and their problems. */
interface Reread {
  readonly fresh: Map<string, IndexLine>;
  /** The datasets parsed last, as many as the shelf keeps. */
  readonly parsed: Dataset[];
  /** Why each folder that did not load failed. */
  readonly failed: Map<string, string[]>;
}

/**
 * Reads the folders of `work` in slices of the event loop (READ_SLICE_MS each: other work, the
 * requests during a reload, gets its turn between), each slice's lines appended to `index`.
 */
async function reread(
  root: string,
  work: readonly { id: string; stamp: string | null }[],
  index: IndexFile,
  viewPrefix: string,
  checks: DatasetChecks,
  problems: string[],
): Promise<Reread> {
  const result: Reread = { fresh: new Map(), parsed: [], failed: new Map() };
  for (let next = 0; next < work.length;) {
    const lines: NewLine[] = [];
    for (
      const started = performance.now();
      next < work.length && performance.now() - started < READ_SLICE_MS;
    ) {
      const { id, stamp } = work[next++]!;
      const own: string[] = [];
      const read = readFolder(path.join(root, id), viewPrefix, checks, own);
      problems.push(...own);
      if (read && stamp) {
        lines.push(newLine(read, stamp));
        // Only the last the shelf keeps: a first start parses every dataset, and holds none of them.
        if (next > work.length - DEFAULT_SHELF_SIZE) result.parsed.push(read.dataset);
      } else result.failed.set(id, own);
    }
    for (const line of index.append(lines)) result.fresh.set(line.id, line);
    if (next < work.length) await yieldToEvents();
  }
  return result;
}

/**
 * The index a load appends to: a reload's, else the file as opened, else (missing, or half of it
 * superseded lines) a new one, with the lines kept copied into it.
 */
async function targetIndex(
  file: string,
  previous: Portal | null,
  opened: IndexFile | null,
  lines: Map<string, IndexLine>,
): Promise<IndexFile> {
  if (previous?.load) return previous.load.index;
  if (opened && !opened.wasteful) return opened;
  const index = IndexFile.create(file);
  const order = [...lines.values()].sort((a, b) => a.offset - b.offset);
  for (const line of await index.copy(order)) lines.set(line.id, line);
  opened?.close();
  return index;
}

/**
 * Loads `<dir>/portal.json` and the datasets of `<dir>/datasets/`: those whose folder is as its
 * index line says from the line, the others read and validated (a dataset with a row filter or
 * engine kind that `checks` refuses is not served). With `previous` (a reload), a dataset whose
 * folder no longer loads keeps the version `previous` served.
 */
export async function loadPortal(
  dir: string,
  checks: DatasetChecks,
  viewPrefix = '',
  previous: Portal | null = null,
): Promise<Portal> {
  const problems: string[] = [];
  const settings =
    (await readJson(path.join(dir, 'portal.json'), portalFileSchema, problems)) ??
    portalFileSchema.parse({ title: 'duckportal' });
  const root = path.join(dir, 'datasets');
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const ids = entries.filter((e) => e.isDirectory() && DATASET_ID.test(e.name)).map((e) => e.name);
  const stamps = await stampsOf(root, ids);
  const file = catalogIndexPath(dir);
  const opened = previous?.load ? null : await IndexFile.open(file);
  const known = previous?.load?.lines ?? opened!.lines;
  const lines = new Map<string, IndexLine>();
  const work: { id: string; stamp: string | null }[] = [];
  for (const [i, id] of ids.entries()) {
    const line = known.get(id);
    if (line && line.stamp === stamps[i] && stillHolds(line, checks)) lines.set(id, line);
    else work.push({ id, stamp: stamps[i]! });
  }
  const index = await targetIndex(file, previous, opened?.index ?? null, lines);
  const { fresh, parsed, failed } = await reread(root, work, index, viewPrefix, checks, problems);
  const unloaded = new Set(failed.keys());
  const failures = new Map<string, { reasons: string[]; kept: boolean }>();
  for (const [id, reasons] of failed) {
    const before = previous?.load?.lines.get(id);
    failures.set(id, { reasons, kept: before !== undefined });
    if (before) lines.set(id, before);
  }
  // Caught between the two renames of an ingest's swap: the dataset is there, not yet in place.
  const names = new Set(entries.map((entry) => entry.name));
  for (const entry of entries) {
    const id = entry.isDirectory() ? idBeingSwapped(entry.name) : null;
    if (id === null || names.has(id)) continue;
    problems.push(`${path.join(root, id)}: being replaced (renamed aside as ${entry.name})`);
    unloaded.add(id);
    if (previous?.load?.lines.has(id)) lines.set(id, previous.load.lines.get(id)!);
  }
  for (const [id, line] of fresh) lines.set(id, line);
  const order = [...lines.keys()].sort(compareIds);
  const removed = [...known.keys()].filter((id) => !lines.has(id));
  if (removed.length > 0) index.append([], removed);
  index.publish();
  const served = new Map(order.map((id) => [id, lines.get(id)!]));
  const changed =
    !previous?.load ||
    served.size !== previous.load.lines.size ||
    order.some((id) => previous.load!.lines.get(id) !== served.get(id));
  const datasets = new DatasetShelf(served, root, viewPrefix, parsed);
  const guarded = order.filter((id) => served.get(id)!.facts.audiences === true);
  const restricted = order.filter((id) => served.get(id)!.facts.restricted === true);
  const reading = { index, lines: served, reread: work.map((w) => w.id), changed, failures };
  const load = { ...reading, guarded, restricted };
  return { dir, viewPrefix, settings, datasets, problems, unloaded, load };
}
