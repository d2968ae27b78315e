// The named pipes exports stream through, made and widened by one long-lived helper.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { makeFifo, widenFifo, WIDE_PIPE_BYTES } from '../../src/engine/duckdb/fifo.js';

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

  it('refuses a path with a line break rather than send two lines to the helper', async () => {
    const failure = await makeFifo(path.join(dir, 'a\nb.pipe')).catch((error: Error) => error.message);
    expect(failure).to.match(/^a pipe path cannot hold a line break/);
  });

  /** Bytes a writer can put in the open pipe at `fifo` while nobody reads, after `prepare`. */
  async function unreadCapacity(fifo: string, prepare: () => Promise<unknown>): Promise<number> {
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      await prepare();
      // A non-blocking write into a pipe takes what fits and says how much that was.
      return writeSync(writer, Buffer.alloc(2 * WIDE_PIPE_BYTES));
    } finally {
      closeSync(writer);
      closeSync(reader);
    }
  }

  it('widens an open pipe from 64 KiB to 1 MiB', async () => {
    const fifo = path.join(dir, 'wide.pipe');
    await makeFifo(fifo);
    let widened: boolean | undefined;
    const before = await unreadCapacity(fifo, () => Promise.resolve());
    const after = await unreadCapacity(fifo, async () => (widened = await widenFifo(fifo)));
    expect({ before, widened, after }).to.deep.equal({
      before: 64 * 1024,
      widened: true,
      after: 1024 * 1024,
    });
  });

  it('answers false for a pipe it cannot widen, and goes on answering', async () => {
    expect(await widenFifo(path.join(dir, 'no-such.pipe'))).to.equal(false);
    const fifo = path.join(dir, 'after-no-widen.pipe');
    await makeFifo(fifo);
    expect(await unreadCapacity(fifo, () => widenFifo(fifo))).to.equal(WIDE_PIPE_BYTES);
  });

  it('does not keep a process alive once its pipes are made', async () => {
    const module = fileURLToPath(new URL('../../src/engine/duckdb/fifo.js', import.meta.url));
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
