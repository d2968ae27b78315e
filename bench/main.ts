// `make bench`: the bench's own entry point (node dist/bench/main.js [flags]). It runs in a
// checkout, beside the sources it measures; the npm package does not ship it.
import { buildCommand } from '../src/command-line/flags.js';
import { runProgram } from '../src/command-line/program.js';
import { BENCH_FLAGS } from './flags.js';

await runProgram(
  buildCommand({
    name: 'bench',
    summary: 'measure this machine against plain DuckDB, PostgreSQL and SQLite (writes bench/results/)',
    flags: BENCH_FLAGS,
    action: async (flags) => (await import('./run.js')).main(flags),
  }),
);
