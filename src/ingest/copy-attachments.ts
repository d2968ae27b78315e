// A dataset version's attachments: the previous version's files, plus those given to this ingest
// (`--attach FILE[=Title]`, `--attach-source`), each recorded in dataset.json with its title and
// MIME type.
import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { mimeTypeOf } from '../catalog/attachments.js';
import type { AttachmentEntry, DatasetFile } from '../catalog/schema.js';

/** A file to attach: its path, and the title shown instead of its name. */
export interface AttachedFile {
  readonly file: string;
  readonly title?: string;
  /** Recorded as its MIME type instead of the one of its extension. */
  readonly mimeType?: string;
  /** Served to audiences under a row filter or hidden fields too (docs/access-control.md). */
  readonly allAudiences?: boolean;
}

/** A path alone, or a path and a title. */
export type AttachedInput = string | AttachedFile;

/** The ingest options about attachments. */
export interface AttachOptions {
  /** Files copied into attachments/ (beside those the previous version had), each with its title. */
  readonly attachments?: readonly AttachedInput[];
  /** Keep the source file (a URL's download) as an attachment too. */
  readonly attachSource?: boolean;
}

/** Each input as a file and its title; refuses two files of one name and hidden names (never served). */
export function attachedFiles(inputs: readonly AttachedInput[]): AttachedFile[] {
  const files = inputs.map((input) => (typeof input === 'string' ? { file: input } : input));
  const seen = new Set<string>();
  for (const { file } of files) {
    const name = path.basename(file);
    if (name.startsWith('.') || name === '')
      throw new Error(`${file}: an attachment's name cannot start with "."`);
    if (seen.has(name)) throw new Error(`${name}: two attachments of this name`);
    seen.add(name);
  }
  return files;
}

/** The entry dataset.json records for `attached`; what it does not say is kept from `previous`. */
export function attachmentEntry(attached: AttachedFile, previous?: AttachmentEntry): AttachmentEntry {
  const name = path.basename(attached.file);
  return {
    file: name,
    title: attached.title ?? previous?.title ?? name,
    mime_type: attached.mimeType ?? previous?.mime_type ?? mimeTypeOf(name),
    all_audiences: attached.allAudiences ?? previous?.all_audiences ?? false,
  };
}

/** `file` with an entry for each of `attached` (replacing the entry of the same file name). */
export function withAttachmentEntries(file: DatasetFile, attached: readonly AttachedFile[]): DatasetFile {
  if (attached.length === 0) return file;
  const byName = new Map(file.attachments.map((entry) => [entry.file, entry]));
  for (const one of attached) {
    const name = path.basename(one.file);
    byName.set(name, attachmentEntry(one, byName.get(name)));
  }
  return { ...file, attachments: [...byName.values()] };
}

/** Copies `<from>/attachments` (if any) to `<to>/attachments`, then `files` into it (same names replaced). */
export async function copyAttachments(
  from: string,
  to: string,
  files: readonly AttachedFile[],
): Promise<void> {
  const target = path.join(to, 'attachments');
  await cp(path.join(from, 'attachments'), target, { recursive: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    },
  );
  if (files.length > 0) await mkdir(target, { recursive: true });
  for (const { file } of files) await cp(file, path.join(target, path.basename(file)));
}

/** The files an ingest attaches: `attachments`, then the source itself with `attachSource` (checked as attachedFiles does). */
export function attachmentsOf(options: AttachOptions & { readonly file: string }): AttachedFile[] {
  return attachedFiles([...(options.attachments ?? []), ...(options.attachSource ? [options.file] : [])]);
}
