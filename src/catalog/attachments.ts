// A dataset's attachments: the regular files of its attachments/ folder, addressed by slug only,
// with the title and MIME type dataset.json records for each (else its file name and extension's).
import { readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import mime from 'mime-types';
import type { AttachmentEntry, DatasetFile } from './schema.js';

/** One attachment file; `id` is the only handle a client ever uses (never a path). */
export interface Attachment {
  readonly id: string;
  readonly fileName: string;
  readonly filePath: string;
  /** The title dataset.json gives it, else its file name. */
  readonly title: string;
  readonly mimeType: string;
  /** Marked `all_audiences` in dataset.json: served to audiences under a row filter or hidden fields too. */
  readonly allAudiences: boolean;
}

/** What dataset.json says of each attachment, by file name (a name with no file is ignored). */
export type AttachmentEntries = ReadonlyMap<string, Partial<AttachmentEntry>>;

/** The entries of a dataset.json's `attachments`, by file name. */
export function attachmentEntries(file: Pick<DatasetFile, 'attachments'>): AttachmentEntries {
  return new Map(file.attachments.map((entry) => [entry.file, entry]));
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

/** The MIME type of a file name by its extension (`application/octet-stream` when unknown). */
export function mimeTypeOf(fileName: string): string {
  return mime.lookup(fileName) || 'application/octet-stream';
}

/** The names of the regular files of `dir` (no sub-folders, no links, no hidden files), sorted; none when absent. */
export function attachmentFileNames(dir: string): string[] {
  let found: Dirent[];
  try {
    found = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return found
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b));
}

/** The attachment of the file `fileName` of `dir` (the catalog's index keeps the names alone). */
export function attachmentOf(dir: string, fileName: string, entries: AttachmentEntries): Attachment {
  const entry = entries.get(fileName);
  return {
    id: attachmentId(fileName),
    fileName,
    filePath: path.join(dir, fileName),
    title: entry?.title ?? fileName,
    mimeType: entry?.mime_type ?? mimeTypeOf(fileName),
    allAudiences: entry?.all_audiences ?? false,
  };
}
