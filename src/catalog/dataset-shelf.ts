// A portal's datasets as a map that holds none of them whole: each is a line of the catalog's
// index, read and parsed when first asked for (one read of a few KiB, no validation: it was
// validated when written) and kept among the most recently asked. 100,000 parsed datasets took
// 4.5 KiB of heap each (450 MB); a line's place in the file takes a few dozen bytes.
import path from 'node:path';
import { attachmentEntries, attachmentOf } from './attachments.js';
import { IndexFile, type IndexLine, type StoredDataset } from './catalog-index.js';
import type { Dataset } from './dataset-types.js';

/** Parsed datasets kept by default: the pages of a catalog list and the datasets being queried. */
export const DEFAULT_SHELF_SIZE = 2_000;

/** Where ingest writes the table of value counts of `field` in the folder of a dataset. */
export function valueCountsPath(datasetDir: string, field: string): string {
  return path.join(datasetDir, 'counts', `${field}.parquet`);
}

/** The dataset a stored record describes, in the folder `dir`. */
export function storedDataset(id: string, dir: string, viewPrefix: string, stored: StoredDataset): Dataset {
  const { file } = stored;
  const entries = attachmentEntries(file);
  return {
    id,
    view: viewPrefix + id,
    dir,
    parquetPath: path.join(dir, 'data.parquet'),
    searchIndexPath: stored.search ? path.join(dir, 'search.parquet') : null,
    valueCountsPaths: new Map(stored.counts.map((field) => [field, valueCountsPath(dir, field)])),
    file,
    attachments: stored.attachments.map((name) => attachmentOf(path.join(dir, 'attachments'), name, entries)),
  };
}

/** The datasets of a portal, by id in the catalog's order, read from their index lines on demand. */
export class DatasetShelf implements ReadonlyMap<string, Dataset> {
  private readonly recent = new Map<string, Dataset>();

  constructor(
    private readonly lines: ReadonlyMap<string, IndexLine>,
    private readonly root: string,
    private readonly viewPrefix: string,
    /** Datasets parsed already (those this load validated), kept like any other. */
    parsed: Iterable<Dataset> = [],
    private readonly capacity = DEFAULT_SHELF_SIZE,
  ) {
    for (const dataset of parsed) this.keep(dataset);
  }

  get size(): number {
    return this.lines.size;
  }

  has(id: string): boolean {
    return this.lines.has(id);
  }

  get(id: string): Dataset | undefined {
    const held = this.recent.get(id);
    if (held) {
      // Most recent last: the first key is the one to let go.
      this.recent.delete(id);
      this.recent.set(id, held);
      return held;
    }
    const line = this.lines.get(id);
    if (!line) return undefined;
    return this.keep(storedDataset(id, path.join(this.root, id), this.viewPrefix, IndexFile.record(line)));
  }

  private keep(dataset: Dataset): Dataset {
    this.recent.set(dataset.id, dataset);
    if (this.recent.size > this.capacity) this.recent.delete(this.recent.keys().next().value!);
    return dataset;
  }

  /** Parses every dataset it does not hold: for small portals and the catalog exports' few callers. */
  *values(): MapIterator<Dataset> {
    for (const id of this.lines.keys()) yield this.get(id)!;
  }

  keys(): MapIterator<string> {
    return this.lines.keys();
  }

  *entries(): MapIterator<[string, Dataset]> {
    for (const id of this.lines.keys()) yield [id, this.get(id)!];
  }

  [Symbol.iterator](): MapIterator<[string, Dataset]> {
    return this.entries();
  }

  forEach(callback: (value: Dataset, key: string, map: ReadonlyMap<string, Dataset>) => void): void {
    for (const [id, dataset] of this.entries()) callback(dataset, id, this);
  }
}
