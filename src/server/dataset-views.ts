// The engine's views of a portal's datasets, over their files pinned for this server (hard links,
// src/server/process-folder.ts). A dataset whose files do not load (bad Parquet, a missing file, a
// dataset.json that does not validate) is logged and skipped, and keeps serving the version
// loaded before when there is one; the rest of the portal loads.
import { searchViewName, valueCountsViewName, type Dataset, type Portal } from '../catalog/portal.js';
import type { Engine } from '../engine/engine.js';
import type { Logger } from '../log.js';
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
      else await dropViews(engine, loaded.viewPrefix + id, countedFields(before, next));
    }
  }
  for (const dataset of previous?.datasets.values() ?? []) {
    if (served.get(dataset.id) !== dataset) retire(folder, dataset);
  }
  for (const [id, dataset] of previous?.datasets ?? []) {
    const now = served.get(id);
    if (!now) await dropViews(engine, dataset.view, dataset.valueCountsPaths.keys());
    else await dropCountViews(engine, dataset, now.valueCountsPaths);
  }
  return { ...loaded, datasets: served, problems };
}

/** Pins the dataset's files and defines its views over the pins: the dataset as served. */
async function defineDataset(engine: Engine, folder: ProcessFolder, dataset: Dataset): Promise<Dataset> {
  // Attached to ClickHouse: its table is served as it is, with nothing to pin or define here.
  if (dataset.file.engine) return dataset;
  const parquetPath = await folder.pin(dataset.parquetPath);
  const searchIndexPath = dataset.searchIndexPath && (await folder.pin(dataset.searchIndexPath));
  const valueCountsPaths = new Map<string, string>();
  for (const [field, file] of dataset.valueCountsPaths) valueCountsPaths.set(field, await folder.pin(file));
  const served = { ...dataset, parquetPath, searchIndexPath, valueCountsPaths };
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
  for (const [field, file] of dataset.valueCountsPaths)
    await engine.defineView(valueCountsViewName(dataset.view, field), file);
}

/** Defines the views of a version served before again (a failed load may have replaced one); whether it worked. */
async function restore(engine: Engine, dataset: Dataset): Promise<boolean> {
  return defineViews(engine, dataset).then(
    () => true,
    () => false,
  );
}

/**
 * Drops the views named `view` (a dataset's view: its portal's prefix and its id), its index's and
 * those of the value counts of `fields`.
 */
async function dropViews(engine: Engine, view: string, fields: Iterable<string>): Promise<void> {
  await engine.dropView(view);
  await engine.dropView(searchViewName(view));
  for (const field of fields) await engine.dropView(valueCountsViewName(view, field));
}

/** The fields with value counts in any of `versions`. */
const countedFields = (...versions: (Dataset | null | undefined)[]): Set<string> =>
  new Set(versions.flatMap((d) => [...(d?.valueCountsPaths.keys() ?? [])]));

/** Drops the views of the value counts `before` had that `kept` (its next version's) does not. */
async function dropCountViews(
  engine: Engine,
  before: Dataset,
  kept: ReadonlyMap<string, string>,
): Promise<void> {
  for (const field of before.valueCountsPaths.keys()) {
    if (!kept.has(field)) await engine.dropView(valueCountsViewName(before.view, field));
  }
}

/** The pins of a version replaced: queries planned over it may still be opening its files. */
function retire(folder: ProcessFolder, dataset: Dataset): void {
  folder.retire(dataset.parquetPath);
  if (dataset.searchIndexPath) folder.retire(dataset.searchIndexPath);
  for (const file of dataset.valueCountsPaths.values()) folder.retire(file);
}

async function unpin(folder: ProcessFolder, dataset: Dataset): Promise<void> {
  await folder.unpin(dataset.parquetPath);
  if (dataset.searchIndexPath) await folder.unpin(dataset.searchIndexPath);
  for (const file of dataset.valueCountsPaths.values()) await folder.unpin(file);
}
