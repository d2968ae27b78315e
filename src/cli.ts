#!/usr/bin/env node
// The `duckportal` command: one sub-command per module, whose code is loaded only when it runs
// (the flag tables in src/cli/ are all `--help` needs). Exit codes: 0 done (and --help,
// --version), 1 failed, 2 a usage error (unknown command or flag, bad flag value).
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { KEY_CREATE_FLAGS, PORTAL_FLAGS, USER_ADD_FLAGS } from './cli/accounts.js';
import { ATTACH_FLAGS } from './cli/attach.js';
import { BENCH_FLAGS } from './cli/bench.js';
import { buildCommand } from './cli/flags.js';
import { INGEST_FLAGS, SAMPLE_FLAGS } from './cli/ingest.js';
import { checkPortalFolder, onPortal } from './cli/portal-folder.js';
import { SERVE_FLAGS, servedPortals } from './cli/serve.js';

const COMMANDS: readonly Command[] = [
  buildCommand({
    name: 'serve',
    summary: 'serve portals: the Explore API, its web pages and the operations endpoints',
    flags: SERVE_FLAGS,
    env: true,
    action: async (flags) => {
      for (const dir of servedPortals(flags)) await checkPortalFolder(dir, false);
      await (await import('./server.js')).main(flags);
    },
  }),
  buildCommand({
    name: 'ingest',
    summary: 'publish a file (CSV, TSV, JSON, JSON lines, GeoJSON, Parquet, xlsx) as a dataset',
    args: { '<file>': 'a file, or an http:// or https:// URL' },
    flags: INGEST_FLAGS,
    action: onPortal(true, async (flags, [file]) => (await import('./ingest/command.js')).main(flags, file!)),
  }),
  buildCommand({
    name: 'attach',
    summary: 'add a dataset whose records live in a ClickHouse table (or a Distributed table over shards)',
    flags: ATTACH_FLAGS,
    action: onPortal(false, async (flags) => (await import('./cli/attach-command.js')).main(flags)),
  }),
  group('keys', 'API keys', [
    buildCommand({
      name: 'create',
      summary: 'create a key and print it, once',
      flags: KEY_CREATE_FLAGS,
      action: onPortal(false, async (flags) => (await import('./auth/command.js')).create(flags)),
    }),
    buildCommand({
      name: 'list',
      summary: 'list the keys: id, user, groups, created, state',
      flags: PORTAL_FLAGS,
      action: onPortal(false, async (flags) => (await import('./auth/command.js')).list(flags)),
    }),
    buildCommand({
      name: 'revoke',
      summary: 'revoke a key (refused at once, no restart)',
      args: { '<key-id>': 'the id `keys list` shows' },
      flags: PORTAL_FLAGS,
      action: onPortal(false, async (flags, [id]) => (await import('./auth/command.js')).revoke(flags, id!)),
    }),
  ]),
  group('users', 'the users who sign in on the web pages', [
    buildCommand({
      name: 'add',
      summary: 'add a user; the password is the first line of standard input',
      args: { '<name>': 'the user name' },
      flags: USER_ADD_FLAGS,
      action: onPortal(false, async (flags, [name]) =>
        (await import('./auth/users-command.js')).add(flags, name!),
      ),
    }),
    buildCommand({
      name: 'list',
      summary: 'list the users: name, groups, created',
      flags: PORTAL_FLAGS,
      action: onPortal(false, async (flags) => (await import('./auth/users-command.js')).list(flags)),
    }),
    buildCommand({
      name: 'remove',
      summary: "remove a user and revoke the user's keys",
      args: { '<name>': 'the user name' },
      flags: PORTAL_FLAGS,
      action: onPortal(false, async (flags, [name]) =>
        (await import('./auth/users-command.js')).remove(flags, name!),
      ),
    }),
  ]),
  buildCommand({
    name: 'sample',
    summary: 'build the sample portal from the npm package vega-datasets',
    flags: SAMPLE_FLAGS,
    action: onPortal(true, async (flags) => (await import('./ingest/sample.js')).main(flags)),
  }),
  buildCommand({
    name: 'bench',
    summary: 'measure this machine against plain DuckDB, PostgreSQL and SQLite (writes bench/results/)',
    flags: BENCH_FLAGS,
    action: async (flags) => (await benchModule()).main(flags),
  }),
];

/** The bench, which a checkout has: the npm package ships the server and the commands, not bench/. */
async function benchModule(): Promise<typeof import('../bench/run.js')> {
  try {
    return await import('../bench/run.js');
  } catch (error) {
    if ((error as Error).message.includes('bench/run.js'))
      throw new Error(
        'bench runs in a checkout of duckportal (make bench): the npm package does not ship it',
      );
    throw error;
  }
}

/** Errors after which the usage is shown: the command line itself was wrong. */
const SHOW_USAGE = new Set([
  'commander.unknownCommand',
  'commander.unknownOption',
  'commander.excessArguments',
  'commander.missingArgument',
  'commander.missingMandatoryOptionValue',
  'commander.optionMissingArgument',
]);

function group(name: string, summary: string, commands: readonly Command[]): Command {
  const command = new Command(name).description(summary);
  for (const sub of commands) command.addCommand(sub);
  return command;
}

/** Errors on one line after `duckportal:`, usage errors exit 2 (commander would exit 1). */
function configure(command: Command): void {
  command.configureOutput({
    outputError: (text, write) => write(`duckportal: ${text.replace(/^error: /, '')}`),
  });
  command.exitOverride((error) => {
    if (SHOW_USAGE.has(error.code)) {
      process.stderr.write('\n');
      command.outputHelp({ error: true });
    }
    throw error;
  });
  command.commands.forEach(configure);
}

function program(): Command {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  const root = new Command('duckportal')
    .description('An open data portal: the Explore API v2.1 and v1 and ODSQL, on DuckDB over Parquet.')
    .version(version, '-V, --version', 'print the version');
  for (const command of COMMANDS) root.addCommand(command);
  configure(root);
  return root;
}

/**
 * A reader that goes away (`duckportal keys create | head -1`) ends what the command prints, not
 * the command: stdout's EPIPE is dropped (Node makes every later write a no-op on the closed
 * stream), the command finishes its work and exits as it would have. Any other stdout error stays fatal.
 */
function ignoreClosedStdout(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

ignoreClosedStdout();
try {
  await program().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    process.stderr.write(`duckportal: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
