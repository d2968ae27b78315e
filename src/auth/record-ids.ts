// Record ids an audience may see: plain when everything they come from is visible to it, else a
// keyed digest per audience (stable for that audience, useless to guess or to compare across
// audiences), so a hidden field never leaks through `_links`, v1 `recordid` or a lookup by id.
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Dataset } from '../catalog/portal.js';
import type { DatasetAccess } from './access.js';

/** The portal's secret for record id digests, created on first start; keep it to keep ids stable. */
export const SECRET_FILE = 'secret.key';

/**
 * Reads the portal's secret, creating it (readable by its owner only) when there is none. The new
 * file is written aside and linked in place whole, so a replica starting at the same moment
 * reads either no file or the whole secret, never an empty one.
 */
export function portalSecret(portalDir: string): Buffer {
  const file = path.join(portalDir, SECRET_FILE);
  if (!existsSync(file)) createSecret(file);
  const secret = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
  if (secret.length < 32) throw new Error(`${file}: the secret must hold 32 bytes (base64url)`);
  return secret;
}

function createSecret(file: string): void {
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeFileSync(draft, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
}

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
