// `make bench`: serves the sample portal, times each bench against plain DuckDB in the same run,
// prints a markdown report and writes it (and its JSON) under bench/results/.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AGGREGATIONS, benchAggregations, type AggregationResult } from './aggregations.js';
import { startPeers, type Peer } from './peers.js';
import { benchLoad, type LoadResult } from './load.js';
import { machine, markdownTable, rawDuckDB, servePortal } from './harness.js';

const { values } = parseArgs({
  options: {
    portal: { type: 'string', default: 'data/portal' },
    port: { type: 'string', default: '18080' },
    threads: { type: 'string', default: '2' },
    runs: { type: 'string', default: '5' },
    out: { type: 'string', default: 'bench/results' },
    'load-seconds': { type: 'string', default: '10' },
    'no-peers': { type: 'boolean', default: false },
  },
});
const threads = Number(values.threads);
const runs = Number(values.runs);

/**
 * The bench serves the portal's datasets from a temporary portal whose quotas are off, so that
 * the load test measures the engine and not the quota (the datasets are linked, not copied).
 */
async function benchPortal(portal: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-bench-'));
  const settings = JSON.parse(await readFile(path.join(portal, 'portal.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  settings.quotas = { per_ip: null, per_key: null, portal: null, concurrent_exports: null };
  await writeFile(path.join(dir, 'portal.json'), JSON.stringify(settings));
  await symlink(path.resolve(portal, 'datasets'), path.join(dir, 'datasets'));
  return dir;
}

const portalDir = await benchPortal(values.portal);
const peersDir = path.join(os.tmpdir(), `duckportal-peers-${process.pid}`);
const served = await servePortal(portalDir, Number(values.port), threads);
const peers: Peer[] = [];
try {
  const duckdb = await rawDuckDB(values.portal, ['flights', 'airports'], threads);
  const aggregations = await benchAggregations(served, duckdb, runs);
  const load = await benchLoad(served, Number(values['load-seconds']));
  if (!values['no-peers']) peers.push(...(await startPeers(duckdb, peersDir)));
  const peerTimes = peers.map((peer) => timePeer(peer, runs));
  const host = machine();
  const date = new Date().toISOString().slice(0, 10);
  const report = [
    `# duckportal bench, ${date}`,
    '',
    `Machine: ${host.cores} cores (${host.cpu}), ${host.memoryGiB} GiB, Node ${host.node}; DuckDB threads: ${threads}; median of ${runs} runs after a warm-up.`,
    '',
    '## Aggregations on flights-3m (3,000,000 rows)',
    '',
    'duckportal answers the record query over HTTP; DuckDB, PostgreSQL and SQLite run the same question in their own SQL',
    "(engine time from each client's timer, so the peers are not charged for HTTP or JSON).",
    '',
    aggregationTable(aggregations, peers, peerTimes),
    '',
    '## 10-row page queries (flights: origin = SFO, first 10 records and the total count): capacity and 4x overload',
    '',
    loadTable(load),
    '',
  ].join('\n');
  process.stdout.write(report);
  await mkdir(values.out, { recursive: true });
  await writeFile(path.join(values.out, `${date}.md`), report);
  const peerJson = Object.fromEntries(peers.map((p, i) => [p.name, peerTimes[i]]));
  await writeFile(
    path.join(values.out, `${date}.json`),
    `${JSON.stringify({ date, machine: host, threads, runs, aggregations, peers: peerJson, load }, null, 2)}\n`,
  );
} finally {
  for (const peer of peers) peer.stop();
  await served.stop();
  await rm(portalDir, { recursive: true, force: true });
  await rm(peersDir, { recursive: true, force: true });
}

/** Each aggregation case's time on a peer, in ms, or null where its SQL cannot ask it. */
function timePeer(peer: Peer, count: number): (number | null)[] {
  const dialect = peer.name.startsWith('PostgreSQL') ? 'postgres' : 'sqlite';
  const asked = AGGREGATIONS.map((c) => c[dialect] ?? null);
  const times = peer.time(
    asked.filter((sql): sql is string => sql !== null),
    count,
  );
  let next = 0;
  return asked.map((sql) => (sql === null ? null : times[next++]!));
}

function ms(n: number): string {
  return n.toFixed(n < 10 ? 1 : 0);
}

/** duckportal's time against another's, said the way it reads: "2.1x faster" or "1.3x slower". */
function versus(duckportalMs: number, otherMs: number): string {
  return otherMs >= duckportalMs
    ? `${(otherMs / duckportalMs).toFixed(1)}x faster`
    : `${(duckportalMs / otherMs).toFixed(2)}x slower`;
}

function aggregationTable(
  results: readonly AggregationResult[],
  peerList: readonly Peer[],
  peerTimes: readonly (number | null)[][],
): string {
  return markdownTable(
    [
      'query',
      'duckportal over HTTP (ms)',
      'DuckDB direct (ms)',
      'vs DuckDB',
      ...peerList.flatMap((p) => [`${p.name} (ms)`, `duckportal vs ${p.name}`]),
    ],
    results.map((r, i) => [
      r.name,
      ms(r.httpMs),
      ms(r.duckdbMs),
      versus(r.httpMs, r.duckdbMs),
      ...peerTimes.flatMap((times) => {
        const time = times[i] ?? null;
        return time === null ? ['n/a', 'n/a'] : [ms(time), versus(r.httpMs, time)];
      }),
    ]),
  );
}

function loadTable(results: readonly LoadResult[]): string {
  return markdownTable(
    ['load', 'answered/s', 'statuses', 'p50 (ms)', 'p95 (ms)', 'p99 (ms)'],
    results.map((r) => [
      r.label,
      r.completedPerSecond.toFixed(0),
      Object.entries(r.statuses)
        .map(([status, count]) => `${status}: ${count}`)
        .join(', '),
      r.p50.toFixed(1),
      r.p95.toFixed(1),
      r.p99.toFixed(1),
    ]),
  );
}
