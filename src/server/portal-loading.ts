// A portal loaded or reloaded for serving: read through the catalog's index (only the folders
// that changed), its problems logged, its open datasets brought up to date and its catalog table
// updated when a dataset changed: the changed rows replaced in place, or the table defined again.
import { loadPortal, type Portal } from '../catalog/portal.js';
import type { QuerySource } from '../odsql/source.js';
import type { Logger } from '../log.js';
import type { LocalEngine } from './engines.js';
import { DATASET_CHECKS } from './engines.js';
import { defineCatalog, updateCatalog } from './sources.js';
import type { OpenDatasets } from './dataset-views.js';

/** A portal as served and its catalog table. */
export interface ServedPortal {
  readonly portal: Portal;
  readonly catalog: QuerySource;
}

/** Loads the portal of `dir` (a reload of `previous` when given) and prepares it for serving. */
export async function servePortal(
  { engine }: LocalEngine,
  open: OpenDatasets,
  dir: string,
  viewPrefix: string,
  previous: ServedPortal | null,
  log: Logger,
): Promise<ServedPortal> {
  const portal = await loadPortal(dir, DATASET_CHECKS, viewPrefix, previous?.portal ?? null);
  try {
    return await prepare(engine, open, portal, previous, log);
  } catch (error) {
    // Not served: the stamps it took must not hide its changes from the next load.
    portal.load?.stamper.reset();
    throw error;
  }
}

/** Logs a loaded portal's problems, brings its open datasets and its catalog table up to date. */
async function prepare(
  engine: LocalEngine['engine'],
  open: OpenDatasets,
  portal: Portal,
  previous: ServedPortal | null,
  log: Logger,
): Promise<ServedPortal> {
  for (const problem of portal.problems) log.warn(`portal: ${problem}`);
  for (const [id, { reasons, kept }] of portal.load?.failures ?? []) {
    const outcome = kept ? 'the version loaded before is still served' : 'not served';
    log.warn(`portal: dataset ${id}: ${reasons.join('; ') || 'its files did not load'} (${outcome})`);
  }
  if (previous) await open.reloaded(portal);
  else await open.openAll(portal);
  if (previous === null) return { portal, catalog: await defineCatalog(engine, portal) };
  if (settingsChanged(previous.portal, portal))
    return { portal, catalog: await defineCatalog(engine, portal) };
  if (portal.load?.changed === false) return { portal, catalog: previous.catalog };
  // The rows that changed replaced in place; the table defined again when they cannot be.
  const updated = await updateCatalog(engine, portal, previous.portal, previous.catalog);
  return { portal, catalog: updated ?? (await defineCatalog(engine, portal)) };
}

/** Whether portal.json changed what the catalog table is made of (its facets). */
function settingsChanged(before: Portal, after: Portal): boolean {
  return JSON.stringify(before.settings.catalog_facets) !== JSON.stringify(after.settings.catalog_facets);
}
