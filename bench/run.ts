// `make bench`: builds the bench portal, serves it, times each bench against plain DuckDB and the
// peers in the same run, prints a markdown report and writes it (and its JSON) under bench/results/
// (`--only` runs some sections: their report goes to bench/results/partial/).
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  AGGREGATIONS,
  benchAggregations,
  benchScaling,
  type AggregationResult,
  type ScalingResult,
} from './aggregations.js';
import { AGREEMENT, compareRatios, type Comparison, type ReportJson } from './compare.js';
import { buildBenchPortal } from './datasets.js';
import { MEMORY_CASES } from './export-cases.js';
import { benchExports, EXPORT_MAX_TURNS, EXPORT_MEASURING_MS, type ExportResult } from './exports.js';
import { benchFacets } from './facets.js';
import { benchPeer, startPeers, type Peer, type PeerTime } from './peers.js';
import { benchClickHouse, clickHouseText, withClickHouse } from './clickhouse.js';
import { attachedText, benchAttached, withAttachedFlights } from './clickhouse-attached.js';
import { benchLoad, type LoadResult } from './load.js';
import { DEFAULT_MEMORY_LIMIT } from '../src/server/defaults.js';
import { BENCH_SECTIONS, type BenchFlags, type BenchSection } from './flags.js';
import {
  machine,
  markdownTable,
  rawDuckDB,
  RATIO_ERROR,
  servePortal,
  type MeasuredRatio,
} from './harness.js';
import { benchReplicas, replicasTable } from './replicas.js';
import { benchHttpCache, coldRatio, HTTP_CACHE_CLIENTS, type HttpCacheResult } from './http-cache.js';

/** The benches' server keeps no answer: each request is a miss, and they time the work of answering. */
const NO_CACHE = ['--cache-size', '0'];

/** `make bench` (`node dist/bench/main.js [--portal DIR] [--only SECTIONS] ...`): runs the benches, prints and writes the report. */
export async function main(flags: BenchFlags): Promise<void> {
  const started = Date.now();
  const sections = new Set(flags.only ?? BENCH_SECTIONS);
  const whole = sections.size === BENCH_SECTIONS.length;
  const previous = whole ? await previousReport(flags.compare, flags.out) : null;
  const loadBefore = os.loadavg()[0]!;
  const threads = flags.threads;
  const runs = flags.runs;
  const log = (line: string): void =>
    void process.stderr.write(`${line} (${((Date.now() - started) / 60000).toFixed(1)} min)\n`);
  const needsDuckDB = (['aggregations', 'facets', 'exports', 'peers', 'clickhouse'] as const).some((s) =>
    sections.has(s),
  );
  const portalDir = await buildBenchPortal(flags.portal, log, needsDuckDB || sections.has('scaling'));
  const peersDir = path.join(os.tmpdir(), `duckportal-peers-${process.pid}`);
  const served = await servePortal(portalDir, flags.port, threads, NO_CACHE);
  const peers: Peer[] = [];
  /** The section's results, or null when --only leaves it out. */
  const section = async <T>(name: BenchSection, work: () => Promise<T>): Promise<T | null> => {
    if (!sections.has(name)) return null;
    log(`bench: ${name}`);
    return work();
  };
  try {
    const duckdb = needsDuckDB
      ? await rawDuckDB(portalDir, ['flights', 'airports', 'flights30m', 'airports1m'], threads)
      : null;
    const aggregations = await section('aggregations', () => benchAggregations(served, duckdb!, runs));
    const facets = await section('facets', () => benchFacets(served, duckdb!, runs));
    const scaling = await section('scaling', () => benchScaling(served, runs));
    const exports = await section('exports', async () => {
      const measured = await benchExports(served, 'default', duckdb!, runs);
      // The 30M-row exports on a server just started: its peak RSS is then the export's, not what
      // the aggregations before it left in the allocator.
      const fresh = await servePortal(portalDir, flags.port + 1, threads, NO_CACHE);
      try {
        measured.push(...(await benchExports(fresh, 'fresh', duckdb!, 1, MEMORY_CASES)));
      } finally {
        await fresh.stop();
      }
      return measured;
    });
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
    const peerTimes: (PeerTime | null)[][] = [];
    if (flags.peers && sections.has('peers')) {
      log('bench: loading PostgreSQL and SQLite');
      peers.push(...(await startPeers(duckdb!, peersDir)));
      for (const peer of peers) peerTimes.push(await benchPeer(peer, served, runs));
    }
    const clickhouse = flags.peers
      ? await section('clickhouse', () =>
          withClickHouse(duckdb!, path.join(peersDir, 'clickhouse'), threads, async (server) => ({
            peer: await benchClickHouse(served, server, threads, runs, flags.loadSeconds),
            attached: await withAttachedFlights(
              server,
              path.join(peersDir, 'clickhouse'),
              flags.port + 3,
              threads,
              NO_CACHE,
              (attached) => benchAttached(served, attached, runs),
            ),
          })),
        )
      : null;
    const host = machine();
    const date = new Date().toISOString().slice(0, 10);
    const peerJson = Object.fromEntries(peers.map((p, i) => [p.name, peerTimes[i] ?? []]));
    const minutes = (Date.now() - started) / 60000;
    const json = {
      date,
      machine: host,
      threads,
      runs,
      minutes,
      ...(whole ? {} : { only: [...sections] }),
      loadAverage: { before: loadBefore, after: os.loadavg()[0]! },
      aggregations: aggregations ?? [],
      peers: peerJson,
      facets: facets ?? [],
      scaling: scaling ?? [],
      load: load ?? [],
      httpCache,
      replicas,
      clickhouse,
      exports: exports ?? [],
    };
    const comparison = previous ? compareRatios(previous, json) : null;
    const report = [
      `# duckportal bench, ${date}${whole ? '' : ` (only ${[...sections].join(', ')})`}`,
      '',
      `Machine: ${host.cores} cores (${host.cpu}), ${host.memoryGiB} GiB, Node ${host.node}; DuckDB threads: ${threads}. The two sides of a ratio are`,
      `timed in turns after a warm-up, and the ratio is the median of its turns' ratios: at least ${runs} turns, then more until it is known to`,
      `${plusMinus(RATIO_ERROR)} (95%; shown beside it) or its table's time is spent. The cases of a table take their turns in rounds (one turn of each`,
      `case, then again: a slow moment of the machine falls on a few turns of every case). Times are medians. The whole run took ${minutes.toFixed(1)} minutes.`,
      `Load average of the machine (1 min) before the run: ${loadBefore.toFixed(1)}, at its end: ${os.loadavg()[0]!.toFixed(1)} (above ${host.cores}, other work shared the cores).`,
      '',
      ...(aggregations && scaling && load && exports
        ? [summary(aggregations, scaling, load, exports), '']
        : []),
      ...(aggregations
        ? [
            '## Aggregations on flights-3m (3,000,000 rows)',
            '',
            'duckportal answers the record query over HTTP; DuckDB, PostgreSQL and SQLite run the same question in their own SQL',
            "(engine time from each client's timer, in one open session of that client, so the peers are not charged for HTTP or",
            'JSON). DuckDB and HTTP are timed in turns, and so are each peer and duckportal.',
            '',
            aggregationTable(aggregations, peers, peerTimes),
            '',
            "DuckDB's SQL of each question (the peers' in bench/aggregations.ts):",
            '',
            ...AGGREGATIONS.map((a) => `- ${a.name}: \`${a.sql.replace(/\s+/g, ' ')}\``),
            '',
          ]
        : []),
      ...(facets
        ? [
            '## Facets of flights-3m: one request over HTTP vs the SQL a person would write for the same counts, in DuckDB',
            '',
            markdownTable(
              ['request', 'facets over HTTP (ms)', 'same counts in DuckDB (ms)', 'ratio', 'DuckDB SQL'],
              facets.map((r) => [
                r.name,
                ms(r.httpMs),
                ms(r.baselineMs),
                known(r, (ratio) => `${ratio.toFixed(2)}x`),
                `\`${r.baselineSql}\``,
              ]),
            ),
            '',
          ]
        : []),
      ...(scaling
        ? [
            '## How cost grows with rows: the same record queries on 3M and 30M rows, over HTTP',
            '',
            markdownTable(
              ['query', '3M rows (ms)', '30M rows (ms)', '30M / 3M'],
              scaling.map((r) => [
                r.name,
                ms(r.smallMs),
                ms(r.largeMs),
                known(r, (ratio) => `${ratio.toFixed(1)}x`),
              ]),
            ),
            '',
          ]
        : []),
      ...(load
        ? [
            '## Throughput and latency under load (closed loops, each client sending its next request when answered)',
            '',
            'On flights-3m: a 10-row page (origin = SFO, first 10 records and the total count), all annotated facets, and',
            `group_by origin + avg(delay); ${flags.loadSeconds} s per level. Last line: page queries offered at 4x their best rate (open loop).`,
            '',
            loadTable(load),
            '',
          ]
        : []),
      ...(httpCache
        ? [
            '## HTTP caching (a server with its response cache on, the default 128MB)',
            '',
            httpCacheText(httpCache),
            '',
          ]
        : []),
      ...(replicas
        ? [
            '## Two replicas behind HAProxy vs one server (10-row pages, closed loops)',
            '',
            `Two \`serve\` processes over the bench portal behind HAProxy running deploy/haproxy.cfg, each with the DuckDB threads`,
            `of the single server, on the same machine (they share its ${host.cores} cores); ${flags.loadSeconds} s per level, response cache off.`,
            '',
            replicasTable(replicas),
            '',
          ]
        : []),
      ...(clickhouse
        ? [
            '## ClickHouse, the everyday questions over HTTP',
            '',
            clickHouseText(clickhouse.peer, (r) => known(r, (ratio) => `${ratio.toFixed(2)}x`)),
            '',
            '## The same flights served from ClickHouse (attached) and from Parquet',
            '',
            'The 3M flights loaded into the same ClickHouse with their record ids and ordinals, ordered by the same key,',
            'attached with `duckportal attach` to a portal of their own and served by a second server (same flags);',
            'each case asked of both servers under the same path, answers checked equal, timed in turns. Ratio: ClickHouse-backed / Parquet.',
            '',
            ...attachedText(clickhouse.attached, (r) => known(r, (ratio) => `${ratio.toFixed(2)}x`)),
            '',
          ]
        : []),
      ...(exports
        ? ['## Exports over HTTP vs DuckDB COPY of the same bytes to a file', '', exportsText(exports), '']
        : []),
      ...(comparison ? comparisonText(comparison) : []),
    ].join('\n');
    process.stdout.write(report);
    // A partial run goes apart: it neither replaces the day's whole report nor is compared with later.
    const out = whole ? flags.out : path.join(flags.out, 'partial');
    const name = whole ? date : `${date}-${[...sections].join('-')}`;
    await mkdir(out, { recursive: true });
    await writeFile(path.join(out, `${name}.md`), report);
    await writeFile(path.join(out, `${name}.json`), `${JSON.stringify({ ...json, comparison }, null, 2)}\n`);
  } finally {
    for (const peer of peers) await peer.stop();
    await served.stop();
    await rm(peersDir, { recursive: true, force: true });
  }
}

/** The paragraph an operator plans from: capacity, overload behaviour, typical costs, exports. */
function summary(
  aggregations: readonly AggregationResult[],
  scaling: readonly ScalingResult[],
  load: readonly LoadResult[],
  exports: readonly ExportResult[],
): string {
  const best = (request: string): number =>
    Math.max(
      ...load.filter((r) => r.request === request && r.offeredPerSecond === null).map((r) => r.okPerSecond),
    );
  const overload = load.find((r) => r.offeredPerSecond !== null);
  const others = overload ? Object.keys(overload.statuses).filter((s) => s !== '200') : [];
  const rest = others.length > 0 ? ` and the rest with ${others.join(' or ')}` : ', every answer';
  const overloaded = overload
    ? `offered 4x the page rate (${Math.round(overload.offeredPerSecond!)}/s, open loop) it answers ${Math.round(overload.okPerSecond)}/s with 200` +
      `${rest} (p99 ${ms(overload.p99)} ms).`
    : 'the open-loop overload was not measured.';
  const typical = aggregations.filter((r) => r.name !== 'search()');
  const growth = scaling.map((r) => r.ratio);
  const exported = (format: string, dataset: string, server = 'default') =>
    exports.find((e) => e.format === format && e.dataset === dataset && e.server === server);
  const csv = exported('csv', 'flights');
  const big = exported('csv', 'flights30m', 'fresh');
  const firstBytes = exports.filter((e) => !e.js && !e.error).map((e) => e.firstByteMs);
  return [
    '## What one machine carries',
    '',
    `One ${machine().cores}-core machine answers about ${Math.round(best('10-row page'))} filtered 10-row page queries per second on a 3M-row dataset,`,
    `${Math.round(best('facets (origin, destination)'))} facet requests or ${Math.round(best('group_by + avg'))} group_by aggregations per second (2xx answers, best of 1-128 clients; past that it sheds load with 503);`,
    overloaded,
    `Aggregations over 3M rows take ${ms(Math.min(...typical.map((r) => r.httpMs)))}-${ms(Math.max(...typical.map((r) => r.httpMs)))} ms each over HTTP`,
    `(up to ${Math.max(...typical.map((r) => r.ratio)).toFixed(1)}x raw DuckDB), and cost grows ${Math.min(...growth).toFixed(1)}-${Math.max(...growth).toFixed(1)}x from 3M to 30M rows.`,
    csv && big
      ? `Exports stream from the first byte in ${ms(Math.min(...firstBytes))}-${ms(Math.max(...firstBytes))} ms: all 3M flights as CSV (${csv.megabytes} MB) in ${(csv.httpMs / 1000).toFixed(1)} s,` +
        ` 30M rows (${big.megabytes} MB) in ${(big.httpMs / 1000).toFixed(0)} s, with the server at ${big.peakRssMiB ?? '?'} MiB resident at most` +
        ` (DuckDB memory limit ${DEFAULT_MEMORY_LIMIT}).`
      : '',
  ].join('\n');
}

function ms(n: number): string {
  return n.toFixed(n < 10 ? 1 : 0);
}

/** How duckportal compares, from another's time over duckportal's: "2.1x faster" or "1.3x slower". */
function versus(otherOverDuckportal: number): string {
  return otherOverDuckportal >= 1
    ? `${otherOverDuckportal.toFixed(1)}x faster`
    : `${(1 / otherOverDuckportal).toFixed(2)}x slower`;
}

/** A ratio's 95% interval from the standard error of its log: "±7%". */
function plusMinus(error: number): string {
  return `±${Math.round((Math.exp(1.96 * error) - 1) * 100)}%`;
}

/** A measured ratio written as `write` writes it, with its interval. */
function known(measured: MeasuredRatio, write: (ratio: number) => string): string {
  return `${write(measured.ratio)} ${plusMinus(measured.error)}`;
}

function aggregationTable(
  results: readonly AggregationResult[],
  peerList: readonly Peer[],
  peerTimes: readonly (PeerTime | null)[][],
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
      known(r, (ratio) => versus(1 / ratio)),
      ...peerTimes.flatMap((times) => {
        const time = times[i] ?? null;
        return time === null ? ['n/a', 'n/a'] : [ms(time.peerMs), known(time, versus)];
      }),
    ]),
  );
}

function httpCacheText(result: HttpCacheResult): string {
  const ratio = result.warm.okPerSecond / result.cheapest.okPerSecond;
  return [
    `${HTTP_CACHE_CLIENTS} clients each: the 10-row page of the load table asked again and again (answered from the cache), the`,
    `cheapest answer of the server (the catalog's export format list, no query), and the page revalidated with its ETag (304).`,
    `Warm page / cheapest: ${ratio.toFixed(2)}x.`,
    '',
    loadTable([result.warm, result.cheapest, result.revalidations]),
    '',
    'Cold pages: the same page with a condition true of every flight that makes each request a query of its own (a',
    `cache miss), at ${result.cold.map((r) => r.label).join(', ')}; a client told 503 waits its Retry-After before asking`,
    `again. Then ${result.coldAtOnce.label} that ask again at once (the server holds such a request until its`,
    'Retry-After: src/http/retry-pacing.ts). 200s/s at the most clients over the best at fewer:',
    `${coldRatio(result.cold).toFixed(2)}x waiting, ${coldRatio(result.cold, result.coldAtOnce).toFixed(2)}x asking at once.`,
    '',
    loadTable([...result.cold, result.coldAtOnce]),
    '',
    'Bytes of the body on the wire:',
    '',
    markdownTable(
      ['answer', 'plain', 'gzip', 'br'],
      result.wire.map((w) => [w.name, String(w.plain), String(w.gzip), String(w.br)]),
    ),
  ].join('\n');
}

function loadTable(results: readonly LoadResult[]): string {
  return markdownTable(
    ['request', 'clients', '2xx/s', 'all answers/s', 'statuses', 'p50 (ms)', 'p95 (ms)', 'p99 (ms)'],
    results.map((r) => [
      r.request,
      r.label,
      r.okPerSecond.toFixed(0),
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

function exportsText(results: readonly ExportResult[]): string {
  const table = markdownTable(
    [
      'format',
      'dataset',
      'server',
      'MB',
      'HTTP (ms)',
      'COPY (ms)',
      'ratio',
      'target',
      'same bytes',
      'first byte (ms)',
      'RSS at rest (MiB)',
      'peak RSS (MiB)',
    ],
    results.map((r) => [
      r.js ? `${r.format} (JS-written)` : r.format,
      r.dataset,
      r.server,
      String(r.megabytes),
      ms(r.httpMs),
      ms(r.copyMs),
      `${r.ratio.toFixed(2)}x`,
      r.error
        ? `failed: ${r.error}`
        : r.target === null
          ? 'none'
          : `<= ${r.target}x ${r.ratio <= r.target ? 'met' : 'MISSED'}`,
      r.sameBytes === null ? 'n/a' : r.sameBytes ? 'yes' : 'NO',
      ms(r.firstByteMs),
      r.restingRssMiB === null ? 'n/a' : String(r.restingRssMiB),
      r.peakRssMiB === null ? 'n/a' : String(r.peakRssMiB),
    ]),
  );
  const baselines = [...new Map(results.map((r) => [`${r.format} of ${r.dataset}`, r.baselineSql]))];
  return [
    'Each export is downloaded with curl into /dev/null (total and first-byte times from curl), alternating with DuckDB',
    'writing its baseline to a file: the SQL a person would write for the same bytes (same datetime text, number',
    "formatting, delimiter), listed below. The server writes a CSV's BOM and GeoJSON's head and tail around DuckDB's",
    'output: "same bytes" compares one download with those bytes around the baseline\'s file (SHA-256). JS-written formats',
    "have no target and no equal baseline (arrow's is COPY parquet, the others COPY json or csv of the same rows): shown for",
    `scale. The ratio is the median of each download's time over the COPY's right after it, for at least ${EXPORT_MEASURING_MS / 1000} s of`,
    `downloads (up to ${EXPORT_MAX_TURNS}). Each case starts once the server's VmRSS has stopped falling (under 1% in 1 s: what the`,
    'queries before it left, freed within seconds), shown as RSS at rest; peak RSS is its highest VmRSS sampled every 50 ms',
    'during the case. The 30M-row exports',
    "run 5 times after a warm-up, on a server started for them ('fresh', so its peak is the exports'), with the default",
    `DuckDB memory limit (${DEFAULT_MEMORY_LIMIT}), which bounds the batches an order-preserving COPY holds for a slower reader.`,
    '',
    table,
    '',
    "Baselines (`{file}`: the COPY's target):",
    '',
    ...baselines.map(([name, sql]) => `- ${name}: \`${sql.replace(/\s+/g, ' ')}\``),
  ].join('\n');
}

function comparisonText(comparison: Comparison): string[] {
  const agreeing = comparison.rows.filter((r) => r.agrees).length;
  return [
    `## Reproducibility: each ratio against the previous run (${comparison.previousDate})`,
    '',
    `${agreeing} of ${comparison.rows.length} ratios agree within ${Math.round((AGREEMENT - 1) * 100)}%.`,
    '',
    markdownTable(
      ['ratio', 'previous', 'this run', 'within 15%'],
      comparison.rows.map((r) => [
        r.name,
        r.previous.toFixed(2),
        r.current.toFixed(2),
        r.agrees ? 'yes' : 'NO',
      ]),
    ),
    '',
  ];
}

/** The report to compare with: the named JSON, else the latest JSON in the output folder, else none. */
async function previousReport(named: string | undefined, out: string): Promise<ReportJson | null> {
  if (named) return JSON.parse(await readFile(named, 'utf8')) as ReportJson;
  const files = (await readdir(out).catch(() => [])).filter((f) => f.endsWith('.json')).sort();
  const latest = files.at(-1);
  return latest ? (JSON.parse(await readFile(path.join(out, latest), 'utf8')) as ReportJson) : null;
}
