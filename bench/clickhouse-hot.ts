// The ClickHouse comparison's page and count with duckportal's copies in memory on (issue 42, item 3).
// The section's table is cold (`--hot-memory 0`: every answer read from the Parquet file). Here a
// second server as the bench starts it but with `--hot-memory` at its default is asked the page
// until it copies the flights in memory (src/engine/duckdb/hot-datasets.ts), then the filtered count
// and the 10-row page are timed in turns against ClickHouse as it runs by default, and against
// ClickHouse with its cache of uncompressed blocks on (`use_uncompressed_cache=1`, its nearest to a
// copy in memory; warmed first), and the page's throughput against the latter: caches on both sides.
import { markdownTable, medianTurnsInRounds, servePortal, type MeasuredRatio } from './harness.js';
import { closedLoopOn, type LoadResult } from './load.js';
import { CLICKHOUSE_CASES, PAGE_CASE } from './clickhouse-cases.js';
import { get, loopsTable, type ClickHouse } from './clickhouse.js';

/** The cases timed here: the two whose answers read few rows. */
const HOT_CASES = CLICKHOUSE_CASES.filter((c) => c.name.startsWith('filtered count') || c === PAGE_CASE);
const HOT_CLIENTS = [8, 32] as const;
/** Flags of the server: the bench's (no response cache, no shared files), copies at their default. */
const HOT_FLAGS = ['--cache-size', '0', '--no-shared-exports'];

export interface HotResult {
  /** Bytes of the server's copy of the flights in memory (0: none was made within 60 s). */
  readonly copyBytes: number;
  readonly times: readonly {
    readonly name: string;
    readonly portalMs: number;
    readonly clickhouseMs: number;
    readonly cachedMs: number;
    /** duckportal with its copy over ClickHouse by default, and over ClickHouse with its cache. */
    readonly ratio: MeasuredRatio;
    readonly cachedRatio: MeasuredRatio;
  }[];
  readonly pages: readonly { readonly clients: number; portal: LoadResult; cached: LoadResult }[];
}

/** Serves the bench portal on `port` with copies on, and compares as the header says. */
export async function benchHot(
  portalDir: string,
  port: number,
  clickhouse: ClickHouse,
  flags: { threads: number; runs: number; loadSeconds: number },
): Promise<HotResult> {
  const served = await servePortal(portalDir, port, flags.threads, HOT_FLAGS);
  try {
    const cachedPath = (sql: string): string => `/?use_uncompressed_cache=1&query=${encodeURIComponent(sql)}`;
    for (let i = 0; i < 16; i++) {
      await get(served.base + PAGE_CASE.path);
      for (const c of HOT_CASES) await get(clickhouse.base + cachedPath(c.sql));
    }
    const copyBytes = await copyMade(served.base);
    const ours = (path: string) => () => get(served.base + path);
    const theirs = (sql: string) => () => clickhouse.query(sql);
    const cached = (sql: string) => () => get(clickhouse.base + cachedPath(sql));
    const pairs = await medianTurnsInRounds(
      HOT_CASES.flatMap((c) => [
        [ours(c.path), theirs(c.sql)] as const,
        [ours(c.path), cached(c.sql)] as const,
      ]),
      flags.runs,
    );
    const times = HOT_CASES.map((c, i) => ({
      name: c.name,
      portalMs: pairs[2 * i]!.medians[0],
      clickhouseMs: pairs[2 * i]!.medians[1],
      cachedMs: pairs[2 * i + 1]!.medians[1],
      ratio: pairs[2 * i]!.ratio,
      cachedRatio: pairs[2 * i + 1]!.ratio,
    }));
    const pages = [];
    for (const clients of HOT_CLIENTS) {
      const { loadSeconds } = flags;
      pages.push({
        clients,
        portal: await closedLoopOn(
          served.base,
          PAGE_CASE.path,
          {},
          'duckportal page, copy',
          clients,
          loadSeconds,
        ),
        cached: await closedLoopOn(
          clickhouse.base,
          cachedPath(PAGE_CASE.sql),
          {},
          'ClickHouse page, uncompressed cache',
          clients,
          loadSeconds,
        ),
      });
    }
    return { copyBytes, times, pages };
  } finally {
    await served.stop();
  }
}

/** Waits (at most 60 s) for the server's copy of the flights in memory: its bytes, or 0. */
async function copyMade(base: string): Promise<number> {
  for (let waited = 0; waited < 60_000; waited += 250) {
    const line = (await get(`${base}/metrics`)).match(/^duckportal_hot_datasets_bytes\{[^}]*\} (\S+)$/m);
    const bytes = Number(line?.[1] ?? 0);
    if (bytes > 0) return bytes;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return 0;
}

/** The part of the report: both tables, after the section's cold ones. */
export function hotText(result: HotResult, known: (ratio: MeasuredRatio) => string): string[] {
  const ms = (n: number): string => n.toFixed(n < 10 ? 1 : 0);
  const copy =
    result.copyBytes > 0
      ? `its copy of the flights in memory, ${(result.copyBytes / 2 ** 20).toFixed(1)} MiB, made before the timing`
      : 'but it made no copy of the flights within 60 s: read from the file';
  return [
    `With caches on both sides: a second server with the same flags but \`--hot-memory\` at its default (${copy}),`,
    'against ClickHouse by default and with `use_uncompressed_cache=1` (its cache of decompressed blocks, warmed first), in turns.',
    '',
    markdownTable(
      ['case', 'duckportal, copy (ms)', 'ClickHouse (ms)', 'ratio', 'ClickHouse, cache (ms)', 'ratio'],
      result.times.map((t) => [
        t.name,
        ms(t.portalMs),
        ms(t.clickhouseMs),
        known(t.ratio),
        ms(t.cachedMs),
        known(t.cachedRatio),
      ]),
    ),
    '',
    'The same page in closed loops, caches on both sides:',
    '',
    loopsTable(
      ['duckportal, copy', 'ClickHouse, cache'],
      result.pages.map((p) => [p.clients, p.portal, p.cached]),
    ),
  ];
}
