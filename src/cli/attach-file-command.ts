// `duckportal attach-file --portal DIR DATASET FILE` and `detach-file --portal DIR DATASET FILE`:
// a new version of the dataset with one attachment more or less, then its servers signalled.
import { attachFile, detachFile } from '../ingest/attach-file.js';
import type { AttachFileFlags, DetachFileFlags } from './attach-file.js';
import { reloadServers } from './reload-servers.js';

/** Attaches `file` to dataset `id` and says so. */
export async function attach(flags: AttachFileFlags, id: string, file: string): Promise<void> {
  const name = await attachFile(flags.portal, id, {
    file,
    ...(flags.title !== undefined ? { title: flags.title } : {}),
    ...(flags.mimeType !== undefined ? { mimeType: flags.mimeType } : {}),
    ...(flags.allAudiences ? { allAudiences: true } : {}),
  });
  process.stdout.write(`${id}: attached ${name}\n`);
  if (flags.reload) await reloadServers(flags.portal, flags.quiet);
}

/** Removes the attachment `named` (file name or id) of dataset `id` and says so. */
export async function detach(flags: DetachFileFlags, id: string, named: string): Promise<void> {
  const name = await detachFile(flags.portal, id, named);
  process.stdout.write(`${id}: detached ${name}\n`);
  if (flags.reload) await reloadServers(flags.portal, flags.quiet);
}
