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
    .map((entry) => attachmentOf(dir, entry.name, marked))
    .sort((a, b) => a.fileName.localeCompare(b.fileName));
}

/** The attachment of the file `fileName` of `dir` (the catalog's index keeps the names alone). */
export function attachmentOf(dir: string, fileName: string, marked: ReadonlySet<string>): Attachment {
  return {
    id: attachmentId(fileName),
    fileName,
    filePath: path.join(dir, fileName),
    mimeType: mime.lookup(fileName) || 'application/octet-stream',
    allAudiences: marked.has(fileName),
  };
}
