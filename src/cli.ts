#!/usr/bin/env node
// The `duckportal` command: one sub-command per module, each loaded only when asked for.

type Command = () => Promise<{ main(args: string[]): Promise<void> }>;

const COMMANDS: Record<string, { help: string; load: Command }> = {
  serve: {
    help: 'serve --portal DIR [--port 8080] [--host 127.0.0.1] [--max-age 60] [--cache-size 128MB]',
    load: () => import('./server.js'),
  },
  ingest: {
    help: 'ingest <file> --portal DIR --id ID [--title T] [--geo-point LAT,LON] [--facet F,...] [--multivalued F:SEP]',
    load: () => import('./ingest/command.js'),
  },
  keys: {
    help: 'keys create --user NAME [--group G]... | keys list | keys revoke KEY_ID   [--portal DIR]',
    load: () => import('./auth/command.js'),
  },
  users: {
    help: 'users add NAME [--group G]... (password on stdin) | users list | users remove NAME   [--portal DIR]',
    load: () => import('./auth/users-command.js'),
  },
  bench: {
    help: 'bench [--portal DIR] [--runs 5] [--no-peers]   (measures this machine; writes bench/results/)',
    load: () => import('../bench/run.js'),
  },
  sample: {
    help: 'sample --portal DIR   (builds the sample portal from vega-datasets)',
    load: () => import('./ingest/sample.js'),
  },
};

async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) {
    const usage = Object.values(COMMANDS).map((c) => `  duckportal ${c.help}`);
    process.stderr.write(`usage:\n${usage.join('\n')}\n`);
    process.exitCode = 2;
    return;
  }
  await (await command.load()).main(args);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`duckportal: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
