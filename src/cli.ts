#!/usr/bin/env node
// The `duckportal` command: one sub-command per module, whose code is loaded only when it runs
// (the flag tables in src/cli/ are all `--help` needs). Exit codes: 0 done (and --help,
// --version), 1 failed, 2 a usage error (unknown command or flag, bad flag value).
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { KEY_CREATE_FLAGS, PORTAL_FLAGS, USER_ADD_FLAGS } from './cli/accounts.js';
import { ATTACH_FLAGS } from './cli/attach.js';
import { ATTACH_FILE_FLAGS, DETACH_FILE_FLAGS } from './cli/attach-file.js';
import { buildCommand } from './command-line/flags.js';
import { runProgram } from './command-line/program.js';
import { INGEST_FLAGS, SAMPLE_FLAGS } from './cli/ingest.js';
import { checkPortalFolder, onPortal } from './cli/portal-folder.js';
import { REFRESH_FLAGS } from './cli/refresh.js';
import { SERVE_FLAGS, servedPortals } from './cli/serve.js';

const COMMANDS: readonly Command[] = [
  buildCommand({
    name: 'serve',
    summary: 'serve portals: the Explore API, its web pages and the operations endpoints',
    flags: SERVE_FLAGS,
    env: true,
    action: async (flags) => {
      for (const dir of servedPortals(flags)) await checkPortalFolder(dir, false);
      await (await import('./cli/serve-command.js')).main(flags);
    },
  }),
  buildCommand({
    name: 'ingest',
    summary: 'publish a file (CSV, TSV, JSON, JSON lines, GeoJSON, Parquet, xlsx) as a dataset',
    args: { '<file>': 'a file, or an http:// or https:// URL' },
    flags: INGEST_FLAGS,
    action: onPortal(true, async (flags, [file]) =>
      (await import('./cli/ingest-command.js')).main(flags, file!),
    ),
  }),
  buildCommand({
    name: 'refresh',
    summary: 'download the due sources of the datasets again and publish those that changed (for a timer)',
    flags: REFRESH_FLAGS,
    action: onPortal(false, async (flags) => (await import('./cli/refresh-command.js')).main(flags)),
  }),
  buildCommand({
    name: 'attach',
    summary: 'add a dataset whose records live in a ClickHouse table (or a Distributed table over shards)',
    flags: ATTACH_FLAGS,
    action: onPortal(false, async (flags) => (await import('./cli/attach-command.js')).main(flags)),
  }),
  buildCommand({
    name: 'attach-file',
    summary: "add a file to a dataset's attachments (or replace the one of the same name)",
    args: { '<dataset>': 'the dataset id', '<file>': 'the file attached' },
    flags: ATTACH_FILE_FLAGS,
    action: onPortal(false, async (flags, [id, file]) =>
      (await import('./cli/attach-file-command.js')).attach(flags, id!, file!),
    ),
  }),
  buildCommand({
    name: 'detach-file',
    summary: "remove a file from a dataset's attachments",
    args: { '<dataset>': 'the dataset id', '<file>': 'its file name or attachment id' },
    flags: DETACH_FILE_FLAGS,
    action: onPortal(false, async (flags, [id, file]) =>
      (await import('./cli/attach-file-command.js')).detach(flags, id!, file!),
    ),
  }),
  group('keys', 'API keys', [
    buildCommand({
      name: 'create',
      summary: 'create a key and print it, once',
      flags: KEY_CREATE_FLAGS,
      action: onPortal(false, async (flags) => (await import('./cli/keys-command.js')).create(flags)),
    }),
    buildCommand({
      name: 'list',
      summary: 'list the keys: id, user, groups, label, created, state',
      flags: PORTAL_FLAGS,
      action: onPortal(false, async (flags) => (await import('./cli/keys-command.js')).list(flags)),
    }),
    buildCommand({
      name: 'revoke',
      summary: 'revoke a key (refused at once, no restart)',
      args: { '<key-id>': 'the id `keys list` shows' },
      flags: PORTAL_FLAGS,
      action: onPortal(false, async (flags, [id]) =>
        (await import('./cli/keys-command.js')).revoke(flags, id!),
      ),
    }),
  ]),
  group('users', 'the users who sign in on the web pages', [
    buildCommand({
      name: 'add',
      summary: 'add a user; the password is the first line of standard input',
      args: { '<name>': 'the user name' },
      flags: USER_ADD_FLAGS,
      action: onPortal(false, async (flags, [name]) =>
        (await import('./cli/users-command.js')).add(flags, name!),
      ),
    }),
    buildCommand({
      name: 'list',
      summary: 'list the users: name, groups, created',
      flags: PORTAL_FLAGS,
      action: onPortal(false, async (flags) => (await import('./cli/users-command.js')).list(flags)),
    }),
    buildCommand({
      name: 'remove',
      summary: "remove a user and revoke the user's keys",
      args: { '<name>': 'the user name' },
      flags: PORTAL_FLAGS,
      action: onPortal(false, async (flags, [name]) =>
        (await import('./cli/users-command.js')).remove(flags, name!),
      ),
    }),
  ]),
  buildCommand({
    name: 'sample',
    summary: 'build the sample portal from the npm package vega-datasets',
    flags: SAMPLE_FLAGS,
    action: onPortal(true, async (flags) => (await import('./cli/sample-command.js')).main(flags)),
  }),
];

function group(name: string, summary: string, commands: readonly Command[]): Command {
  const command = new Command(name).description(summary);
  for (const sub of commands) command.addCommand(sub);
  return command;
}

function program(): Command {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  const root = new Command('duckportal')
    .description('An open data portal: the Explore API v2.1 and v1 and ODSQL, on DuckDB over Parquet.')
    .version(version, '-V, --version', 'print the version');
  for (const command of COMMANDS) root.addCommand(command);
  return root;
}

await runProgram(program());
