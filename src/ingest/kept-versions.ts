// The versions of a dataset a refresh replaced, kept in `<portal>/versions/<id>/<when>/` (each a
// whole dataset folder of hard links to the files it had: no byte copied, since nothing rewrites a
// file in place) so that an operator can put one back; the oldest beyond the count asked are removed.
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { linkTree } from './attach-file.js';

/** Where the versions of dataset `id` are kept. */
export const keptVersionsDir = (portal: string, id: string): string => path.join(portal, 'versions', id);

/** `2026-11-27T20:31:20.928+00:00` -> `20261127T203120Z`: sortable, and a valid file name everywhere. */
function folderName(dataProcessed: string): string {
  return new Date(dataProcessed)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

/**
 * Keeps the dataset folder `current` (the version about to be replaced, whose data was made at
 * `dataProcessed`) among the versions of `id`; returns the folder it went to.
 */
export async function keepVersion(
  portal: string,
  id: string,
  current: string,
  dataProcessed: string,
): Promise<string> {
  const base = path.join(keptVersionsDir(portal, id), folderName(dataProcessed));
  let target = base;
  for (let n = 2; await stat(target).catch(() => null); n++) target = `${base}-${n}`;
  try {
    await linkTree(current, target);
  } catch (error) {
    await rm(target, { recursive: true, force: true });
    throw error;
  }
  return target;
}

/** Removes the oldest kept versions of `id` beyond the `count` most recent. */
export async function pruneVersions(portal: string, id: string, count: number): Promise<void> {
  const dir = keptVersionsDir(portal, id);
  const names = (await readdir(dir).catch(() => [] as string[])).sort();
  for (const name of names.slice(0, Math.max(0, names.length - count)))
    await rm(path.join(dir, name), { recursive: true, force: true });
}
