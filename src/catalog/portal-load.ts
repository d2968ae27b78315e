// Loads a portal folder through the catalog's index (catalog-index.ts): every dataset folder is
// stamped (its own and its dataset.json's inode, size and time), and only the folders whose stamp
// differs from their index line are read and validated again; the others are served from their
// lines, parsed when first asked for (dataset-shelf.ts). A load also says which folders it read.
import path from 'node:path';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { DATASET_ID, FolderStamper, type StampChanges } from './folder-stamps.js';
import { portalFileSchema } from './schema.js';
import { catalogIndexPath, IndexFile, type IndexLine, type NewLine } from './catalog-index.js';
import { DatasetShelf, DEFAULT_SHELF_SIZE } from './dataset-shelf.js';
import { readDatasetFolder, readJson, type FolderRead } from './dataset-folder.js';
import { catalogRow } from './catalog-table.js';
import { TOKENS_VERSION } from './catalog-tokens.js';
import { versionOf } from './data-version.js';
import type { CatalogChanges, Dataset, DatasetChecks, Portal } from './dataset-types.js';

export { DATASET_ID };

/** Time spent reading and validating folders between two turns of the event loop. */
const READ_SLICE_MS = 20;

/** The catalog's order of dataset ids (as String.prototype.localeCompare sorts them). */
export const compareIds = new Intl.Collator().compare;

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
 * The lines a load starts from (`before`'s, or none at a first load), with the folders to read:
 * those stamped whose stamp differs from their line, or whose line's checks no longer pass.
 */
function startingLines(
  { stamps, gone, swapping }: StampChanges,
  known: ReadonlyMap<string, IndexLine>,
  before: ReadonlyMap<string, IndexLine> | undefined,
  checks: DatasetChecks,
): { lines: Map<string, IndexLine>; work: { id: string; stamp: string | null }[] } {
  // A copy of the map as it was (native, no per-entry work), kept in the catalog's order.
  const lines = new Map(before);
  // A folder caught renamed aside keeps its line (handled with the swaps below).
  for (const id of gone) if (!swapping.has(id)) lines.delete(id);
  const work: { id: string; stamp: string | null }[] = [];
  for (const [id, stamp] of stamps) {
    const line = known.get(id);
    if (line && line.stamp === stamp && stillHolds(line, checks)) lines.set(id, line);
    else work.push({ id, stamp });
  }
  return { lines, work };
}

/** What the load changed in the served datasets (every id added at a first load). */
function changesOf(
  lines: ReadonlyMap<string, IndexLine>,
  fresh: ReadonlyMap<string, IndexLine>,
  before: ReadonlyMap<string, IndexLine> | undefined,
  gone: readonly string[],
): CatalogChanges {
  if (!before) return { added: [...lines.keys()], replaced: [], removed: [] };
  const changes = { added: [] as string[], replaced: [] as string[], removed: [] as string[] };
  for (const id of fresh.keys()) (before.has(id) ? changes.replaced : changes.added).push(id);
  for (const id of gone) if (before.has(id) && !lines.has(id)) changes.removed.push(id);
  return changes;
}

/** The ids of the lines whose facts `has`: the previous load's list when no line changed it. */
function idsWith(
  has: (line: IndexLine) => boolean,
  served: ReadonlyMap<string, IndexLine>,
  previous: readonly string[] | undefined,
  changed: readonly (IndexLine | undefined)[],
): string[] {
  if (previous && !changed.some((line) => line && has(line))) return [...previous];
  return [...served.keys()].filter((id) => has(served.get(id)!));
}

/**
 * Loads `<dir>/portal.json` and the datasets of `<dir>/datasets/`: those whose folder is as its
 * index line says from the line, the others read and validated (a dataset with a row filter or
 * engine kind that `checks` refuses is not served). With `previous` (a reload), only the folders
 * whose stamp changed since are compared, and a dataset whose folder no longer loads keeps the
 * version `previous` served.
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
  const file = catalogIndexPath(dir);
  const before = previous?.load?.lines;
  const stamper = previous?.load?.stamper ?? new FolderStamper(root);
  try {
    // Stamped (by workers in a large portal) while the index file is read.
    const stamping = stamper.changes();
    const opened = previous?.load ? null : await IndexFile.open(file);
    const stamped = await stamping;
    const known = before ?? opened!.lines;
    const { lines, work } = startingLines(stamped, known, before, checks);
    const index = await targetIndex(file, previous, opened?.index ?? null, lines);
    const { fresh, parsed, failed } = await reread(root, work, index, viewPrefix, checks, problems);
    const unloaded = new Set(failed.keys());
    const failures = new Map<string, { reasons: string[]; kept: boolean }>();
    for (const [id, reasons] of failed) {
      failures.set(id, { reasons, kept: before?.has(id) === true });
      if (!before?.has(id)) lines.delete(id);
    }
    // Caught between the two renames of an ingest's swap (no folder of its name): the dataset is
    // there, not yet in place; its line loaded before, if any, is kept (startingLines).
    for (const [id, aside] of stamped.swapping) {
      problems.push(`${path.join(root, id)}: being replaced (renamed aside as ${aside})`);
      unloaded.add(id);
    }
    for (const [id, line] of fresh) lines.set(id, line);
    // Read again at the next load, whatever their stamp then.
    stamper.forget(unloaded);
    const changes = changesOf(lines, fresh, before, stamped.gone);
    const removed = before ? changes.removed : [...known.keys()].filter((id) => !lines.has(id));
    if (removed.length > 0) index.append([], removed);
    index.publish();
    const sorted = !before || changes.added.length > 0;
    const served = sorted
      ? new Map([...lines.keys()].sort(compareIds).map((id) => [id, lines.get(id)!]))
      : lines;
    const touched = [...changes.added, ...changes.replaced, ...changes.removed].flatMap((id) => [
      served.get(id),
      before?.get(id),
    ]);
    const guarded = idsWith((l) => l.facts.audiences === true, served, previous?.load?.guarded, touched);
    const restricted = idsWith(
      (l) => l.facts.restricted === true,
      served,
      previous?.load?.restricted,
      touched,
    );
    const changed = changes.added.length + changes.replaced.length + changes.removed.length > 0;
    const datasets = new DatasetShelf(served, root, viewPrefix, parsed);
    const reading = {
      index,
      stamper,
      lines: served,
      reread: work.map((w) => w.id),
      changed,
      changes,
      failures,
    };
    const load = { ...reading, guarded, restricted };
    return { dir, viewPrefix, settings, datasets, problems, unloaded, load };
  } catch (error) {
    // What was stamped is not what is served: the next load compares every folder again.
    stamper.reset();
    throw error;
  }
}
