// DuckDB's own writers, streamed: `COPY (SELECT ...) TO '<fifo>'` in the engine's spill folder,
// read by a Node stream. The promise settles at the first byte (or at a failure before it), so
// every error a user can cause is still a JSON answer; later failures break the transfer.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { promisify } from 'node:util';
import type { Engine } from '../engine/engine.js';
import { quoteString } from '../sql-text.js';

const run = promisify(execFile);

/** Pipes made and not yet removed (for tests that count leaks). */
export const openPipes = new Set<string>();

/**
 * Streams `COPY (selectSql) TO pipe (options)`. `signal` (the client going away) interrupts the
 * COPY; the pipe is removed once both sides are done, whatever happened.
 */
export async function copyToStream(
  engine: Engine,
  selectSql: string,
  options: string,
  signal: AbortSignal,
): Promise<Readable> {
  const fifo = path.join(engine.tempDirectory, `export-${randomUUID()}.pipe`);
  await run('mkfifo', ['-m', '600', fifo]);
  openPipes.add(fifo);
  const output = new PassThrough();
  const reader = createReadStream(fifo, { highWaterMark: 1 << 20 });
  const copying = engine.withExportConnection(
    (connection) => connection.run(`COPY (${selectSql}) TO ${quoteString(fifo)} (${options})`),
    signal,
  );
  let readerDone = false;
  const cleanup = (): void => {
    if (!readerDone) return;
    void rm(fifo, { force: true }).finally(() => openPipes.delete(fifo));
  };
  reader.on('close', () => {
    readerDone = true;
    void copying.then(cleanup, cleanup);
  });
  reader.pipe(output);
  output.on('close', () => reader.destroy());
  copying.then(
    () => undefined,
    async (error: unknown) => {
      // A reader still waiting for a writer would wait forever: open and close the write end.
      // Non-blocking, so that with no reader left this fails at once instead of waiting.
      await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).then(
        (handle) => handle.close(),
        () => undefined,
      );
      output.destroy(error instanceof Error ? error : new Error(String(error)));
    },
  );
  await new Promise<void>((resolve, reject) => {
    const settle = (): void => {
      output.off('readable', settle);
      output.off('end', settle);
      resolve();
    };
    output.once('readable', settle);
    output.once('end', settle);
    copying.catch(reject);
  });
  return output;
}
