// Every command the README, docs/*.md and bench/README.md show in a ```console block runs as
// printed, in order (the README first, which starts the sample server the pages of docs/ ask), in
// one shell, and prints what the page says it prints. The shell works in a temporary folder
// holding a copy of the sample portal as `data/portal` (the keys examples write to it), with the
// project's `bin/` and `node_modules/` linked in. Each port a page names is mapped to a free
// loopback port. `make run` is the sample server the test starts (make test has built the
// sample portal already); other `make` targets are not run here: `make test` is what runs this.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { consoleCommands, namedPorts, showsOutput, type ShownCommand } from '../helpers/console-blocks.js';
import { DOCUMENTS } from '../helpers/documents.js';
import { freePort } from '../helpers/ports.js';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';

/** A command of a page, with the page it is on. */
interface PageCommand extends ShownCommand {
  readonly document: string;
}

interface Ran {
  readonly shown: PageCommand;
  readonly stdout: string;
  readonly status: number;
}

describe('the README and docs', function () {
  this.timeout(240_000);
  let folder: string;
  let ran: Ran[];
  let stderr: string;
  const shown: PageCommand[] = DOCUMENTS.flatMap((document) =>
    consoleCommands(readFileSync(document, 'utf8')).map((command) => ({ ...command, document })),
  );

  before(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'duckportal-docs-'));
    await cp(SAMPLE_PORTAL, path.join(folder, 'data', 'portal'), { recursive: true });
    await symlink(path.resolve('bin'), path.join(folder, 'bin'));
    await symlink(path.resolve('node_modules'), path.join(folder, 'node_modules'));
    ({ ran, stderr } = await runInOneShell(folder, shown, await portMap(shown)));
  });

  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('shows commands to run: the sample query, publishing a file, the exports, v1, keys', () => {
    const readme = shown.filter((s) => s.document === 'README.md').map((s) => s.command);
    for (const needed of ['make run', 'ingest ', 'serve '])
      expect(readme.join('\n'), needed).to.include(needed);
    const text = shown.map((s) => s.command).join('\n');
    for (const needed of [
      'make run',
      'ingest ',
      'serve ',
      '/records',
      '/exports/parquet',
      '/api/records/1.0/',
      'keys create',
    ])
      expect(text, needed).to.include(needed);
  });

  it('runs each command with exit status 0 and the output it shows', () => {
    expect(ran.length, `commands run (stderr: ${stderr})`).to.equal(shown.length);
    for (const { shown: command, stdout, status } of ran) {
      const where = `${command.document}:${command.line}: ${command.command}\n--- printed:\n${stdout}\n--- stderr:\n${stderr}`;
      expect(status, where).to.equal(0);
      expect(showsOutput(command.output, stdout), where).to.equal(true);
    }
  });
});

/** A free loopback port for each port the pages name. */
async function portMap(commands: readonly ShownCommand[]): Promise<Map<number, number>> {
  const ports = new Map<number, number>();
  for (const port of commands.flatMap((c) => namedPorts(c.command)))
    if (!ports.has(port)) ports.set(port, await freePort());
  return ports;
}

const MARK = '@@readme-command@@';

/**
 * Runs the commands in one bash, each followed by a marker with its exit status; a command
 * ending in `&` runs in the background (its output to a file), and the next command waits until
 * the port it serves answers /readyz. Background servers are stopped when the shell ends.
 */
async function runInOneShell(
  cwd: string,
  commands: readonly PageCommand[],
  ports: ReadonlyMap<number, number>,
): Promise<{ ran: Ran[]; stderr: string }> {
  const script = [
    'ready() { for _ in $(seq 1 600); do curl -s -o /dev/null "http://127.0.0.1:$1/readyz" && return 0; sleep 0.1; done; return 1; }',
    "trap 'kill $(jobs -p) 2>/dev/null; wait' EXIT",
    ...commands.map((c, index) => `${runnable(c.command, index, ports)}\nprintf '\\n${MARK} %d\\n' $?`),
  ].join('\n');
  const child = spawn('bash', ['-c', script], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await new Promise((resolve) => child.on('close', resolve));
  const parts = stdout.split(new RegExp(`\\n${MARK} (\\d+)\\n`));
  const ran: Ran[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2)
    ran.push({ shown: commands[ran.length]!, stdout: parts[i]!, status: Number(parts[i + 1]) });
  return { ran, stderr };
}

/** The command as the shell runs it: its ports mapped, `make run` as the sample server, a background job waited for. */
function runnable(command: string, index: number, ports: ReadonlyMap<number, number>): string {
  let text = command.replace(
    /((?:localhost|127\.0\.0\.1):|--port )(\d{2,5})\b/g,
    (_, prefix: string, port: string) => {
      return `${prefix}${ports.get(Number(port)) ?? port}`;
    },
  );
  const make = /^make (\w+)/.exec(text.trim());
  if (make?.[1] === 'run') text = `bin/duckportal.cjs serve --portal data/portal --port ${ports.get(8080)} &`;
  else if (make) return 'true';
  if (!text.trimEnd().endsWith('&')) return text;
  const port = namedPorts(text)[0];
  return `${text.trimEnd().slice(0, -1)} > background-${index}.log 2>&1 & ready ${port}`;
}
