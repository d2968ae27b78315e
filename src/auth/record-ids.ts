// Record ids an audience may see: plain when everything they come from is visible to it, else a
// keyed digest per audience (stable for that audience, useless to guess or to compare across
// audiences), so a hidden field never leaks through `_links`, v1 `recordid` or a lookup by id.
// Keyed by the portal's secret alone (src/auth/portal-secret.ts), not its domain, so that ids stay
// what they were: two portals sharing a secret give one view of one dataset the same ids, which
// tells a caller nothing its own view does not (a lookup answers only rows that view reads).
import { createHmac } from 'node:crypto';
import type { Dataset } from '../catalog/portal.js';
import type { DatasetAccess } from './access.js';

/**
 * Whether `access` must get opaque record ids for `dataset`: it hides a field, and the ids come
 * from a hidden field or are digests of whole rows (hidden values included, so a guess could
 * be checked against them).
 */
export function needsOpaqueIds(dataset: Dataset, access: DatasetAccess): boolean {
  if (access.hiddenFields.size === 0) return false;
  const idField = dataset.file.fields.find((f) => f.annotations.id)?.name;
  return idField === undefined || access.hiddenFields.has(idField);
}

/** The key of one audience's digests: the same view of the same dataset gets the same ids. */
export function recordIdKey(secret: Buffer, dataset: Dataset, access: DatasetAccess): string {
  const view = JSON.stringify([dataset.id, [...access.hiddenFields].sort(), access.rowFilter]);
  return createHmac('sha256', secret).update(view).digest('hex');
}
