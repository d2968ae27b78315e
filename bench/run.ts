// `make bench`: builds the bench portal, serves it, times each bench against plain DuckDB and the
// peers in the same run, prints a markdown report and writes it (and its JSON) under bench/results/.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import {
  AGGREGATIONS,
  benchAggregations,
  benchScaling,
  type AggregationResult,
  type ScalingResult,
} from './aggregations.js';
import { buildBenchPortal } from './datasets.js';
import { benchFacets } from './facets.js';
import { startPeers, type Peer } from './peers.js';
import { benchLoad, type LoadResult } from './load.js';
import { machine, markdownTable, rawDuckDB, servePortal } from './harness.js';

const OPTIONS = {
  portal: { type: 'string', default: 'data/portal' },
  port: { type: 'string', default: '18080' },
  threads: { type: 'string', default: '2' },
  runs: { type: 'string', default: '5' },
  out: { type: 'string', default: 'bench/results' },
  'load-seconds': { type: 'string', default: '10' },
  'no-peers': { type: 'boolean', default: false },
} as const;

/** `duckportal bench [--portal DIR] ...` and `make bench`: runs every bench, prints and writes the report. */
export async function main(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: OPTIONS });
  const threads = Number(values.threads);
  const runs = Number(values.runs);
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const portalDir = await buildBenchPortal(values.portal, log);
  const peersDir = path.join(os.tmpdir(), `duckportal-peers-${process.pid}`);
  const served = await servePortal(portalDir, Number(values.port), threads);
  const peers: Peer[] = [];
  try {
    const duckdb = await rawDuckDB(portalDir, ['flights', 'airports'], threads);
    log('bench: aggregations');
    const aggregations = await benchAggregations(served, duckdb, runs);
    log('bench: facets');
    const facets = await benchFacets(served, duckdb, runs);
    log('bench: scaling to 30M rows');
    const scaling = await benchScaling(served, runs);
    log('bench: load');
    const load = await benchLoad(served, Number(values['load-seconds']));
    if (!values['no-peers']) {
      log('bench: loading PostgreSQL and SQLite');
      peers.push(...(await startPeers(duckdb, peersDir)));
    }
    const peerTimes = peers.map((peer) => timePeer(peer, runs));
    const host = machine();
    const date = new Date().toISOString().slice(0, 10);
    const report = [
      `# duckportal bench, ${date}`,
      '',
      `Machine: ${host.cores} cores (${host.cpu}), ${host.memoryGiB} GiB, Node ${host.node}; DuckDB threads: ${threads}; median of ${runs} runs after a warm-up.`,
      '',
      summary(aggregations, scaling, load),
      '',
      '## Aggregations on flights-3m (3,000,000 rows)',
      '',
      'duckportal answers the record query over HTTP; DuckDB, PostgreSQL and SQLite run the same question in their own SQL',
      "(engine time from each client's timer, so the peers are not charged for HTTP or JSON).",
      '',
      aggregationTable(aggregations, peers, peerTimes),
      '',
      '## Facets of flights-3m: one request for all facets vs one GROUP BY origin, over HTTP (record query) and in DuckDB',
      '',
      markdownTable(
        [
          'request',
          'facets over HTTP (ms)',
          'GROUP BY over HTTP (ms)',
          'ratio',
          'GROUP BY in DuckDB (ms)',
          'ratio',
        ],
        facets.map((r) => [
          r.name,
          ms(r.httpMs),
          ms(r.httpGroupByMs),
          `${(r.httpMs / r.httpGroupByMs).toFixed(2)}x`,
          ms(r.groupByMs),
          `${(r.httpMs / r.groupByMs).toFixed(2)}x`,
        ]),
      ),
      '',
      '## How cost grows with rows: the same record queries on 3M and 30M rows, over HTTP',
      '',
      markdownTable(
        ['query', '3M rows (ms)', '30M rows (ms)', '30M / 3M'],
        scaling.map((r) => [r.name, ms(r.smallMs), ms(r.largeMs), `${(r.largeMs / r.smallMs).toFixed(1)}x`]),
      ),
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
    const json = { date, machine: host, threads, runs, aggregations, peers: peerJson, facets, scaling, load };
    await writeFile(path.join(values.out, `${date}.json`), `${JSON.stringify(json, null, 2)}\n`);
  } finally {
    for (const peer of peers) peer.stop();
    await served.stop();
    await rm(peersDir, { recursive: true, force: true });
  }
}

/** The paragraph an operator plans from: capacity, overload behaviour, typical costs. */
function summary(
  aggregations: readonly AggregationResult[],
  scaling: readonly ScalingResult[],
  load: readonly LoadResult[],
): string {
  const closed = load.filter((r) => r.offeredPerSecond === null);
  const capacity = Math.max(...closed.map((r) => r.completedPerSecond));
  const overload = load.find((r) => r.offeredPerSecond !== null);
  const statuses = overload ? Object.keys(overload.statuses).join(', ') : 'n/a';
  const typical = aggregations.filter((r) => r.name !== 'search()');
  const slowest = Math.max(...typical.map((r) => r.httpMs));
  const growth = scaling.map((r) => r.largeMs / r.smallMs);
  return [
    '## What one machine carries',
    '',
    `One ${machine().cores}-core machine answers about ${Math.round(capacity)} filtered 10-row page queries per second on a 3M-row dataset;`,
    `offered 4x that rate it keeps answering with only ${statuses} (no 5xx other than 503, p99 ${overload ? ms(overload.p99) : 'n/a'} ms).`,
    `Aggregations over 3M rows take ${ms(Math.min(...typical.map((r) => r.httpMs)))}-${ms(slowest)} ms each over HTTP`,
    `(1 to ${Math.max(...typical.map((r) => r.ratio)).toFixed(1)}x raw DuckDB), and cost grows ${Math.min(...growth).toFixed(1)}-${Math.max(...growth).toFixed(1)}x from 3M to 30M rows.`,
  ].join('\n');
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
        .map(([status, count]) => `${status === '0' ? 'connection error' : status}: ${count}`)
        .join(', '),
      r.p50.toFixed(1),
      r.p95.toFixed(1),
      r.p99.toFixed(1),
    ]),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.slice(2));
}
