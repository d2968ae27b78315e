// What publishing a file costs: `ingest` (reading, choosing the field types, data.parquet, the
// value counts, dataset.json and the search index) against what DuckDB alone takes to turn the same
// CSV into Parquet, `read_csv` with its sniffer and one COPY. Files: a 200-column, 20,000-row CSV
// of mixed types and a 250-row, 74-column one (written from a seed, as the tests' wide files), and
// the 3M flights written as CSV from the sample portal.
import { mkdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { ingest } from '../src/ingest/ingest.js';
import { quoteString } from '../src/sql/quoting.js';
import { writeWideCsv } from '../test/helpers/wide-csv.js';
import { markdownTable, medianTurnsInRounds, type MeasuredRatio } from './harness.js';

/** One file ingested: its shape, both medians, the ratio, and the target it is held to (null: none). */
export interface IngestResult {
  readonly name: string;
  readonly rows: number;
  readonly columns: number;
  readonly bytes: number;
  readonly ingestMs: number;
  readonly duckdbMs: number;
  readonly ratio: MeasuredRatio;
  readonly target: number | null;
  /** Seconds into one more ingest at which each phase began (its progress lines). */
  readonly phases: readonly { readonly phase: string; readonly atSeconds: number }[];
}

/** The most an ingest may take, as a multiple of DuckDB's read_csv + COPY (issue 43). */
const TARGET = 3;

/** Seconds of measuring the table's turns may take before each ratio stops at the runs asked. */
const BUDGET_MS = 240_000;

/** DuckDB alone: the CSV read with its sniffer and written as Parquet, as a person would type it. */
export const baselineSql = (file: string, target: string): string =>
  `COPY (SELECT * FROM read_csv(${quoteString(file)})) TO ${quoteString(target)} (FORMAT parquet)`;

interface IngestCase {
  readonly name: string;
  readonly file: string;
  readonly rows: number;
  readonly columns: number;
  readonly target: number | null;
}

/** Writes the bench's three files into `dir`: the two wide ones, then the flights from `samplePortal`. */
async function writeFiles(dir: string, samplePortal: string): Promise<IngestCase[]> {
  const wide = path.join(dir, 'wide-200.csv');
  const narrow = path.join(dir, 'wide-74.csv');
  const flights = path.join(dir, 'flights-3m.csv');
  await writeWideCsv(wide, { rows: 20_000, columns: 200, delimiter: ';', seed: 43 });
  await writeWideCsv(narrow, { rows: 250, columns: 74, delimiter: ',', seed: 74 });
  const parquet = path.resolve(samplePortal, 'datasets', 'flights', 'data.parquet');
  await duckdb(async (run) => {
    await run(`COPY (SELECT strftime(date, '%Y-%m-%d %H:%M:%S') AS date, delay, distance, origin, destination
      FROM read_parquet(${quoteString(parquet)})) TO ${quoteString(flights)} (HEADER)`);
  });
  return [
    {
      name: '200 columns x 20,000 rows (; decimal commas)',
      file: wide,
      rows: 20_000,
      columns: 200,
      target: TARGET,
    },
    { name: '74 columns x 250 rows', file: narrow, rows: 250, columns: 74, target: null },
    {
      name: 'flights, 5 columns x 3,000,000 rows',
      file: flights,
      rows: 3_000_000,
      columns: 5,
      target: TARGET,
    },
  ];
}

/** Runs `work` on a fresh in-memory DuckDB (default threads, as ingest's own), closed after. */
async function duckdb(work: (run: (sql: string) => Promise<unknown>) => Promise<void>): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await work((sql) => connection.run(sql));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** One first publication of `file` into a portal folder made for it and removed after. */
async function ingestOnce(file: string, dir: string, progress?: (line: string) => void): Promise<void> {
  const portal = path.join(dir, `portal-${process.hrtime.bigint()}`);
  try {
    await ingest({ file, portal, id: 'bench', ...(progress ? { progress } : {}) });
  } finally {
    await rm(portal, { recursive: true, force: true });
  }
}

/** The phases of one ingest, read from its progress lines (`bench: [2.9 s] choosing the field types`). */
async function phasesOf(file: string, dir: string): Promise<IngestResult['phases']> {
  const phases: { phase: string; atSeconds: number }[] = [];
  await ingestOnce(file, dir, (line) => {
    const match = /^bench: \[([0-9.]+) s\] (.*)$/.exec(line);
    if (match && !/ rows, \d+ columns/.test(match[2]!)) {
      // `reading /tmp/.../file.csv as csv` is `reading`; a phase's details in brackets go.
      const phase = match[2]!.replace(/ \(.*$/, '').replace(/^reading .*$/, 'reading');
      phases.push({ phase, atSeconds: Number(match[1]) });
    }
    const done = /^bench: \d+ records in ([0-9.]+) s/.exec(line);
    if (done) phases.push({ phase: 'done', atSeconds: Number(done[1]) });
  });
  return phases;
}

/** Times each file's ingest against DuckDB's read_csv + COPY of it, in turns. */
export async function benchIngest(samplePortal: string, runs: number): Promise<IngestResult[]> {
  const dir = path.join(os.tmpdir(), `duckportal-ingest-bench-${process.pid}`);
  await mkdir(dir, { recursive: true });
  try {
    const cases = await writeFiles(dir, samplePortal);
    const target = path.join(dir, 'baseline.parquet');
    const pairs = cases.map(
      (c) =>
        [
          () => ingestOnce(c.file, dir),
          () => duckdb((run) => run(baselineSql(c.file, target)).then(() => undefined)),
        ] as const,
    );
    const times = await medianTurnsInRounds(pairs, runs, BUDGET_MS);
    const results: IngestResult[] = [];
    for (const [i, c] of cases.entries()) {
      results.push({
        name: c.name,
        rows: c.rows,
        columns: c.columns,
        bytes: (await stat(c.file)).size,
        ingestMs: times[i]!.medians[0],
        duckdbMs: times[i]!.medians[1],
        ratio: times[i]!.ratio,
        target: c.target,
        phases: await phasesOf(c.file, dir),
      });
    }
    return results;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The report's section: its heading, the table, targets beside the ratios, the phases and the baseline's SQL. */
export function ingestText(
  results: readonly IngestResult[],
  ratioCell: (r: MeasuredRatio) => string,
): string {
  const rate = (count: number, ms: number): string => Math.round(count / (ms / 1000)).toLocaleString('en-US');
  const table = markdownTable(
    ['file', 'MB', 'ingest (s)', 'rows/s', 'MB/s', 'read_csv + COPY (s)', 'ingest / DuckDB', 'target'],
    results.map((r) => [
      r.name,
      (r.bytes / 1e6).toFixed(1),
      (r.ingestMs / 1000).toFixed(2),
      rate(r.rows, r.ingestMs),
      (r.bytes / 1e6 / (r.ingestMs / 1000)).toFixed(1),
      (r.duckdbMs / 1000).toFixed(2),
      ratioCell(r.ratio),
      r.target === null ? '-' : `<= ${r.target}x ${r.ratio.ratio <= r.target ? 'met' : 'missed'}`,
    ]),
  );
  const phases = results.map(
    (r) =>
      `- ${r.name}: ${r.phases.map((p, i) => (i === 0 ? p.phase : `${p.phase} at ${p.atSeconds.toFixed(1)} s`)).join(', ')}`,
  );
  return [
    '## Publishing a file: ingest vs DuckDB read_csv + COPY to Parquet',
    '',
    'A first publication of each file (a new portal folder each turn): reading, the field types, data.parquet, the value',
    "counts, dataset.json and the search index, in this process's own DuckDB; timed in turns with DuckDB alone writing the",
    'same CSV as Parquet (its sniffer choosing the types).',
    '',
    table,
    '',
    'Phases of one more ingest of each file (when each began, from its progress lines):',
    '',
    ...phases,
    '',
    `DuckDB's side, in a fresh in-memory DuckDB with its default threads, as ingest's own: \`${baselineSql('<file>', '<file>.parquet')}\``,
  ].join('\n');
}
