// The engine's views of a portal's datasets, opened when first used and kept for the most recently
// used under a budget (`--max-open-datasets`): each open dataset's files are pinned for this
// server (hard links, src/server/process-folder.ts) and its views defined over the pins (its
// rows, its full-text index, its tables of value counts). A portal no larger than the budget has
// every dataset opened at load, as before, so the version it loaded is held until a reload; a
// dataset of a larger one is opened from its folder at its first request, which finds it as its
// index line says or is refused until a reload reads it again (its folder changed since).
import { searchViewName, valueCountsViewName, type Dataset, type Portal } from '../catalog/portal.js';
import type { Engine, ViewKind } from '../engine/engine.js';
import { ApiError } from '../http/errors.js';
import type { Logger } from '../log.js';
import type { ProcessFolder } from './process-folder.js';
import { DEFAULT_MAX_OPEN_DATASETS } from './defaults.js';
import { folderStamp } from '../catalog/folder-stamps.js';

interface OpenDataset {
  /** The stamp of the index line it was opened as ('' for a portal made without an index). */
  readonly stamp: string;
  /** The dataset as served: its paths are the pins. */
  readonly served: Dataset;
  users: number;
}

/** The open datasets of one portal, by id, least recently used first. */
export class OpenDatasets {
  private readonly open = new Map<string, OpenDataset>();
  private readonly opening = new Map<string, Promise<OpenDataset>>();
  /** The drops of closed datasets' views, by view: a new opening of the view waits for them. */
  private readonly dropping = new Map<string, Promise<void>>();
  /** Datasets opened since the start (a cold dataset's first request opens one). */
  opened = 0;

  constructor(
    private readonly engine: Engine,
    private readonly folder: ProcessFolder,
    private readonly log: Logger,
    private readonly capacity = DEFAULT_MAX_OPEN_DATASETS,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /** Opens every dataset of a portal no larger than the budget (problems logged, datasets skipped). */
  async openAll(portal: Portal): Promise<void> {
    if (portal.datasets.size > this.capacity) return;
    for (const dataset of portal.datasets.values()) {
      if (dataset.file.engine) continue;
      await this.acquire(portal, dataset).then(
        (release) => release(),
        (error: unknown) => this.log.warn(`portal: dataset ${dataset.id}: ${(error as Error).message}`),
      );
    }
  }

  /** Opens `dataset` (of `portal`) unless open, for one user; the release lets it be closed again. */
  async acquire(portal: Portal, dataset: Dataset): Promise<() => void> {
    if (dataset.file.engine) return () => undefined;
    this.engine.used?.(dataset.view);
    const stamp = portal.load?.lines.get(dataset.id)?.stamp ?? '';
    let entry = this.open.get(dataset.view);
    if (!entry || entry.stamp !== stamp) entry = await this.openOnce(dataset, stamp);
    entry.users++;
    this.open.delete(dataset.view);
    this.open.set(dataset.view, entry);
    this.evict();
    let released = false;
    const held = entry;
    return () => {
      if (!released) held.users--;
      released = true;
    };
  }

  /** One opening per dataset version at a time: concurrent first requests share it. */
  private openOnce(dataset: Dataset, stamp: string): Promise<OpenDataset> {
    const key = `${dataset.view}\n${stamp}`;
    let pending = this.opening.get(key);
    if (!pending) {
      pending = this.define(dataset, stamp).finally(() => this.opening.delete(key));
      this.opening.set(key, pending);
    }
    return pending;
  }

  private async define(dataset: Dataset, stamp: string): Promise<OpenDataset> {
    if (stamp !== '' && folderStamp(dataset.dir) !== stamp) {
      throw new ApiError(
        503,
        'DatasetChanged',
        `The files of dataset ${dataset.id} changed since the portal was loaded: they are served once the server reloads.`,
        { 'Retry-After': '5' },
      );
    }
    await this.dropping.get(dataset.view);
    const served = await pinAndDefine(this.engine, this.folder, dataset);
    const before = this.open.get(dataset.view);
    if (before) this.close(before, served);
    const entry = { stamp, served, users: 0 };
    this.open.set(dataset.view, entry);
    this.opened++;
    return entry;
  }

  /** Closes the least recently used datasets no request uses while more than the budget are open. */
  private evict(): void {
    for (const [view, entry] of this.open) {
      if (this.open.size <= this.capacity) return;
      if (entry.users > 0) continue;
      this.open.delete(view);
      this.close(entry, null);
    }
  }

  /** Drops the views of a version (those `next` does not define again) and retires its pins. */
  private close(entry: OpenDataset, next: Dataset | null): void {
    const { served } = entry;
    retire(this.folder, served);
    if (next) {
      for (const field of served.valueCountsPaths.keys())
        if (!next.valueCountsPaths.has(field)) void this.drop(valueCountsViewName(served.view, field));
      return;
    }
    const views = [served.view, searchViewName(served.view)];
    for (const field of served.valueCountsPaths.keys()) views.push(valueCountsViewName(served.view, field));
    const dropped = Promise.all(views.map((view) => this.drop(view))).then(() => {
      if (this.dropping.get(served.view) === dropped) this.dropping.delete(served.view);
    });
    this.dropping.set(served.view, dropped);
  }

  private async drop(view: string): Promise<void> {
    await this.engine
      .dropView(view)
      .catch((error: unknown) => this.log.warn(`portal: drop ${view}: ${String(error)}`));
  }

  /**
   * After a reload: closes the datasets no longer served or served as another version (a request
   * opens the new one), and opens every dataset again when the portal fits the budget.
   */
  async reloaded(portal: Portal): Promise<void> {
    for (const [view, entry] of this.open) {
      const line = portal.load?.lines.get(entry.served.id);
      if (line?.stamp === entry.stamp && entry.stamp !== '') continue;
      if (entry.users > 0 && line) continue;
      this.open.delete(view);
      this.close(entry, null);
    }
    await this.openAll(portal);
  }
}

/**
 * How the tables of value counts of `dataset` are served: a public dataset's may be looked up
 * outside DuckDB (src/engine/duckdb/count-lookup.ts), a restricted one's never are.
 */
export function countsViewKind(dataset: Dataset): ViewKind {
  return dataset.file.visibility === 'restricted' ? 'pinned' : 'counts';
}

/** Pins the dataset's files and defines its views over the pins: the dataset as served. */
async function pinAndDefine(engine: Engine, folder: ProcessFolder, dataset: Dataset): Promise<Dataset> {
  const parquetPath = await folder.pin(dataset.parquetPath);
  const searchIndexPath = dataset.searchIndexPath && (await folder.pin(dataset.searchIndexPath));
  const valueCountsPaths = new Map<string, string>();
  for (const [field, file] of dataset.valueCountsPaths) valueCountsPaths.set(field, await folder.pin(file));
  const served = { ...dataset, parquetPath, searchIndexPath, valueCountsPaths };
  try {
    await engine.defineView(served.view, served.parquetPath, 'dataset');
    if (served.searchIndexPath) await engine.defineView(searchViewName(served.view), served.searchIndexPath);
    else await engine.dropView(searchViewName(served.view));
    for (const [field, file] of served.valueCountsPaths)
      await engine.defineView(valueCountsViewName(served.view, field), file, countsViewKind(served));
    return served;
  } catch (error) {
    await folder.unpin(served.parquetPath);
    if (served.searchIndexPath) await folder.unpin(served.searchIndexPath);
    for (const file of served.valueCountsPaths.values()) await folder.unpin(file);
    throw error;
  }
}

/** The pins of a version closed: queries planned over it may still be opening its files. */
function retire(folder: ProcessFolder, dataset: Dataset): void {
  folder.retire(dataset.parquetPath);
  if (dataset.searchIndexPath) folder.retire(dataset.searchIndexPath);
  for (const file of dataset.valueCountsPaths.values()) folder.retire(file);
}
