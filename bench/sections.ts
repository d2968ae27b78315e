// The bench's sections, measured in the report's order against one served portal; `--only` leaves
// some out (their results are null). Peers started are kept in the run for the caller to stop.
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  benchAggregations,
  benchScaling,
  type AggregationResult,
  type ScalingResult,
} from './aggregations.js';
import { benchAttached, withAttachedFlights, type AttachedResult } from './clickhouse-attached.js';
import { benchClickHouse, withClickHouse, type ClickHouseResult } from './clickhouse.js';
import { benchHot, type HotResult } from './clickhouse-hot.js';
import { benchDownloads, type DownloadsResult } from './downloads.js';
import { benchCatalog, type CatalogResult } from './catalog.js';
import { MEMORY_CASES } from './export-cases.js';
import { benchExports, type ExportResult } from './exports.js';
import { benchFacets, type FacetBench } from './facets.js';
import { benchIngest, type IngestResult } from './ingest-bench.js';
import type { BenchFlags, BenchSection } from './flags.js';
import { rawDuckDB, servePortal, type ServedPortal } from './harness.js';
import { benchHttpCache, type HttpCacheResult } from './http-cache.js';
import { benchLoad, type LoadResult } from './load.js';
import { benchPeer, startPeers, type Peer, type PeerTime } from './peers.js';
import { benchReplicas, type ReplicaResult } from './replicas.js';
import { benchMonitoring, type MonitoringResult } from './monitoring.js';

/**
 * The benches' server keeps no answer (no response cache, no shared export file): each request is
 * a miss, and they time the work of answering.
 */
export const NO_CACHE = ['--cache-size', '0', '--no-shared-exports', '--hot-memory', '0'];

/** Sections that time plain DuckDB (or load the peers from it) beside the server. */
const DUCKDB_SECTIONS = ['aggregations', 'facets', 'exports', 'peers', 'clickhouse'] as const;

/** Whether the sections asked for need plain DuckDB over the bench datasets. */
export function needsDuckDB(sections: ReadonlySet<BenchSection>): boolean {
  return DUCKDB_SECTIONS.some((s) => sections.has(s));
}

/** One run of the bench: its flags, the sections asked for, and what main opened for them. */
export interface BenchRun {
  readonly flags: BenchFlags;
  readonly sections: ReadonlySet<BenchSection>;
  readonly portalDir: string;
  /** Where the peers (PostgreSQL, SQLite, ClickHouse) keep their data. */
  readonly peersDir: string;
  /** The server every section asks, its response cache off. */
  readonly served: ServedPortal;
  readonly log: (line: string) => void;
  /** The peers started so far, stopped by the caller whatever happens. */
  readonly peers: Peer[];
}

/** What the sections measured; null where `--only` left a section out. */
export interface SectionResults {
  readonly aggregations: AggregationResult[] | null;
  readonly facets: FacetBench[] | null;
  readonly scaling: ScalingResult[] | null;
  readonly exports: ExportResult[] | null;
  readonly load: LoadResult[] | null;
  readonly httpCache: HttpCacheResult | null;
  readonly replicas: ReplicaResult[] | null;
  readonly monitoring: MonitoringResult[] | null;
  readonly downloads: DownloadsResult | null;
  readonly catalog: CatalogResult[] | null;
  readonly ingest: IngestResult[] | null;
  /** Per peer of the run's `peers`, its time of each aggregation. */
  readonly peerTimes: (PeerTime | null)[][];
  readonly clickhouse: { peer: ClickHouseResult; hot: HotResult; attached: AttachedResult } | null;
}

/** Measures each section asked for, in the report's order. */
export async function runSections(run: BenchRun): Promise<SectionResults> {
  const { flags, sections, served, portalDir } = run;
  const { threads, runs } = flags;
  const section = async <T>(name: BenchSection, work: () => Promise<T>): Promise<T | null> => {
    if (!sections.has(name)) return null;
    run.log(`bench: ${name}`);
    return work();
  };
  const duckdb = needsDuckDB(sections)
    ? await rawDuckDB(portalDir, ['flights', 'airports', 'flights30m', 'airports1m'], threads)
    : null;
  const aggregations = await section('aggregations', () => benchAggregations(served, duckdb!, runs));
  const facets = await section('facets', () => benchFacets(served, duckdb!, runs));
  const scaling = await section('scaling', () => benchScaling(served, runs));
  const exports = await section('exports', () => allExports(run, duckdb!));
  // Exports before load, on a server no overload has touched (measured both ways: the export
  // ratios were 2-4x either way, so the order does not explain them).
  const load = await section('load', () => benchLoad(served, flags.loadSeconds));
  const httpCache = await section('http-cache', async () => {
    const cached = await servePortal(portalDir, flags.port + 2, threads);
    return benchHttpCache(cached, flags.loadSeconds).finally(() => cached.stop());
  });
  const replicas = await section('replicas', () =>
    benchReplicas(portalDir, flags.port + 1, threads, flags.loadSeconds, NO_CACHE),
  );
  const monitoring = await section('monitoring', () =>
    benchMonitoring(portalDir, flags.port + 4, threads, runs, NO_CACHE),
  );
  const downloads = await section('downloads', () =>
    benchDownloads(portalDir, flags.port + 5, threads, runs, ['--cache-size', '0'], run.log),
  );
  const catalog = await section('catalog', () =>
    benchCatalog(flags.portal, flags.port + 6, threads, NO_CACHE, run.log),
  );
  const ingest = await section('ingest', () => benchIngest(flags.portal, runs));
  const peerTimes: (PeerTime | null)[][] = [];
  if (flags.peers && sections.has('peers')) {
    run.log('bench: loading PostgreSQL and SQLite');
    run.peers.push(...(await startPeers(duckdb!, run.peersDir)));
    for (const peer of run.peers) peerTimes.push(await benchPeer(peer, served, runs));
  }
  const clickhouse = flags.peers ? await section('clickhouse', () => clickHouseBoth(run, duckdb!)) : null;
  return {
    aggregations,
    facets,
    scaling,
    exports,
    load,
    httpCache,
    replicas,
    monitoring,
    downloads,
    catalog,
    ingest,
    peerTimes,
    clickhouse,
  };
}

/** The exports on the served portal, then the 30M-row ones on a server just started for them. */
async function allExports(run: BenchRun, duckdb: DuckDBConnection): Promise<ExportResult[]> {
  const { flags } = run;
  const measured = await benchExports(run.served, 'default', duckdb, flags.runs);
  // The 30M-row exports on a server just started: its peak RSS is then the export's, not what
  // the aggregations before it left in the allocator.
  const fresh = await servePortal(run.portalDir, flags.port + 1, flags.threads, NO_CACHE);
  try {
    measured.push(...(await benchExports(fresh, 'fresh', duckdb, 1, MEMORY_CASES)));
  } finally {
    await fresh.stop();
  }
  return measured;
}

/** ClickHouse as a peer, then serving the flights attached to it beside the Parquet ones. */
function clickHouseBoth(
  run: BenchRun,
  duckdb: DuckDBConnection,
): Promise<{ peer: ClickHouseResult; hot: HotResult; attached: AttachedResult }> {
  const { flags, served } = run;
  const dir = path.join(run.peersDir, 'clickhouse');
  return withClickHouse(duckdb, dir, flags.threads, async (server) => ({
    peer: await benchClickHouse(served, server, flags.threads, flags.runs, flags.loadSeconds),
    hot: await benchHot(run.portalDir, flags.port + 7, server, flags),
    attached: await withAttachedFlights(server, dir, flags.port + 3, flags.threads, NO_CACHE, (attached) =>
      benchAttached(served, attached, flags.runs),
    ),
  }));
}
