// The named pipes exports stream through, made by one long-lived shell.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { makeFifo } from '../../src/exports/fifo.js';

const run = promisify(execFile);

describe('named pipes for exports', () => {
  let dir: string;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-fifo-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('makes a pipe only its owner can open', async () => {
    const fifo = path.join(dir, 'one.pipe');
    await makeFifo(fifo);
    const made = await stat(fifo);
    expect({ fifo: made.isFIFO(), mode: (made.mode & 0o777).toString(8) }).to.deep.equal({
      fifo: true,
      mode: '600',
    });
  });

  it('answers 50 requests made at once, each with its own pipe', async () => {
    const paths = Array.from({ length: 50 }, (_, i) => path.join(dir, `many-${i}.pipe`));
    await Promise.all(paths.map(makeFifo));
    const made = await Promise.all(paths.map((p) => stat(p)));
    expect(made.filter((s) => s.isFIFO())).to.have.length(50);
  });

  it('rejects a path it cannot make, and goes on making the next', async () => {
    const missing = path.join(dir, 'no-such-folder', 'x.pipe');
    const failure = await makeFifo(missing).catch((error: Error) => error.message);
    expect(failure).to.equal(`could not make the named pipe ${missing}`);
    await makeFifo(path.join(dir, 'after-failure.pipe'));
    expect((await stat(path.join(dir, 'after-failure.pipe'))).isFIFO()).to.equal(true);
  });

  it('refuses a path with a line break rather than send two lines to the shell', async () => {
    const failure = await makeFifo(path.join(dir, 'a\nb.pipe')).catch((error: Error) => error.message);
    expect(failure).to.match(/^a pipe path cannot hold a line break/);
  });

  it('does not keep a process alive once its pipes are made', async () => {
    const module = fileURLToPath(new URL('../../src/exports/fifo.js', import.meta.url));
    const fifo = path.join(dir, 'child.pipe');
    const script = `import(${JSON.stringify(module)}).then((m) => m.makeFifo(${JSON.stringify(fifo)})).then(() => console.log('made'))`;
    // execFile's timeout kills a child that hangs: the test then fails on the rejection.
    const { stdout } = await run(process.execPath, ['-e', script], { timeout: 10_000 });
    expect({ stdout: stdout.trim(), fifo: (await stat(fifo)).isFIFO() }).to.deep.equal({
      stdout: 'made',
      fifo: true,
    });
  });
});
