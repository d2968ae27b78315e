// `attach-file` and `detach-file`: a new version of a dataset whose attachments differ, built as
// ingest builds one (a staging folder swapped in by renames) from hard links to the files of the
// version served, so that nothing is copied but the file attached and nothing served is written;
// under the dataset's lock, so that two at once (or one beside an ingest) both count.
import { copyFile, link, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { attachmentId } from '../catalog/attachments.js';
import { describeZodError } from '../catalog/portal.js';
import { datasetFileSchema, type DatasetFile } from '../catalog/schema.js';
import { isoNow } from './computed.js';
import { attachedFiles, withAttachmentEntries, type AttachedFile } from './copy-attachments.js';
import { readPreviousDatasetFile } from './dataset-file.js';
import { withDatasetLock } from './dataset-lock.js';
import { replaceDatasetDirectory } from './staging.js';

/**
 * Hard-links every file of `from` into `to` (folders made), except the relative paths of `skip`:
 * a file of the new version is then written beside the links, never through one.
 */
export async function linkTree(
  from: string,
  to: string,
  skip: ReadonlySet<string> = new Set(),
): Promise<void> {
  const walk = async (relative: string): Promise<void> => {
    await mkdir(path.join(to, relative), { recursive: true });
    for (const entry of await readdir(path.join(from, relative), { withFileTypes: true })) {
      const name = path.join(relative, entry.name);
      if (skip.has(name)) continue;
      if (entry.isDirectory()) await walk(name);
      else if (entry.isFile()) await link(path.join(from, name), path.join(to, name));
    }
  };
  await walk('');
}

/** The dataset.json of dataset `id` of `portal` (an id checked), refusing an id the portal does not have. */
async function currentDatasetFile(portal: string, id: string): Promise<DatasetFile> {
  const file = await readPreviousDatasetFile(path.join(portal, 'datasets', id, 'dataset.json'));
  if (!file) throw new Error(`${id}: no such dataset in ${portal}`);
  return file;
}

/**
 * Publishes a version of dataset `id` whose dataset.json is `next` and whose attachments folder
 * is changed by `change` (given the staged folder): everything else is the version served.
 */
async function newVersion(
  portal: string,
  id: string,
  skip: readonly string[],
  next: DatasetFile,
  change: (attachmentsDir: string) => Promise<void>,
): Promise<void> {
  const current = path.join(portal, 'datasets', id);
  await replaceDatasetDirectory(path.join(portal, 'datasets'), id, async (staging) => {
    await linkTree(current, staging, new Set(['dataset.json', ...skip]));
    await change(path.join(staging, 'attachments'));
    const dated = datasetFileSchema.safeParse({
      ...next,
      computed: { ...next.computed, metadata_processed: isoNow() },
    });
    if (!dated.success) throw new Error(`${id}: ${describeZodError(dated.error)}`);
    await writeFile(path.join(staging, 'dataset.json'), `${JSON.stringify(dated.data, null, 2)}\n`);
  });
}

/** Adds (or replaces, by file name) one attachment of dataset `id`, with its title and MIME type. */
export async function attachFile(portal: string, id: string, input: AttachedFile): Promise<string> {
  const attached = attachedFiles([input])[0]!;
  if (!(await stat(attached.file).catch(() => null))?.isFile())
    throw new Error(`${attached.file}: no such file`);
  const name = path.basename(attached.file);
  await withDatasetLock(portal, id, async () => {
    const next = withAttachmentEntries(await currentDatasetFile(portal, id), [attached]);
    await newVersion(portal, id, [path.join('attachments', name)], next, async (dir) => {
      await mkdir(dir, { recursive: true });
      await copyFile(attached.file, path.join(dir, name));
    });
  });
  return name;
}

/** Removes one attachment of dataset `id`, named by its file name or its id; the file name removed. */
export function detachFile(portal: string, id: string, named: string): Promise<string> {
  return withDatasetLock(portal, id, async () => {
    const previous = await currentDatasetFile(portal, id);
    const dir = path.join(portal, 'datasets', id, 'attachments');
    const names = await readdir(dir).catch(() => [] as string[]);
    const name = names.find((n) => n === named) ?? names.find((n) => attachmentId(n) === named);
    if (name === undefined) {
      const listed = names.length > 0 ? names.join(', ') : 'none';
      throw new Error(`${id}: no attachment "${named}" (attachments: ${listed})`);
    }
    const next = { ...previous, attachments: previous.attachments.filter((entry) => entry.file !== name) };
    await newVersion(portal, id, [path.join('attachments', name)], next, () => Promise.resolve());
    return name;
  });
}
