// All-or-nothing replacement of a dataset directory: build beside it, then swap with renames;
// and its removal, by a rename aside first.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { siblingName } from '../catalog/portal.js';

async function exists(target: string): Promise<boolean> {
  return stat(target).then(
    () => true,
    () => false,
  );
}

/**
 * Moves `staging` to `target`. An existing `target` is renamed aside first and put back if the
 * second rename fails; between the two renames (microseconds) the dataset's folder is absent and
 * its old one is there under a name that `loadPortal` recognises: a server reloading then keeps the
 * version it serves.
 */
async function swapIn(staging: string, target: string, id: string): Promise<void> {
  if (!(await exists(target))) {
    await rename(staging, target);
    return;
  }
  const old = path.join(path.dirname(target), siblingName(id, 'old'));
  await rename(target, old);
  try {
    await rename(staging, target);
  } catch (error) {
    await rename(old, target);
    throw error;
  }
  await rm(old, { recursive: true, force: true });
}

/**
 * Runs `build` on a fresh staging directory next to `<datasetsDir>/<id>` and swaps the result
 * in; if anything fails the staging directory is removed, and so are the folders made for it
 * (a new portal's): the portal is left as it was.
 */
export async function replaceDatasetDirectory<T>(
  datasetsDir: string,
  id: string,
  build: (stagingDir: string) => Promise<T>,
): Promise<T> {
  const made = await mkdir(datasetsDir, { recursive: true });
  const staging = path.join(datasetsDir, siblingName(id, 'staging'));
  await mkdir(staging);
  try {
    const result = await build(staging);
    await swapIn(staging, path.join(datasetsDir, id), id);
    return result;
  } catch (error) {
    await rm(made ?? staging, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Removes `<datasetsDir>/<id>`: renamed first to a hidden name that a loading portal ignores (one
 * rename: a reload sees the dataset whole or not at all; an `old` name would be served as the
 * dataset), then deleted; false when it was absent.
 */
export async function removeDatasetDirectory(datasetsDir: string, id: string): Promise<boolean> {
  const aside = path.join(datasetsDir, `.${id}.deleted-${randomBytes(6).toString('hex')}`);
  try {
    await rename(path.join(datasetsDir, id), aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  await rm(aside, { recursive: true, force: true });
  return true;
}
