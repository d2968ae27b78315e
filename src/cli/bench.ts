// `duckportal bench` (and `make bench`): its flags.
import { negatable, optionalText, text, value, type FlagValues } from './flags.js';
import { port, positiveNumber } from './parse.js';

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
};

export type BenchFlags = FlagValues<typeof BENCH_FLAGS>;
