// What dataset.json keeps of a source given as a URL (`source`): recorded by `ingest URL --refresh
// 6h` with the flags that shaped the dataset, its validators, digest and flags given again updated
// by each later download of the same URL, dropped by `--refresh off`, kept as it was by an ingest of
// a local file.
import type { DatasetSource } from '../catalog/dataset-source.js';
import type { DatasetFile } from '../catalog/schema.js';
import { REFRESH_EVERY } from '../catalog/dataset-source.js';
import type { GeoPointFrom } from '../catalog/geo-point-from.js';
import type { DownloadFacts } from './download.js';
import { parseInputFormat, type InputFormat } from './input-format.js';

/** The ingest options about the source's refreshes. */
export interface SourceOptions {
  /** `--refresh 6h`: the URL downloaded becomes the dataset's source, checked this often; `off` drops it. */
  readonly refresh?: string;
  /** What the download of a URL source said (ingest fills it in; a refresh gives its own). */
  readonly downloaded?: DownloadFacts;
}

/** The ingest flags that shape a dataset, recorded with its source and passed again by a refresh. */
export interface ReadingOptions {
  readonly format?: InputFormat;
  readonly sheet?: string;
  readonly nullTokens?: readonly string[];
  readonly headerRow?: number;
  readonly skipRows?: number;
  readonly headerRows?: number;
  readonly geoPoint?: GeoPointFrom;
  readonly sortBy?: readonly string[];
  readonly autoFacets?: boolean;
  readonly strict?: boolean;
}

type RecordedFlags = Omit<DatasetSource, 'url' | 'refresh' | 'etag' | 'last_modified' | 'sha256'>;

/** The flags as the source records them: null, [] or the default when not given. */
function recordedFlags(options: ReadingOptions): RecordedFlags {
  return {
    format: options.format ?? null,
    sheet: options.sheet ?? null,
    null_tokens: [...(options.nullTokens ?? [])],
    header_row: options.headerRow ?? null,
    skip_rows: options.skipRows ?? null,
    header_rows: options.headerRows ?? null,
    geo_point: options.geoPoint ?? null,
    sort_by: options.sortBy ? [...options.sortBy] : null,
    auto_facets: options.autoFacets ?? true,
    strict: options.strict ?? false,
  };
}

/** The ingest options a source's recorded flags stand for: what a refresh passes to ingest. */
export function readingOptions(source: DatasetSource): ReadingOptions {
  return {
    ...(source.format !== null ? { format: parseInputFormat(source.format) } : {}),
    ...(source.sheet !== null ? { sheet: source.sheet } : {}),
    ...(source.null_tokens.length > 0 ? { nullTokens: source.null_tokens } : {}),
    ...(source.header_row !== null ? { headerRow: source.header_row } : {}),
    ...(source.skip_rows !== null ? { skipRows: source.skip_rows } : {}),
    ...(source.header_rows !== null ? { headerRows: source.header_rows } : {}),
    ...(source.geo_point !== null ? { geoPoint: source.geo_point } : {}),
    ...(source.sort_by !== null ? { sortBy: source.sort_by } : {}),
    autoFacets: source.auto_facets,
    ...(source.strict ? { strict: true } : {}),
  };
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
    ...recordedFlags(options),
  };
}

/** The options given, without those left undefined. */
const given = (options: object): ReadingOptions =>
  Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));

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
  // The same URL again: a flag given now replaces the one recorded, one not given keeps it.
  return {
    ...rest,
    source: sourceOf(kept.refresh, downloaded, { ...readingOptions(kept), ...given(options) }),
  };
}
