// A portal folder holding a sample dataset twice: as ingest wrote it (Parquet) and attached to a
// two-shard ClickHouse cluster by `duckportal attach`, after the sample's rows were loaded into
// the cluster. Tests ask both and compare.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
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

export interface AttachedCopy {
  readonly portalDir: string;
  readonly cluster: ClickHouseCluster;
  /** Runs `duckportal attach` on the portal with `args`, `server` as --clickhouse; its stderr. */
  attach(args: readonly string[], server: string): Promise<string>;
  /** Stops the cluster and removes every file. */
  remove(): Promise<void>;
}

/** The URL of a cluster's first shard with the read-only user's credentials in it. */
export function readOnlyUrl(cluster: ClickHouseCluster): string {
  const credentials = `${encodeURIComponent(PORTAL_USER)}:${encodeURIComponent(PORTAL_PASSWORD)}`;
  return cluster.shards[0]!.url.replace('//', `//${credentials}@`);
}

/**
 * A portal with the sample dataset `sample` as `parquetId` and, loaded into the cluster as
 * `table`, attached as `attachedId` with the read-only user and `attachArgs` (--title, --facet).
 */
export async function portalWithAttachedCopy(
  sample: string,
  { parquetId, attachedId, table }: { parquetId: string; attachedId: string; table: string },
  attachArgs: readonly string[] = [],
): Promise<AttachedCopy> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-attached-'));
  const cluster = await startClickHouseCluster(path.join(dir, 'cluster'), 2);
  const portalDir = path.join(dir, 'portal');
  const attach = async (args: readonly string[], server: string): Promise<string> =>
    (await run(process.execPath, [CLI, 'attach', '--portal', portalDir, '--clickhouse', server, ...args]))
      .stderr;
  try {
    await mkdir(path.join(portalDir, 'datasets'), { recursive: true });
    await writeFile(path.join(portalDir, 'portal.json'), JSON.stringify({ title: 'Attached' }));
    const parquetDir = path.join(portalDir, 'datasets', parquetId);
    await cp(path.join(SAMPLE_PORTAL, 'datasets', sample), parquetDir, { recursive: true });
    await loadDataset(cluster, parquetDir, table);
    await attach(['--id', attachedId, '--table', table, ...attachArgs], readOnlyUrl(cluster));
  } catch (error) {
    await cluster.stop();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    portalDir,
    cluster,
    attach,
    async remove() {
      await cluster.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
