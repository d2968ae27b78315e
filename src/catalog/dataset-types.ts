// The types of a loaded portal and its datasets (apart from the loader, which the index's shelf of
// datasets sits under).
import type { DatasetFile, PortalFile } from './schema.js';
import type { Attachment } from './attachments.js';
import type { IndexFile, IndexLine } from './catalog-index.js';
import type { FolderStamper } from './folder-stamps.js';

/** A dataset as served: its directory, its validated metadata and its attachments. */
export interface Dataset {
  readonly id: string;
  /** The name of its view in the engine: the id, after the portal's view prefix. */
  readonly view: string;
  readonly dir: string;
  /** Its data.parquet (absent for a dataset attached to ClickHouse: see `file.engine`). */
  readonly parquetPath: string;
  /** Present when the dataset has a full-text index beside its data. */
  readonly searchIndexPath: string | null;
  /** Its tables of value counts by field (`computed.value_counts` whose file is there). */
  readonly valueCountsPaths: ReadonlyMap<string, string>;
  readonly file: DatasetFile;
  readonly attachments: readonly Attachment[];
}

/**
 * Why an audience's row filter (ODSQL text, kept as text here) cannot be a condition, or null
 * when it can: handed in by the server, which parses filters where it compiles queries.
 */
export type RowFilterCheck = (text: string) => string | null;

/** What the loader cannot decide alone, handed in by the server: row filters and engine kinds. */
export interface DatasetChecks {
  readonly rowFilter: RowFilterCheck;
  /** The names `engine.kind` may give (the engines' registry sits above the catalog). */
  readonly engineKinds: ReadonlySet<string>;
}

/** A loaded portal; `problems` lists every file that did not validate (those datasets are not served). */
export interface Portal {
  readonly dir: string;
  /** What the names of its views in the engine start with: '' alone, apart when portals share an engine. */
  readonly viewPrefix: string;
  readonly settings: PortalFile;
  readonly datasets: ReadonlyMap<string, Dataset>;
  readonly problems: readonly string[];
  /**
   * Dataset folders that hold something but did not load (their problems say why), and datasets
   * caught in the middle of being replaced: a reload keeps serving their version loaded before.
   */
  readonly unloaded: ReadonlySet<string>;
  /** How the load went, for the next reload and the catalog table; absent on a portal made by hand. */
  readonly load?: PortalLoad;
}

/** Ids of the datasets a load changed: added, replaced by another version, removed. */
export interface CatalogChanges {
  readonly added: readonly string[];
  readonly replaced: readonly string[];
  readonly removed: readonly string[];
}

/** What a load read: every served dataset's line of the index, and what changed since the last load. */
export interface PortalLoad {
  /** The index file, open: the lines of the datasets read at start are read through it. */
  readonly index: IndexFile;
  /** What stamped the dataset folders, remembering their stamps for the next load. */
  readonly stamper: FolderStamper;
  /** The index line of each served dataset, in the catalog's order (ids sorted). */
  readonly lines: ReadonlyMap<string, IndexLine>;
  /** The dataset folders this load read and validated (the others came from the index as they were). */
  readonly reread: readonly string[];
  /** Whether the set of served datasets or any of them differs from the load before. */
  readonly changed: boolean;
  /** The datasets added, served as another line, and no longer served since the load before. */
  readonly changes: CatalogChanges;
  /** The datasets that name audiences (the others read alike by every identified caller). */
  readonly guarded: readonly string[];
  /** The datasets whose visibility is `restricted` (the others are open to every caller). */
  readonly restricted: readonly string[];
  /** The folders read that did not load: why, and whether the version loaded before is kept. */
  readonly failures: ReadonlyMap<string, { readonly reasons: readonly string[]; readonly kept: boolean }>;
}
