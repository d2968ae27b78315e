// The engine's views of a portal's datasets, over their files pinned for this server (hard links,
// src/process-folder.ts). A dataset whose files do not load (bad Parquet, a missing file, a
// dataset.json that does not validate) is logged and skipped, and keeps serving the version
// loaded before when there is one; the rest of the portal loads.
import type { Dataset, Portal } from './catalog/portal.js';
import { searchViewName } from './catalog/source.js';
import type { Engine } from './engine/engine.js';
import type { Logger } from './log.js';
import type { ProcessFolder } from './process-folder.js';

/** Defines the views of `loaded` (replacing those of `previous`) and returns the portal as served. */
export async function definePortalViews(
  engine: Engine,
  folder: ProcessFolder,
  loaded: Portal,
  previous: Portal | null,
  log: Logger,
): Promise<Portal> {
  for (const problem of loaded.problems) log.warn(`portal: ${problem}`);
  const served = new Map<string, Dataset>();
  const problems = [...loaded.problems];
  const ids = [...new Set([...loaded.datasets.keys(), ...loaded.unloaded])].sort();
  for (const id of ids) {
    const before = previous?.datasets.get(id) ?? null;
    const next = loaded.datasets.get(id);
    try {
      if (!next) throw new Error('its files did not load');
      served.set(id, await defineDataset(engine, folder, next));
    } catch (error) {
      const kept = before && (await restore(engine, before));
      const outcome = kept ? 'the version loaded before is still served' : 'not served';
      const problem = `dataset ${id}: ${(error as Error).message} (${outcome})`;
      log.warn(`portal: ${problem}`);
      problems.push(problem);
      if (kept) served.set(id, before);
      else await dropViews(engine, loaded.viewPrefix + id);
    }
  }
  for (const dataset of previous?.datasets.values() ?? []) {
    if (served.get(dataset.id) !== dataset) retire(folder, dataset);
  }
  for (const [id, dataset] of previous?.datasets ?? []) {
    if (!served.has(id)) await dropViews(engine, dataset.view);
  }
  return { ...loaded, datasets: served, problems };
}

/** Pins the dataset's files and defines its views over the pins: the dataset as served. */
async function defineDataset(engine: Engine, folder: ProcessFolder, dataset: Dataset): Promise<Dataset> {
  // Attached to ClickHouse: its table is served as it is, with nothing to pin or define here.
  if (dataset.file.engine) return dataset;
  const parquetPath = await folder.pin(dataset.parquetPath);
  const searchIndexPath = dataset.searchIndexPath && (await folder.pin(dataset.searchIndexPath));
  const served = { ...dataset, parquetPath, searchIndexPath };
  try {
    await defineViews(engine, served);
    return served;
  } catch (error) {
    await unpin(folder, served);
    throw error;
  }
}

async function defineViews(engine: Engine, dataset: Dataset): Promise<void> {
  await engine.defineView(dataset.view, dataset.parquetPath, 'dataset');
  if (dataset.searchIndexPath) await engine.defineView(searchViewName(dataset.view), dataset.searchIndexPath);
  else await engine.dropView(searchViewName(dataset.view));
}

/** Defines the views of a version served before again (a failed load may have replaced one); whether it worked. */
async function restore(engine: Engine, dataset: Dataset): Promise<boolean> {
  return defineViews(engine, dataset).then(
    () => true,
    () => false,
  );
}

/** Drops the views named `view` (a dataset's view: its portal's prefix and its id) and its index's. */
async function dropViews(engine: Engine, view: string): Promise<void> {
  await engine.dropView(view);
  await engine.dropView(searchViewName(view));
}

/** The pins of a version replaced: queries planned over it may still be opening its files. */
function retire(folder: ProcessFolder, dataset: Dataset): void {
  folder.retire(dataset.parquetPath);
  if (dataset.searchIndexPath) folder.retire(dataset.searchIndexPath);
}

async function unpin(folder: ProcessFolder, dataset: Dataset): Promise<void> {
  await folder.unpin(dataset.parquetPath);
  if (dataset.searchIndexPath) await folder.unpin(dataset.searchIndexPath);
}
