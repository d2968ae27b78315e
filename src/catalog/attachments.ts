// A dataset's attachments: the regular files of its attachments/ folder, addressed by slug only.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import mime from 'mime-types';

/** One attachment file; `id` is the only handle a client ever uses (never a path). */
export interface Attachment {
  readonly id: string;
  readonly fileName: string;
  readonly filePath: string;
  readonly mimeType: string;
  /** Marked `all_audiences` in dataset.json: served to audiences under a row filter or hidden fields too. */
  readonly allAudiences: boolean;
}

/** The attachment id of a file name, as the public service spells it: `cities1000.zip` -> `cities1000_zip`. */
export function attachmentId(fileName: string): string {
  return fileName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * Lists the regular files of `dir` (no sub-folders, no links, no hidden files), sorted by name;
 * `marked` names the files dataset.json marks for all audiences (a name with no file is ignored).
 */
export async function listAttachments(dir: string, marked: ReadonlySet<string>): Promise<Attachment[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
    .map((entry) => ({
      id: attachmentId(entry.name),
      fileName: entry.name,
      filePath: path.join(dir, entry.name),
      mimeType: mime.lookup(entry.name) || 'application/octet-stream',
      allAudiences: marked.has(entry.name),
    }))
    .sort((a, b) => a.fileName.localeCompare(b.fileName));
}
