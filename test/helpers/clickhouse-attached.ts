// A portal folder holding sample datasets twice: as ingest wrote them (Parquet) and attached to a
// two-shard ClickHouse cluster by `duckportal attach`, after the sample's rows were loaded into
// the cluster. Tests ask both and compare.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  PORTAL_PASSWORD,
  PORTAL_USER,
  startClickHouseCluster,
  type ClickHouseCluster,
} from './clickhouse-cluster.js';
import { loadDataset } from './clickhouse-load.js';
import { SAMPLE_PORTAL } from './sample-portal.js';

const run = promisify(execFile);
const CLI = path.resolve('dist/src/cli.js');

/** Where a sample goes: its Parquet copy's id, the attached dataset's id, the cluster's table. */
export interface CopyIds {
  readonly parquetId: string;
  readonly attachedId: string;
  readonly table: string;
}

export interface AttachedCopy {
  readonly portalDir: string;
  readonly cluster: ClickHouseCluster;
  /** Runs `duckportal attach` on the portal with `args`, `server` as --clickhouse; its stderr. */
  attach(args: readonly string[], server: string): Promise<string>;
  /**
   * Copies the sample dataset `sample` in as `parquetId`, loads it into the cluster as `table` and
   * attaches that as `attachedId` with the read-only user and `attachArgs` (--title, --facet). With
   * `sameFields`, the attached dataset's fields then get the sample's labels and annotations
   * (facets, hierarchies, units), as an operator would write them in its dataset.json, and its
   * time of processing.
   */
  addCopy(sample: string, ids: CopyIds, attachArgs?: readonly string[], sameFields?: boolean): Promise<void>;
  /** Stops the cluster and removes every file. */
  remove(): Promise<void>;
}

/** The URL of a cluster's first shard with the read-only user's credentials in it. */
export function readOnlyUrl(cluster: ClickHouseCluster): string {
  const credentials = `${encodeURIComponent(PORTAL_USER)}:${encodeURIComponent(PORTAL_PASSWORD)}`;
  return cluster.shards[0]!.url.replace('//', `//${credentials}@`);
}

/**
 * The attached dataset's dataset.json given the Parquet copy's fields (labels, annotations: the
 * operator's part), name for name, and its time of processing.
 */
async function copyParquetMetas(parquetDir: string, attachedDir: string): Promise<void> {
  const read = async (dir: string) => JSON.parse(await readFile(path.join(dir, 'dataset.json'), 'utf8'));
  const [parquet, attached] = [await read(parquetDir), await read(attachedDir)];
  const byName = new Map(parquet.fields.map((f: { name: string }) => [f.name, f]));
  attached.fields = attached.fields.map((f: { name: string }) => ({ ...f, ...(byName.get(f.name) ?? {}) }));
  attached.computed = { ...attached.computed, data_processed: parquet.computed.data_processed };
  await writeFile(path.join(attachedDir, 'dataset.json'), JSON.stringify(attached, null, 2));
}

/** A portal folder (no dataset yet) and a two-shard cluster, in a temporary folder. */
export async function attachedPortal(): Promise<AttachedCopy> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-attached-'));
  const cluster = await startClickHouseCluster(path.join(dir, 'cluster'), 2);
  const portalDir = path.join(dir, 'portal');
  const datasets = path.join(portalDir, 'datasets');
  await mkdir(datasets, { recursive: true });
  await writeFile(path.join(portalDir, 'portal.json'), JSON.stringify({ title: 'Attached' }));
  const attach = async (args: readonly string[], server: string): Promise<string> =>
    (await run(process.execPath, [CLI, 'attach', '--portal', portalDir, '--clickhouse', server, ...args]))
      .stderr;
  return {
    portalDir,
    cluster,
    attach,
    async addCopy(sample, { parquetId, attachedId, table }, attachArgs = [], sameFields = false) {
      const parquetDir = path.join(datasets, parquetId);
      await cp(path.join(SAMPLE_PORTAL, 'datasets', sample), parquetDir, { recursive: true });
      await loadDataset(cluster, parquetDir, table);
      await attach(['--id', attachedId, '--table', table, ...attachArgs], readOnlyUrl(cluster));
      if (sameFields) await copyParquetMetas(parquetDir, path.join(datasets, attachedId));
    },
    async remove() {
      await cluster.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A portal with one sample dataset in Parquet and attached (see AttachedCopy.addCopy). */
export async function portalWithAttachedCopy(
  sample: string,
  ids: CopyIds,
  attachArgs: readonly string[] = [],
): Promise<AttachedCopy> {
  const copy = await attachedPortal();
  try {
    await copy.addCopy(sample, ids, attachArgs);
  } catch (error) {
    await copy.remove();
    throw error;
  }
  return copy;
}

/**
 * Loads the Parquet dataset `id` of the portal in `portalDir` into `cluster` (as the table of its
 * id, `-` made `_`) and attaches it as `<id>-ch` through `server`, with the Parquet copy's field
 * annotations (the operator's part: facets, hierarchy, labels) and time of processing.
 */
export async function attachCopyOf(
  cluster: ClickHouseCluster,
  portalDir: string,
  id: string,
  server: string,
): Promise<void> {
  const datasetDir = path.join(portalDir, 'datasets', id);
  const table = id.replaceAll('-', '_');
  await loadDataset(cluster, datasetDir, table);
  const args = ['attach', '--portal', portalDir, '--clickhouse', server, '--id', `${id}-ch`];
  await run(process.execPath, [CLI, ...args, '--table', table, '--quiet']);
  await copyParquetMetas(datasetDir, path.join(portalDir, 'datasets', `${id}-ch`));
}
