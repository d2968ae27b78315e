// `make bench`: serves the sample portal, times each bench against plain DuckDB in the same run,
// prints a markdown report and writes it (and its JSON) under bench/results/.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchAggregations } from './aggregations.js';
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
const served = await servePortal(portalDir, Number(values.port), threads);
try {
  const duckdb = await rawDuckDB(values.portal, ['flights', 'airports'], threads);
  const aggregations = await benchAggregations(served, duckdb, runs);
  const load = await benchLoad(served, Number(values['load-seconds']));
  const host = machine();
  const date = new Date().toISOString().slice(0, 10);
  const ms = (n: number): string => n.toFixed(n < 10 ? 1 : 0);
  const report = [
    `# duckportal bench, ${date}`,
    '',
    `Machine: ${host.cores} cores (${host.cpu}), ${host.memoryGiB} GiB, Node ${host.node}; DuckDB threads: ${threads}; median of ${runs} runs after a warm-up.`,
    '',
    '## Aggregations on flights-3m (3,000,000 rows): HTTP record query vs the same question in plain DuckDB',
    '',
    markdownTable(
      ['query', 'duckportal over HTTP (ms)', 'DuckDB direct (ms)', 'ratio'],
      aggregations.map((r) => [r.name, ms(r.httpMs), ms(r.duckdbMs), `${r.ratio.toFixed(2)}x`]),
    ),
    '',
    `## 10-row page queries (\`${'flights'}: origin = SFO, sorted by delay\`): capacity and 4x overload`,
    '',
    loadTable(load),
    '',
  ].join('\n');
  process.stdout.write(report);
  await mkdir(values.out, { recursive: true });
  await writeFile(path.join(values.out, `${date}.md`), report);
  await writeFile(
    path.join(values.out, `${date}.json`),
    `${JSON.stringify({ date, machine: host, threads, runs, aggregations, load }, null, 2)}\n`,
  );
} finally {
  await served.stop();
  await rm(portalDir, { recursive: true, force: true });
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
