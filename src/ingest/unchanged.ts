// Re-ingesting unchanged input keeps the processing dates, so that a rebuilt portal is byte-identical.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { DatasetFile } from '../catalog/schema.js';

async function fileDigest(file: string): Promise<string | null> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  } catch {
    return null;
  }
  return hash.digest('hex');
}

/** True when both files exist and hold the same bytes. */
export async function sameFileContent(a: string, b: string): Promise<boolean> {
  const [digestA, digestB] = await Promise.all([fileDigest(a), fileDigest(b)]);
  return digestA !== null && digestA === digestB;
}

/**
 * `next` with the previous version's `data_processed` when the data did not change, and its
 * `metadata_processed` when nothing else in dataset.json did either: the dates say when
 * something last changed, not when ingest last ran.
 */
export function carryProcessingDates(
  next: DatasetFile,
  previous: DatasetFile | null,
  dataUnchanged: boolean,
): DatasetFile {
  if (!previous || !dataUnchanged) return next;
  const withOldDates = (file: DatasetFile, metadataProcessed: string): DatasetFile => ({
    ...file,
    computed: {
      ...file.computed,
      data_processed: previous.computed.data_processed,
      metadata_processed: metadataProcessed,
    },
  });
  const candidate = withOldDates(next, previous.computed.metadata_processed);
  const metadataUnchanged = JSON.stringify(candidate) === JSON.stringify(previous);
  return metadataUnchanged ? candidate : withOldDates(next, next.computed.metadata_processed);
}
