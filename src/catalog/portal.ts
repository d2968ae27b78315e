// A portal's datasets: the loader (portal-load.ts) and the names of what the engine serves of them.
import { randomBytes } from 'node:crypto';

export type { Dataset, DatasetChecks, Portal, PortalLoad, RowFilterCheck } from './dataset-types.js';

export { DATASET_ID, loadPortal } from './portal-load.js';
export { valueCountsPath } from './dataset-shelf.js';
export { describeZodError } from './dataset-folder.js';

/**
 * The name of a folder beside a dataset's while ingest builds its next version ('staging') or
 * swaps it in ('old': the previous version, renamed aside): hidden (dot) names, so that a portal
 * being served never lists a half-built dataset.
 */
export function siblingName(id: string, role: 'staging' | 'old'): string {
  return `.${id}.${role}-${randomBytes(6).toString('hex')}`;
}

/** The view over a dataset's full-text index, from the name of the dataset's view. */
export function searchViewName(datasetView: string): string {
  return `${datasetView}__search`;
}

/** The view over the table of value counts of `field`, from the name of the dataset's view. */
export function valueCountsViewName(datasetView: string, field: string): string {
  return `${datasetView}__counts__${field}`;
}
