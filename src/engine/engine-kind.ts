// What an engine kind supplies, together: the Engine that runs its SQL (src/engine/<kind>/) and the
// Dialect that SQL is written in (src/odsql/dialect/<kind>/), as a kysely dialect creates its
// driver and its query compiler together. The kinds are listed in one registry, kinds.ts.
import type { Dialect } from '../odsql/dialect/dialect.js';
import type { Engine, ParquetEncoder, ParquetFiles } from './engine.js';

/** An engine kind: its name (dataset.json's engine.kind) and the dialect of its SQL. */
export interface EngineKind {
  readonly name: string;
  readonly dialect: Dialect;
}

/** How the server opens its local engine. */
export interface LocalEngineOptions {
  /** Folders the engine may read; everything else is refused. */
  readonly allowedDirectories: readonly string[];
  /** Its spill folder. */
  readonly tempDirectory: string;
  readonly threads?: number;
  readonly memoryLimit: string;
  /** total_count answers kept; 0 keeps none. */
  readonly countEntries?: number;
  /** The longest a query should wait for a place, in ms (src/engine/admission.ts). */
  readonly targetWaitMs?: number;
}

/**
 * The kind of the engine of the portals' own files (Parquet), one per server: its queries are
 * compiled in odsql's default dialect, which is this kind's (a source naming no dialect).
 */
export interface LocalKind extends EngineKind {
  /** Checks that the process can run it and starts its helpers, before the server makes a folder. */
  prepare(): Promise<void>;
  /**
   * Opens it, with the encoder of the Parquet exports of attached engines that write none, and
   * the writer of the server's own Parquet files.
   */
  open(
    options: LocalEngineOptions,
  ): Promise<{ engine: Engine; parquetEncoder: ParquetEncoder; parquetFiles: ParquetFiles }>;
}

/** How the server opens the engine of an attached server. */
export interface AttachedEngineOptions {
  /** A folder of the server's own for an export's temporary files. */
  readonly tempDirectory: string;
  /** Encodes a result as Parquet (the local engine's). */
  readonly parquetEncoder?: ParquetEncoder;
  /** total_count answers kept; 0 keeps none. */
  readonly countEntries?: number;
  /** The longest a caller should wait in line, in ms (src/engine/admission.ts). */
  readonly targetWaitMs?: number;
}

/** What duckportal signs in to a server with. */
export interface ServerCredentials {
  readonly user: string;
  readonly password: string;
}

/** The kind of engine of datasets attached to a table on a server of its own (dataset.json's `engine`). */
export interface AttachedKind extends EngineKind {
  /** The credentials the portal in `portalDir` holds for servers of this kind, by address. */
  servers(portalDir: string): Promise<ReadonlyMap<string, ServerCredentials>>;
  /** The engine of the server at `url`. */
  open(url: string, credentials: ServerCredentials, options: AttachedEngineOptions): Engine;
}
