// What an ingest is asked (IngestOptions: the CLI's flags, the publishing pages' form) and what it
// reports back (IngestReport), apart from the steps of src/ingest/ingest.ts.
import type { DatasetFile, Field } from '../catalog/schema.js';
import type { GeoPointFrom } from '../catalog/geo-point-from.js';
import type { AttachOptions } from './copy-attachments.js';
import type { FieldSettings, MetasInput } from './dataset-file.js';
import type { InputFormat } from './input-format.js';
import type { IngestProblems } from './problems.js';
import type { SourceOptions } from './source-record.js';
import type { TextEncoding } from './text-encoding.js';
import type { SheetOptions } from './xlsx-source.js';

/** What to ingest and how; a workbook's sheet and header rows as SheetOptions says. */
export interface IngestOptions extends AttachOptions, SourceOptions, SheetOptions {
  readonly file: string;
  readonly portal: string;
  readonly id: string;
  /** Overrides detection by extension and content. */
  readonly format?: InputFormat;
  readonly title?: string;
  /** The fields of a geo_point_2d: a latitude and a longitude, or one field holding both (`lat,lon`). */
  readonly geoPoint?: GeoPointFrom;
  readonly facets?: readonly string[];
  /** True: `facets` replace the previous version's even when empty (default: only when some are given). */
  readonly replaceFacets?: boolean;
  /** False: no automatic facets when none is given (default true; docs/ingest.md, Automatic facets). */
  readonly autoFacets?: boolean;
  /** Field -> separator: text fields split into lists. */
  readonly multivalued?: Readonly<Record<string, string>>;
  /** A source given as an http(s) URL: the most bytes downloaded (default 2 GiB). */
  readonly maxDownload?: number;
  /** A download receiving nothing for this long is abandoned (default 30 s). */
  readonly downloadStallMs?: number;
  /** Cells meaning "no value" beyond the common ones (`NA`, `N/A`, `null`, `-`, ...). */
  readonly nullTokens?: readonly string[];
  /** The field whose value identifies each record (unique, never empty). */
  readonly recordId?: string;
  /** Who may read the dataset (default: what the previous version had, else public). */
  readonly visibility?: DatasetFile['visibility'];
  /** Its audiences (default: what the previous version had, else none). */
  readonly access?: DatasetFile['access'];
  /** Metas by template; each replaces the previous value of the same name. */
  readonly metas?: MetasInput;
  /** Labels, descriptions and annotations by field (name or source header). */
  readonly fields?: Readonly<Record<string, FieldSettings>>;
  /** Fail, writing nothing, when any value cannot be stored as the source wrote it (see IngestProblems). */
  readonly strict?: boolean;
  /** Fields data.parquet is sorted on ([]: the file's order); default: chosen by sortKey. */
  readonly sortBy?: readonly string[];
  /** Receives one line per phase, a line every `progressEveryMs` while one runs, then the problems found; omit for silence. */
  readonly progress?: (message: string) => void;
  /** A terminal to draw a progress bar on while a phase runs, instead of the periodic lines. */
  readonly progressTerminal?: NodeJS.WriteStream;
  /** How often a running phase reports as a line (default 2 s). */
  readonly progressEveryMs?: number;
  /** The longest line a CSV or TSV may hold, in bytes (default: DuckDB's, 2 MiB; tests lower it). */
  readonly maxLineBytes?: number;
}

export interface IngestReport {
  readonly datasetId: string;
  readonly directory: string;
  readonly format: InputFormat;
  /** The encoding a text source was read in (transcoded to UTF-8 unless utf-8), null for other formats. */
  readonly encoding: TextEncoding | null;
  readonly recordsCount: number;
  readonly fields: readonly Field[];
  /** The field that gives record ids, or null when ids are digests of the rows. */
  readonly recordIdField: string | null;
  /** False when data.parquet came out byte-identical to the previous version's. */
  readonly dataChanged: boolean;
  /** Values not stored as written: cells that missed their field's type, points off the globe, ambiguous dates. */
  readonly problems: IngestProblems;
  /** The problems in words, one line each (also given to `progress`). */
  readonly summary: readonly string[];
}
