// `make bench` (node dist/bench/main.js): its flags. bench/ is an entry point of a checkout, not a
// command of the npm package, which ships the server and its commands only.
import {
  negatable,
  optionalText,
  optionalValue,
  text,
  value,
  type FlagValues,
} from '../src/command-line/flags.js';
import { port, positiveNumber } from '../src/command-line/parse.js';

/** The sections of the bench's report, each of which `--only` may run alone. */
export const BENCH_SECTIONS = [
  'aggregations',
  'facets',
  'scaling',
  'exports',
  'load',
  'http-cache',
  'replicas',
  'monitoring',
  'downloads',
  'catalog',
  'ingest',
  'peers',
  'clickhouse',
] as const;
export type BenchSection = (typeof BENCH_SECTIONS)[number];

/** `load,http-cache`: sections of the bench, each one of BENCH_SECTIONS. */
function sectionList(text: string): BenchSection[] {
  const named = text.split(',').map((name) => name.trim());
  for (const name of named) {
    if (!(BENCH_SECTIONS as readonly string[]).includes(name))
      throw new Error(`expected sections among ${BENCH_SECTIONS.join(', ')}`);
  }
  return named as BenchSection[];
}

export const BENCH_FLAGS = {
  portal: text('DIR', 'the portal folder; the bench datasets are built in data/bench', 'data/portal'),
  port: value('PORT', 'first port of the servers benched (three in a row)', port, '18080'),
  threads: value('N', 'DuckDB threads, for the server and plain DuckDB alike', positiveNumber, '2'),
  runs: value('N', 'timed runs of each question', positiveNumber, '5'),
  out: text('DIR', 'where the report is written (markdown and JSON)', 'bench/results'),
  loadSeconds: value('SECONDS', 'seconds per load level', positiveNumber, '5'),
  compare: optionalText(
    'FILE',
    "an earlier report's JSON to compare ratios with (default: the latest in --out)",
  ),
  peers: negatable('skip PostgreSQL and SQLite'),
  only: optionalValue(
    'SECTIONS',
    'run only these sections, comma-separated; the report goes to <out>/partial/',
    sectionList,
  ),
};

export type BenchFlags = FlagValues<typeof BENCH_FLAGS>;
