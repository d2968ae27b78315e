// The bench report's pieces: the summary paragraph, its tables, and how a measured ratio is
// written (with its 95% interval), shared by the sections of bench/report.ts.
import type { AggregationResult, ScalingResult } from './aggregations.js';
import { AGREEMENT, type Comparison } from './compare.js';
import { EXPORT_MAX_TURNS, EXPORT_MEASURING_MS, type ExportResult } from './exports.js';
import { machine, markdownTable, type MeasuredRatio } from './harness.js';
import { coldRatio, HTTP_CACHE_CLIENTS, type HttpCacheResult } from './http-cache.js';
import type { LoadResult } from './load.js';
import type { Peer, PeerTime } from './peers.js';
import { DEFAULT_MEMORY_LIMIT } from '../src/server/defaults.js';

/** The paragraph an operator plans from: capacity, overload behaviour, typical costs, exports. */
export function summary(
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

/** Milliseconds as the report writes them: one decimal under 10. */
export function ms(n: number): string {
  return n.toFixed(n < 10 ? 1 : 0);
}

/** How duckportal compares, from another's time over duckportal's: "2.1x faster" or "1.3x slower". */
function versus(otherOverDuckportal: number): string {
  return otherOverDuckportal >= 1
    ? `${otherOverDuckportal.toFixed(1)}x faster`
    : `${(1 / otherOverDuckportal).toFixed(2)}x slower`;
}

/** A ratio's 95% interval from the standard error of its log: "±7%". */
export function plusMinus(error: number): string {
  return `±${Math.round((Math.exp(1.96 * error) - 1) * 100)}%`;
}

/** A measured ratio written as `write` writes it, with its interval. */
export function known(measured: MeasuredRatio, write: (ratio: number) => string): string {
  return `${write(measured.ratio)} ${plusMinus(measured.error)}`;
}

/** The aggregations' table: each question over HTTP, in DuckDB, and in each peer. */
export function aggregationTable(
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

/** The HTTP caching section: warm, cheapest and revalidated pages, cold pages, bytes on the wire. */
export function httpCacheText(result: HttpCacheResult): string {
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

/** A table of load results: rates, statuses and latency percentiles per client count. */
export function loadTable(results: readonly LoadResult[]): string {
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

/** The exports section: how they were measured, the table, and each baseline's SQL. */
export function exportsText(results: readonly ExportResult[]): string {
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

/** The reproducibility section: each ratio against the previous run's. */
export function comparisonText(comparison: Comparison): string[] {
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
