// Loads a portal folder through the catalog's index (catalog-index.ts): every dataset folder is
// stamped (its own and its dataset.json's inode, size and time), and only the folders whose stamp
// differs from their index line are read and validated again; the others are served from their
// lines, parsed when first asked for (dataset-shelf.ts). A load also says which folders it read.
import { statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { portalFileSchema } from './schema.js';
import { catalogIndexPath, IndexFile, writeIndex, type IndexLine, type NewLine } from './catalog-index.js';
import { DatasetShelf } from './dataset-shelf.js';
import { loadDataset, readJson } from './dataset-folder.js';
import { catalogRow } from './catalog-table.js';
import { datasetVersion } from './data-version.js';
import type { Dataset, DatasetChecks, Portal } from './dataset-types.js';

export const DATASET_ID = /^[a-z0-9][a-z0-9_-]*$/;

const OLD_SIBLING = /^\.([a-z0-9][a-z0-9_-]*)\.old-[0-9a-f]{12}$/;

/** Folders stamped between two turns of the event loop (about 20 ms of stat calls here). */
const STAMPS_PER_TURN = 1_000;
/** Folders read and validated at once. */
const CONCURRENT_READS = 32;

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
 * it holds every fact (a line written before `restricted` existed is read again once).
 */
function stillHolds(line: IndexLine, checks: DatasetChecks): boolean {
  const { engine, filters = [], restricted } = line.facts;
  return (
    typeof restricted === 'boolean' &&
    (engine === undefined || checks.engineKinds.has(engine)) &&
    filters.every((f) => checks.rowFilter(f) === null)
  );
}

/** The index line of a dataset read from its folder. */
async function newLine(dataset: Dataset, stamp: string): Promise<NewLine> {
  const { file } = dataset;
  const version = await datasetVersion(dataset);
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
    },
    row: JSON.stringify(row),
    record: {
      file,
      search: dataset.searchIndexPath !== null,
      counts: [...dataset.valueCountsPaths.keys()],
      attachments: dataset.attachments.map((a) => a.fileName),
    },
  };
}

/** What reading the changed folders gave: new lines, datasets parsed, and their problems in id order. */
interface Reread {
  readonly fresh: Map<string, NewLine>;
  readonly parsed: Dataset[];
  /** Why each folder that did not load failed. */
  readonly failed: Map<string, string[]>;
}

async function reread(
  root: string,
  work: readonly { id: string; stamp: string | null }[],
  viewPrefix: string,
  checks: DatasetChecks,
  problems: string[],
): Promise<Reread> {
  const result: Reread = { fresh: new Map(), parsed: [], failed: new Map() };
  for (let start = 0; start < work.length; start += CONCURRENT_READS) {
    const slice = work.slice(start, start + CONCURRENT_READS);
    const found = await Promise.all(
      slice.map(async ({ id, stamp }) => {
        const own: string[] = [];
        const dataset = await loadDataset(path.join(root, id), viewPrefix, checks, own);
        return { id, own, dataset, line: dataset && stamp ? await newLine(dataset, stamp) : null };
      }),
    );
    for (const { id, own, dataset, line } of found) {
      problems.push(...own);
      if (dataset && line) {
        result.fresh.set(id, line);
        result.parsed.push(dataset);
      } else result.failed.set(id, own);
    }
  }
  return result;
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
  const opened = previous?.load ? null : await IndexFile.open(catalogIndexPath(dir));
  const known = previous?.load?.lines ?? opened!.lines;
  const lines = new Map<string, IndexLine>();
  const work: { id: string; stamp: string | null }[] = [];
  for (const [i, id] of ids.entries()) {
    const line = known.get(id);
    if (line && line.stamp === stamps[i] && stillHolds(line, checks)) lines.set(id, line);
    else work.push({ id, stamp: stamps[i]! });
  }
  const { fresh, parsed, failed } = await reread(root, work, viewPrefix, checks, problems);
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
  const order = [...new Set([...lines.keys(), ...fresh.keys()])].sort(compareIds);
  const removed = [...known.keys()].filter((id) => !lines.has(id) && !fresh.has(id));
  let index = previous?.load?.index ?? opened!.index;
  if (previous?.load) {
    if (fresh.size > 0 || removed.length > 0)
      for (const line of index!.append([...fresh.values()], removed)) lines.set(line.id, line);
  } else if (fresh.size > 0 || removed.length > 0 || index === null) {
    const file = catalogIndexPath(dir);
    await writeIndex(file, order, lines, fresh);
    index?.close();
    const reopened = await IndexFile.open(file);
    index = reopened.index!;
    for (const [id, line] of reopened.lines) lines.set(id, line);
  }
  const served = new Map(order.map((id) => [id, lines.get(id)!]));
  const changed =
    !previous?.load ||
    served.size !== previous.load.lines.size ||
    order.some((id) => previous.load!.lines.get(id) !== served.get(id));
  const datasets = new DatasetShelf(served, root, viewPrefix, parsed);
  const guarded = order.filter((id) => served.get(id)!.facts.audiences === true);
  const restricted = order.filter((id) => served.get(id)!.facts.restricted === true);
  const reading = { index: index!, lines: served, reread: work.map((w) => w.id), changed, failures };
  const load = { ...reading, guarded, restricted };
  return { dir, viewPrefix, settings, datasets, problems, unloaded, load };
}
