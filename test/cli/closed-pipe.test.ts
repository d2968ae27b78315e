// A command whose reader goes away (`duckportal keys create ... | head -1`, as
// docs/access-control.md shows) ends quietly: no EPIPE error or stack on stderr, and the work it was asked to do is done.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { KeyStore } from '../../src/auth/keys.js';
import { ensurePortalFile } from '../../src/ingest/portal-file.js';
import { CLI } from './run-cli.js';

const run = promisify(execFile);

/**
 * Runs `duckportal ...args | head -1` in bash: head's line, and the command's own stderr and exit
 * code (kept in files of `scratch`, since the pipe's status is head's).
 */
async function intoHead(
  scratch: string,
  args: readonly string[],
): Promise<{ line: string; stderr: string; code: number }> {
  const quote = (arg: string): string => `'${arg.replaceAll("'", `'\\''`)}'`;
  const [err, code] = [path.join(scratch, 'stderr'), path.join(scratch, 'code')];
  const command = [CLI, ...args].map(quote).join(' ');
  const script = `{ ${command} 2>${quote(err)}; echo $? >${quote(code)}; } | head -1`;
  const { stdout } = await run('bash', ['-c', script]);
  return {
    line: stdout.trim(),
    stderr: await readFile(err, 'utf8'),
    code: Number(await readFile(code, 'utf8')),
  };
}

describe('a command writing into a closed pipe', function () {
  this.timeout(180_000);
  let dir: string;
  let scratch: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-pipe-'));
    scratch = await mkdtemp(path.join(os.tmpdir(), 'duckportal-pipe-out-'));
    await ensurePortalFile(dir);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  });

  it('keys create | head -1: the key, a quiet stderr, exit 0, 20 times out of 20', async () => {
    for (let i = 0; i < 20; i++) {
      const ran = await intoHead(scratch, ['keys', 'create', '--user', 'alice', '--portal', dir]);
      expect(ran.line).to.match(/^dpk_[0-9a-f]{12}_[\w-]{43}$/);
      expect(ran.stderr, `run ${i}`).to.equal(`portal: ${dir}\n`);
      expect(ran.code, `run ${i}`).to.equal(0);
    }
    expect(new KeyStore(dir).list()).to.have.length(20);
  });

  it('keys list | head -1 past the pipe buffer, and --help | head -1', async () => {
    const store = new KeyStore(dir);
    for (let i = 0; i < 1500; i++) store.create(`user${i}`);
    const list = await intoHead(scratch, ['keys', 'list', '--portal', dir]);
    expect(list.line).to.match(/^[0-9a-f]{12}\talice\t/);
    expect(list.stderr).to.equal(`portal: ${dir}\n`);
    expect(list.code).to.equal(0);
    const help = await intoHead(scratch, ['--help']);
    expect(help).to.deep.include({ stderr: '', code: 0 });
    expect(help.line).to.match(/^Usage: duckportal/);
  });
});
