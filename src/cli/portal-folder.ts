// The portal folder a command works on: checked before the command's code loads, and named on
// stderr, so that a mistyped --portal is an error instead of an empty portal or a stray folder.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** The folder `dir` names, absolute: it holds portal.json, or (`mayCreate`) is missing or empty. */
export async function checkPortalFolder(
  dir: string,
  mayCreate: boolean,
): Promise<{ folder: string; isNew: boolean }> {
  const folder = path.resolve(dir);
  const found = await stat(folder).catch(() => null);
  if (found === null) {
    if (mayCreate) return { folder, isNew: true };
    throw new Error(`${folder}: no such portal folder`);
  }
  if (!found.isDirectory()) throw new Error(`${folder}: not a folder`);
  if (await stat(path.join(folder, 'portal.json')).catch(() => null)) return { folder, isNew: false };
  if (mayCreate && (await readdir(folder)).length === 0) return { folder, isNew: true };
  throw new Error(`${folder}: not a portal folder (no portal.json)`);
}

/**
 * An action that first checks its --portal (see checkPortalFolder) and says on stderr which
 * folder it uses, unless --quiet.
 */
export function onPortal<F extends { readonly portal: string; readonly quiet?: boolean }>(
  mayCreate: boolean,
  run: (flags: F, args: string[]) => Promise<void>,
): (flags: F, args: string[]) => Promise<void> {
  return async (flags, args) => {
    const { folder, isNew } = await checkPortalFolder(flags.portal, mayCreate);
    if (!flags.quiet) process.stderr.write(`portal: ${folder}${isNew ? ' (new portal)' : ''}\n`);
    await run(flags, args);
  };
}
