// A new dataset version's attachments: the previous version's files, plus any given to this ingest.
import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';

/** Copies `<from>/attachments` (if any) to `<to>/attachments`, then `files` into it (same names replaced). */
export async function copyAttachments(from: string, to: string, files: readonly string[]): Promise<void> {
  const target = path.join(to, 'attachments');
  await cp(path.join(from, 'attachments'), target, { recursive: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    },
  );
  if (files.length > 0) await mkdir(target, { recursive: true });
  for (const file of files) await cp(file, path.join(target, path.basename(file)));
}
