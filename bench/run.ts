// `make bench`: builds the bench portal, serves it, times each bench against plain DuckDB and the
// peers in the same run, prints a markdown report and writes it (and its JSON) under bench/results/
// (`--only` runs some sections: their report goes to bench/results/partial/).
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { compareRatios, type ReportJson } from './compare.js';
import { buildBenchPortal } from './datasets.js';
import { BENCH_SECTIONS, type BenchFlags } from './flags.js';
import { machine, servePortal } from './harness.js';
import type { Peer } from './peers.js';
import { benchReport, type RunFacts } from './report.js';
import { needsDuckDB, NO_CACHE, runSections, type BenchRun, type SectionResults } from './sections.js';

/** `make bench` (`node dist/bench/main.js [--portal DIR] [--only SECTIONS] ...`): runs the benches, prints and writes the report. */
export async function main(flags: BenchFlags): Promise<void> {
  const started = Date.now();
  const sections = new Set(flags.only ?? BENCH_SECTIONS);
  const whole = sections.size === BENCH_SECTIONS.length;
  const previous = whole ? await previousReport(flags.compare, flags.out) : null;
  const loadBefore = os.loadavg()[0]!;
  const log = (line: string): void =>
    void process.stderr.write(`${line} (${((Date.now() - started) / 60000).toFixed(1)} min)\n`);
  const portalDir = await buildBenchPortal(
    flags.portal,
    log,
    needsDuckDB(sections) || sections.has('scaling') || sections.has('downloads'),
  );
  const peersDir = path.join(os.tmpdir(), `duckportal-peers-${process.pid}`);
  const served = await servePortal(portalDir, flags.port, flags.threads, NO_CACHE);
  const peers: Peer[] = [];
  const run: BenchRun = { flags, sections, portalDir, peersDir, served, log, peers };
  try {
    const results = await runSections(run);
    const facts: RunFacts = {
      date: new Date().toISOString().slice(0, 10),
      host: machine(),
      threads: flags.threads,
      runs: flags.runs,
      minutes: (Date.now() - started) / 60000,
      loadSeconds: flags.loadSeconds,
      only: whole ? null : [...sections],
      loadAverage: { before: loadBefore, after: os.loadavg()[0]! },
    };
    const json = reportJson(results, peers, facts);
    const comparison = previous ? compareRatios(previous, json) : null;
    const report = benchReport(results, peers, facts, comparison);
    process.stdout.write(report);
    // A partial run goes apart: it neither replaces the day's whole report nor is compared with later.
    const out = whole ? flags.out : path.join(flags.out, 'partial');
    const name = whole ? facts.date : `${facts.date}-${[...sections].join('-')}`;
    await mkdir(out, { recursive: true });
    await writeFile(path.join(out, `${name}.md`), report);
    await writeFile(path.join(out, `${name}.json`), `${JSON.stringify({ ...json, comparison }, null, 2)}\n`);
  } finally {
    for (const peer of peers) await peer.stop();
    await served.stop();
    await rm(peersDir, { recursive: true, force: true });
  }
}

/** The report's JSON (what a later run compares its ratios with): sections left out are empty or null. */
function reportJson(results: SectionResults, peers: readonly Peer[], facts: RunFacts) {
  const {
    aggregations,
    facets,
    scaling,
    load,
    httpCache,
    replicas,
    monitoring,
    downloads,
    catalog,
    ingest,
    clickhouse,
    exports,
  } = results;
  return {
    date: facts.date,
    machine: facts.host,
    threads: facts.threads,
    runs: facts.runs,
    minutes: facts.minutes,
    ...(facts.only ? { only: facts.only } : {}),
    loadAverage: facts.loadAverage,
    aggregations: aggregations ?? [],
    peers: Object.fromEntries(peers.map((p, i) => [p.name, results.peerTimes[i] ?? []])),
    facets: facets ?? [],
    scaling: scaling ?? [],
    load: load ?? [],
    httpCache,
    replicas,
    monitoring,
    downloads,
    catalog,
    ingest,
    clickhouse,
    exports: exports ?? [],
  };
}

/** The report to compare with: the named JSON, else the latest JSON in the output folder, else none. */
async function previousReport(named: string | undefined, out: string): Promise<ReportJson | null> {
  if (named) return JSON.parse(await readFile(named, 'utf8')) as ReportJson;
  const files = (await readdir(out).catch(() => [])).filter((f) => f.endsWith('.json')).sort();
  const latest = files.at(-1);
  return latest ? (JSON.parse(await readFile(path.join(out, latest), 'utf8')) as ReportJson) : null;
}
