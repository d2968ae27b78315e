// A dataset's data version, what the entity tags of its answers derive from (src/http/etag.ts):
// computed when its folder is read, and kept in the catalog's index with it.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { Dataset } from './dataset-types.js';

/** What an answer derived from: a digest of the files it read, and when their data was last processed. */
export interface DataVersion {
  readonly tag: string;
  readonly modified: Date;
}

/** The SHA-256 of a value's JSON, base64url. */
export const digest = (value: unknown): string =>
  createHash('sha256').update(JSON.stringify(value)).digest('base64url');

/** Size and modification time of a file, or null when it is gone. */
async function fileStamp(file: string): Promise<[number, number] | null> {
  return stat(file).then(
    (s) => [s.size, s.mtimeMs],
    () => null,
  );
}

/** The size and time of the files a version covers, by name in the dataset folder (null: none). */
export type FileStamps = readonly (readonly [name: string, stamp: [number, number] | null])[];

/**
 * One dataset's version: its dataset.json as loaded, and the size and time of its data, its index
 * and its attachments (names relative to the dataset folder, so a folder mounted elsewhere agrees).
 */
export async function datasetVersion(dataset: Dataset): Promise<DataVersion> {
  const files: [string, string | null][] = [
    ['data', dataset.parquetPath],
    ['search', dataset.searchIndexPath],
    ...dataset.attachments.map((a): [string, string] => [`attachments/${a.fileName}`, a.filePath]),
  ];
  const stamps = await Promise.all(
    files.map(async ([name, file]) => [name, file ? await fileStamp(file) : null] as const),
  );
  return versionOf(dataset, stamps);
}

/**
 * A dataset's version from the stamps of its files (datasetVersion's, or those its loader took);
 * `fileJson`, its dataset.json's JSON when the caller has it, is not written again.
 */
export function versionOf(
  dataset: Dataset,
  stamps: FileStamps,
  fileJson = JSON.stringify(dataset.file),
): DataVersion {
  const { data_processed, metadata_processed } = dataset.file.computed;
  const modified = new Date(Math.max(Date.parse(data_processed), Date.parse(metadata_processed)));
  // The JSON of [file, stamps], as digest([dataset.file, stamps]) writes it.
  const text = `[${fileJson},${JSON.stringify(stamps)}]`;
  return { tag: createHash('sha256').update(text).digest('base64url'), modified };
}
