// The server's engine policy: one local engine for every portal's files, and per portal one engine
// per attached server it holds the credentials of, each kind opened as the registry says
// (src/engine/kinds.ts); a dataset is queried on its kind's engine of its server.
import path from 'node:path';
import type { Dataset, DatasetChecks } from '../catalog/portal.js';
import { EngineUnavailable, type Engine, type ParquetEncoder, type ParquetFiles } from '../engine/engine.js';
import { ATTACHED_KINDS, ENGINE_KIND_NAMES, LOCAL_KIND } from '../engine/kinds.js';
import { whereProblem } from '../odsql/index.js';
import type { Logger } from '../log.js';
import type { ProcessFolder } from './process-folder.js';
import { DEFAULT_MEMORY_LIMIT } from './defaults.js';
import { monitoringDirectory } from './sources.js';

/** What a portal's datasets are loaded with: row filters that compile, engine kinds registered. */
export const DATASET_CHECKS: DatasetChecks = { rowFilter: whereProblem, engineKinds: ENGINE_KIND_NAMES };

/** What the server opens its engines with (its options). */
export interface EngineSettings {
  readonly threads?: number;
  readonly memoryLimit: string;
  /** Bytes of answers the server keeps; 0 keeps none. */
  readonly cacheBytes?: number;
  /** The longest a query should wait for a place of its engine, in ms. */
  readonly targetWaitMs?: number;
  /** Bytes of DuckDB's memory for copies of datasets asked often (`--hot-memory`); 0 copies none. */
  readonly hotBytes?: number;
}

/** The engine settings of the server's options: DuckDB's memory limit the default one unless given. */
export function engineSettings(options: Partial<EngineSettings>): EngineSettings {
  const { threads, memoryLimit, cacheBytes, targetWaitMs, hotBytes } = options;
  return {
    ...(threads ? { threads } : {}),
    memoryLimit: memoryLimit ?? DEFAULT_MEMORY_LIMIT,
    ...(cacheBytes !== undefined ? { cacheBytes } : {}),
    ...(targetWaitMs ? { targetWaitMs } : {}),
    ...(hotBytes !== undefined ? { hotBytes } : {}),
  };
}

/** The local engine, its encoder of the Parquet exports of attached engines, its writer of the server's files. */
export interface LocalEngine {
  readonly engine: Engine;
  readonly parquetEncoder: ParquetEncoder;
  readonly parquetFiles: ParquetFiles;
}

/** The options of every engine's waiting line and count cache. */
function lineOptions({ cacheBytes, targetWaitMs }: EngineSettings): {
  countEntries?: number;
  targetWaitMs?: number;
} {
  return {
    // --cache-size 0 measures the engine: no answer kept, not even a count.
    ...(cacheBytes === 0 ? { countEntries: 0 } : {}),
    ...(targetWaitMs ? { targetWaitMs } : {}),
  };
}

/** Checks that the process can run the local engine; before any folder of the server is made. */
export function prepareLocalEngine(): Promise<void> {
  return LOCAL_KIND.prepare();
}

/** Opens the local engine over the datasets of `portalDirs`, each with its process folder. */
export function openLocalEngine(
  portalDirs: readonly string[],
  folders: readonly ProcessFolder[],
  settings: EngineSettings,
): Promise<LocalEngine> {
  return LOCAL_KIND.open({
    allowedDirectories: portalDirs.flatMap((dir, i) => [
      path.join(dir, 'datasets'),
      folders[i]!.pinDirectory,
      monitoringDirectory(dir),
    ]),
    tempDirectory: folders[0]!.spillDirectory,
    ...(settings.threads ? { threads: settings.threads } : {}),
    memoryLimit: settings.memoryLimit,
    ...(settings.hotBytes !== undefined ? { hotBytes: settings.hotBytes } : {}),
    ...lineOptions(settings),
  });
}

/** A portal's engines of attached servers: by kind, then by server address. */
export type AttachedEngines = ReadonlyMap<string, ReadonlyMap<string, Engine>>;

/**
 * The engines of a portal's attached datasets: one per server whose credentials its folder holds
 * (a file of credentials that does not read is logged, and that kind's datasets answer 503).
 */
export async function attachedEngines(
  portalDir: string,
  log: Logger,
  local: LocalEngine,
  settings: EngineSettings,
): Promise<AttachedEngines> {
  const options = {
    tempDirectory: local.engine.tempDirectory,
    parquetEncoder: local.parquetEncoder,
    ...lineOptions(settings),
  };
  const engines = new Map<string, ReadonlyMap<string, Engine>>();
  for (const [name, kind] of ATTACHED_KINDS) {
    const servers = await kind.servers(portalDir).catch((error: unknown) => {
      log.warn(`portal: ${(error as Error).message}`);
      return new Map<string, never>();
    });
    engines.set(
      name,
      new Map([...servers].map(([url, credentials]) => [url, kind.open(url, credentials, options)])),
    );
  }
  return engines;
}

/** Every engine of `attached`. */
export function enginesOf(attached: AttachedEngines): Engine[] {
  return [...attached.values()].flatMap((servers) => [...servers.values()]);
}

/** The engine of a dataset: the local one, or its server's (unavailable without credentials). */
export function engineOf(dataset: Dataset, local: Engine, attached: AttachedEngines): Engine {
  const server = dataset.file.engine;
  if (!server) return local;
  const remote = attached.get(server.kind)?.get(server.url);
  if (!remote) throw new EngineUnavailable();
  return remote;
}
