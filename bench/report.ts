// The bench's markdown report: a header saying how it was measured, the summary an operator plans
// from, then one section per bench measured (those `--only` left out are absent).
import { AGGREGATIONS } from './aggregations.js';
import { attachedText } from './clickhouse-attached.js';
import { clickHouseText } from './clickhouse.js';
import { hotText } from './clickhouse-hot.js';
import type { Comparison } from './compare.js';
import { downloadsText } from './downloads-report.js';
import { catalogText } from './catalog-report.js';
import { ingestText } from './ingest-bench.js';
import { machine, markdownTable, RATIO_ERROR, type MeasuredRatio } from './harness.js';
import type { Peer } from './peers.js';
import {
  aggregationTable,
  comparisonText,
  exportsText,
  httpCacheText,
  known,
  loadTable,
  ms,
  plusMinus,
  summary,
} from './report-tables.js';
import { replicasTable } from './replicas.js';
import { monitoringTable } from './monitoring.js';
import type { SectionResults } from './sections.js';

/** How the run went, for the report's header. */
export interface RunFacts {
  readonly date: string;
  readonly host: ReturnType<typeof machine>;
  readonly threads: number;
  readonly runs: number;
  readonly minutes: number;
  readonly loadSeconds: number;
  /** The sections run, when not all of them. */
  readonly only: readonly string[] | null;
  readonly loadAverage: { readonly before: number; readonly after: number };
}

/** A ratio's cell: `1.23x ±7%` with `digits` decimals. */
const ratioCell =
  (digits: number) =>
  (r: MeasuredRatio): string =>
    known(r, (ratio) => `${ratio.toFixed(digits)}x`);

/** The whole report, in markdown. */
export function benchReport(
  results: SectionResults,
  peers: readonly Peer[],
  facts: RunFacts,
  comparison: Comparison | null,
): string {
  const { aggregations, scaling, load, exports } = results;
  return [
    ...header(facts),
    ...(aggregations && scaling && load && exports
      ? [summary(aggregations, scaling, load, exports), '']
      : []),
    ...aggregationsSection(results, peers),
    ...tablesSections(results),
    ...serverSections(results, facts),
    ...(exports
      ? ['## Exports over HTTP vs DuckDB COPY of the same bytes to a file', '', exportsText(exports), '']
      : []),
    ...(results.ingest ? [ingestText(results.ingest, ratioCell(2)), ''] : []),
    ...(comparison ? comparisonText(comparison) : []),
  ].join('\n');
}

/** Whether other work shared the cores: a load average above their number before or after the run. */
function loadNote(load: { before: number; after: number }, cores: number): string {
  const shared = Math.max(load.before, load.after) > cores;
  return shared ? `(above ${cores}, other work shared the cores)` : `(at most ${cores}: a quiet run)`;
}

function header({ date, host, threads, runs, minutes, only, loadAverage }: RunFacts): string[] {
  return [
    `# duckportal bench, ${date}${only ? ` (only ${only.join(', ')})` : ''}`,
    '',
    `Machine: ${host.cores} cores (${host.cpu}), ${host.memoryGiB} GiB, Node ${host.node}; DuckDB threads: ${threads}. The two sides of a ratio are`,
    `timed in turns after a warm-up, and the ratio is the median of its turns' ratios: at least ${runs} turns, then more until it is known to`,
    `${plusMinus(RATIO_ERROR)} (95%; shown beside it) or its table's time is spent. The cases of a table take their turns in rounds (one turn of each`,
    `case, then again: a slow moment of the machine falls on a few turns of every case). Times are medians. The whole run took ${minutes.toFixed(1)} minutes.`,
    `Load average of the machine (1 min) before the run: ${loadAverage.before.toFixed(1)}, at its end: ${loadAverage.after.toFixed(1)} ${loadNote(loadAverage, host.cores)}.`,
    '',
  ];
}

function aggregationsSection({ aggregations, peerTimes }: SectionResults, peers: readonly Peer[]): string[] {
  if (!aggregations) return [];
  return [
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
  ];
}

/** Facets against the SQL a person would write, and how cost grows from 3M to 30M rows. */
function tablesSections({ facets, scaling }: SectionResults): string[] {
  return [
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
              ratioCell(2)(r),
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
            scaling.map((r) => [r.name, ms(r.smallMs), ms(r.largeMs), ratioCell(1)(r)]),
          ),
          '',
        ]
      : []),
  ];
}

/** The sections about the server as a whole: load, HTTP caching, replicas, ClickHouse. */
function serverSections(results: SectionResults, { host, loadSeconds }: RunFacts): string[] {
  const { load, httpCache, replicas, monitoring, downloads, catalog, clickhouse } = results;
  return [
    ...(load
      ? [
          '## Throughput and latency under load (closed loops, each client sending its next request when answered)',
          '',
          'On flights-3m: a 10-row page (origin = SFO, first 10 records and the total count), all annotated facets, and',
          `group_by origin + avg(delay); ${loadSeconds} s per level. Last line: page queries offered at 4x their best rate (open loop).`,
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
          `of the single server, on the same machine (they share its ${host.cores} cores); ${loadSeconds} s per level, response cache off.`,
          '',
          replicasTable(replicas),
          '',
        ]
      : []),
    ...(monitoring
      ? [
          '## Keeping the API calls (monitoring on vs off)',
          '',
          'Two servers over the bench portal, one keeping every API call for the monitoring dataset (`--monitoring-days 30`,',
          'the default) and one keeping none (`--monitoring-days 0`), response caches off, asked the same request mix in turns.',
          '',
          monitoringTable(monitoring, ratioCell(2)),
          '',
        ]
      : []),
    ...(downloads
      ? [
          '## Downloads: shared export files against nginx serving the same files',
          '',
          ...downloadsText(downloads, ratioCell(2)),
          '',
        ]
      : []),
    ...(catalog
      ? ['## The catalog at 1,000, 10,000 and 100,000 datasets', '', ...catalogText(catalog), '']
      : []),
    ...(clickhouse
      ? [
          '## ClickHouse, the everyday questions over HTTP',
          '',
          clickHouseText(clickhouse.peer, ratioCell(2)),
          '',
          ...hotText(clickhouse.hot, ratioCell(2)),
          '',
          '## The same flights served from ClickHouse (attached) and from Parquet',
          '',
          'The 3M flights loaded into the same ClickHouse with their record ids and ordinals, ordered by the same key,',
          'attached with `duckportal attach` to a portal of their own and served by a second server (same flags);',
          'each case asked of both servers under the same path, answers checked equal, timed in turns. Ratio: ClickHouse-backed / Parquet.',
          '',
          ...attachedText(clickhouse.attached, ratioCell(2)),
          '',
        ]
      : []),
  ];
}
