// `duckportal refresh`: each dataset whose dataset.json names a source URL is downloaded again when
// due, asking with the validators of its last download; only new bytes (not a 304, not the same
// SHA-256) are ingested, as a new version swapped in like any ingest, the one replaced kept aside.
// A source that fails leaves the version served as it was; every outcome goes to the state file.
// The download is made unlocked; what follows holds the dataset's lock (src/ingest/dataset-lock.ts).
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { DATASET_ID } from '../catalog/portal.js';
import { replaceJsonFile, type RefreshStates, type SourceState } from '../catalog/refresh-state.js';
import type { DatasetSource } from '../catalog/dataset-source.js';
import type { DatasetFile } from '../catalog/schema.js';
import { isoNow } from './computed.js';
import { readPreviousDatasetFile } from './dataset-file.js';
import { DEFAULT_MAX_DOWNLOAD, NotModified, withDownload, type DownloadFacts } from './download.js';
import { withDatasetLock } from './dataset-lock.js';
import { ingest } from './ingest.js';
import { keepVersion, pruneVersions } from './kept-versions.js';
import { readingOptions, refreshPeriodMs } from './source-record.js';

export interface RefreshOptions {
  readonly portal: string;
  /** Versions of a dataset kept: the one served, and `keep - 1` replaced ones in versions/<id>/. */
  readonly keep: number;
  /** Check every source now, due or not. */
  readonly all?: boolean;
  /** Only these datasets (default: every one with a source). */
  readonly only?: readonly string[];
  readonly maxDownload?: number;
  readonly downloadStallMs?: number;
}

/** What became of one dataset's source. */
export interface RefreshOutcome {
  readonly id: string;
  readonly result: 'unchanged' | 'changed' | 'failed' | 'not due';
  /** A new dataset folder was swapped in: the servers have something to reload. */
  readonly published: boolean;
  /** The line the command logs for it. */
  readonly line: string;
  /** Why it failed (a failure only). */
  readonly error?: string;
}

/** The datasets of the portal with a source, in id order (a dataset.json that does not validate is skipped). */
async function sourcedDatasets(portal: string, only?: readonly string[]): Promise<[string, DatasetFile][]> {
  const ids = (await readdir(path.join(portal, 'datasets')).catch(() => [] as string[]))
    .filter((id) => DATASET_ID.test(id) && (!only || only.includes(id)))
    .sort();
  const found: [string, DatasetFile][] = [];
  for (const id of ids) {
    const file = await readPreviousDatasetFile(path.join(portal, 'datasets', id, 'dataset.json')).catch(
      () => null,
    );
    if (file?.source) found.push([id, file]);
  }
  return found;
}

/** Whether a source last checked successfully at `last` is due at `now`. */
function isDue(source: DatasetSource, state: SourceState | undefined, now: Date): boolean {
  const last = state?.last_success ? Date.parse(state.last_success) : NaN;
  return !(now.getTime() - last < refreshPeriodMs(source.refresh));
}

/**
 * Refreshes every due source of the portal, one after another, updating `states` (and the state
 * file after each, so that a run cut short keeps what it did); returns one outcome per source.
 */
export async function refreshPortal(
  options: RefreshOptions,
  states: RefreshStates,
  save: () => Promise<void>,
): Promise<RefreshOutcome[]> {
  const outcomes: RefreshOutcome[] = [];
  for (const [id, file] of await sourcedDatasets(options.portal, options.only)) {
    const source = file.source!;
    const state = states.get(id);
    const now = new Date();
    if (!options.all && !isDue(source, state, now)) {
      const next = new Date(Date.parse(state!.last_success!) + refreshPeriodMs(source.refresh));
      outcomes.push({
        id,
        result: 'not due',
        published: false,
        line: `${id}: not due (next check from ${next.toISOString()})`,
      });
      continue;
    }
    const outcome = await refreshDataset(options, id, source);
    outcomes.push(outcome);
    const failed = outcome.result === 'failed';
    states.set(id, {
      last_success: failed ? (state?.last_success ?? null) : isoNow(),
      last_check: isoNow(),
      last_result: outcome.result === 'not due' ? null : outcome.result,
      last_error: outcome.error ?? null,
      failures_total: (state?.failures_total ?? 0) + (failed ? 1 : 0),
    });
    await save();
  }
  return outcomes;
}

/** Downloads one source again and publishes it if its bytes changed. */
async function refreshDataset(
  options: RefreshOptions,
  id: string,
  source: DatasetSource,
): Promise<RefreshOutcome> {
  const download = {
    maxBytes: options.maxDownload ?? DEFAULT_MAX_DOWNLOAD,
    etag: source.etag,
    lastModified: source.last_modified,
    ...(options.downloadStallMs !== undefined ? { stallMs: options.downloadStallMs } : {}),
  };
  try {
    return await withDownload(source.url, download, (copy, facts) =>
      withDatasetLock(options.portal, id, async () => {
        // Read again under the lock: another writer (attach-file, ingest) may have published since.
        const current = await readPreviousDatasetFile(
          path.join(options.portal, 'datasets', id, 'dataset.json'),
        );
        if (current?.source?.url !== source.url)
          return {
            id,
            result: 'unchanged',
            published: false,
            line: `${id}: unchanged (no longer its source)`,
          };
        return facts.sha256 === current.source.sha256
          ? sameBytes(options.portal, id, current, facts)
          : publish(options, id, current, copy, facts);
      }),
    );
  } catch (error) {
    if (error instanceof NotModified)
      return { id, result: 'unchanged', published: false, line: `${id}: unchanged (304 Not Modified)` };
    const why = error instanceof Error ? error.message : String(error);
    return {
      id,
      result: 'failed',
      published: false,
      line: `${id}: failed, the version served is kept: ${why}`,
      error: why,
    };
  }
}

/**
 * The same bytes under other validators (a file regenerated as it was): no new version, but
 * dataset.json takes the new validators, so that the next check can be a 304.
 */
async function sameBytes(
  portal: string,
  id: string,
  file: DatasetFile,
  facts: DownloadFacts,
): Promise<RefreshOutcome> {
  const source = file.source!;
  if (source.etag !== facts.etag || source.last_modified !== facts.lastModified) {
    const next = { ...file, source: { ...source, etag: facts.etag, last_modified: facts.lastModified } };
    await replaceJsonFile(path.join(portal, 'datasets', id, 'dataset.json'), next);
  }
  return {
    id,
    result: 'unchanged',
    published: false,
    line: `${id}: unchanged (the same bytes, SHA-256 ${facts.sha256.slice(0, 12)})`,
  };
}

/** Ingests the new bytes as the next version of `id`, keeping the one replaced. */
async function publish(
  options: RefreshOptions,
  id: string,
  file: DatasetFile,
  copy: string,
  facts: DownloadFacts,
): Promise<RefreshOutcome> {
  const { portal } = options;
  const source = file.source!;
  const kept = await keepVersion(portal, id, path.join(portal, 'datasets', id), file.computed.data_processed);
  const report = await ingest({
    file: copy,
    portal,
    id,
    downloaded: facts,
    // The source attached by --attach-source is attached again: its new bytes, not the old.
    attachSource: file.attachments.some((entry) => entry.file === path.basename(copy)),
    // The flags the dataset was ingested with: a sheet's header rows, --sort-by, --geo-point...
    ...readingOptions(source),
  }).catch(async (error: unknown) => {
    await rm(kept, { recursive: true, force: true });
    throw error;
  });
  if (!report.dataChanged) {
    // New bytes, the same records (a column reordered, a line ending): the version kept is the served one.
    await rm(kept, { recursive: true, force: true });
    return {
      id,
      result: 'unchanged',
      published: true,
      line: `${id}: unchanged (new bytes, the same records)`,
    };
  }
  await pruneVersions(portal, id, options.keep - 1);
  const where = options.keep > 1 ? `; the one replaced kept in ${path.relative(portal, kept)}` : '';
  return {
    id,
    result: 'changed',
    published: true,
    line: `${id}: new version, ${report.recordsCount} records${where}`,
  };
}
