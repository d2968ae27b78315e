// What dataset.json keeps of a source given as a URL (`source`): recorded by `ingest URL --refresh
// 6h`, its validators and digest updated by each later download of the same URL, dropped by
// `--refresh off`, kept as it was by an ingest of a local file.
import type { DatasetFile, DatasetSource } from '../catalog/schema.js';
import { REFRESH_EVERY } from '../catalog/schema.js';
import type { DownloadFacts } from './download.js';

/** The ingest options about the source's refreshes. */
export interface SourceOptions {
  /** `--refresh 6h`: the URL downloaded becomes the dataset's source, checked this often; `off` drops it. */
  readonly refresh?: string;
  /** What the download of a URL source said (ingest fills it in; a refresh gives its own). */
  readonly downloaded?: DownloadFacts;
}

/** The reading flags a refresh passes again. */
interface ReadingOptions {
  readonly format?: string;
  readonly sheet?: string;
  readonly nullTokens?: readonly string[];
}

/** `--refresh`: `off`, or minutes, hours or days (`30m`, `6h`, `1d`). */
export function parseRefresh(text: string): string {
  if (text !== 'off' && !REFRESH_EVERY.test(text)) throw new Error('expected 30m, 6h, 1d... or off');
  return text;
}

/** The refresh period in milliseconds (`6h` -> 21,600,000). */
export function refreshPeriodMs(every: string): number {
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[every.slice(-1) as 'm' | 'h' | 'd'];
  return Number(every.slice(0, -1)) * unit;
}

function sourceOf(refresh: string, downloaded: DownloadFacts, options: ReadingOptions): DatasetSource {
  return {
    url: downloaded.url,
    refresh,
    etag: downloaded.etag,
    last_modified: downloaded.lastModified,
    sha256: downloaded.sha256,
    format: options.format ?? null,
    sheet: options.sheet ?? null,
    null_tokens: [...(options.nullTokens ?? [])],
  };
}

/** `next` with the source the options and the previous version say (see the file's comment). */
export function recordSource(
  next: DatasetFile,
  previous: DatasetFile | null,
  options: SourceOptions & ReadingOptions,
): DatasetFile {
  const rest = { ...next };
  delete rest.source;
  const { refresh, downloaded } = options;
  const kept = previous?.source;
  if (refresh === 'off') return rest;
  if (refresh !== undefined) {
    if (!downloaded) throw new Error('--refresh: the source must be an http:// or https:// URL');
    return { ...rest, source: sourceOf(refresh, downloaded, options) };
  }
  if (!kept) return rest;
  if (downloaded?.url !== kept.url) return { ...rest, source: kept };
  const given = sourceOf(kept.refresh, downloaded, options);
  const read = {
    format: options.format === undefined ? kept.format : given.format,
    sheet: options.sheet === undefined ? kept.sheet : given.sheet,
    null_tokens: options.nullTokens === undefined ? kept.null_tokens : given.null_tokens,
  };
  return { ...rest, source: { ...given, ...read } };
}
