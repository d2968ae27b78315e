// `make bench`: serves the sample portal, times each bench against plain DuckDB in the same run,
// prints a markdown report and writes it (and its JSON) under bench/results/.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchAggregations } from './aggregations.js';
import { machine, markdownTable, rawDuckDB, servePortal } from './harness.js';

const { values } = parseArgs({
  options: {
    portal: { type: 'string', default: 'data/portal' },
    port: { type: 'string', default: '18080' },
    threads: { type: 'string', default: '2' },
    runs: { type: 'string', default: '5' },
    out: { type: 'string', default: 'bench/results' },
  },
});
const threads = Number(values.threads);
const runs = Number(values.runs);

const served = await servePortal(values.portal, Number(values.port), threads);
try {
  const duckdb = await rawDuckDB(values.portal, ['flights', 'airports'], threads);
  const aggregations = await benchAggregations(served, duckdb, runs);
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
  ].join('\n');
  process.stdout.write(report);
  await mkdir(values.out, { recursive: true });
  await writeFile(path.join(values.out, `${date}.md`), report);
  await writeFile(
    path.join(values.out, `${date}.json`),
    `${JSON.stringify({ date, machine: host, threads, runs, aggregations }, null, 2)}\n`,
  );
} finally {
  await served.stop();
}
