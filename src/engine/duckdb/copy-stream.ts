// DuckDB's own writers, streamed: `COPY (SELECT ...) TO '<fifo>'` in the engine's spill folder,
// read by a Node stream. The promise settles at the first byte (or at a failure before it), so
// every error a user can cause is still a JSON answer; later failures break the transfer.
//
// The pipe is widened to 1 MiB (see fifo.ts), polled by the event loop (no thread of libuv's pool
// waits on it) and read into a few 256 KiB buffers used again once the destination has taken
// them. A fresh Buffer per chunk counts as external memory in V8, whose pressure then forces a
// full garbage collection every few megabytes, which made a large export several times slower
// (measured: docs/exports.md, Who writes the bytes).
import { randomUUID } from 'node:crypto';
import { constants, open as openCallback } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import type { CopyFrame } from '../engine.js';
import { makeFifo, widenFifo } from './fifo.js';

/** A bare descriptor (the socket that reads it closes it; a FileHandle would close it again). */
const openFd = promisify(openCallback);

/** Pipes made and not yet removed (for tests that count leaks). */
export const openPipes = new Set<string>();

/** Read buffers allocated since the start (for tests that check they are used again). */
export const pipeBuffers = { allocated: 0 };

/**
 * Streams what `copy` writes into the pipe it is given (a COPY, on an export connection that
 * `signal` interrupts), between the frame's head and tail; the pipe is made in `folder` and
 * removed once both sides are done, whatever happened. The stream ends only after the COPY
 * succeeded: a COPY that fails after the first byte destroys it, so the client sees a broken
 * transfer rather than a short file.
 */
export async function streamThroughPipe(
  folder: string,
  copy: (pipe: string) => Promise<unknown>,
  frame: CopyFrame = {},
): Promise<Readable> {
  const fifo = path.join(folder, `export-${randomUUID()}.pipe`);
  await makeFifo(fifo);
  openPipes.add(fifo);
  // The read end, non-blocking so that libuv polls it on the event loop (no thread waits on it),
  // and a write end of our own held until the COPY is over, so that the reader sees the end of
  // the pipe only then, whether DuckDB opened it or failed first.
  const readFd = await openFd(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const hold = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
  await widenFifo(fifo);
  const copying = copy(fifo);
  const removePipe = (): void => {
    void copying
      .catch(() => undefined)
      .then(() => rm(fifo, { force: true }))
      .finally(() => openPipes.delete(fifo));
  };
  void copying.then(
    () => hold.close(),
    () => hold.close(),
  );
  const reader = new PipeReader(readFd, copying, frame, removePipe);
  try {
    await reader.started;
  } catch (error) {
    reader.destroy();
    throw error;
  }
  return reader;
}

/** A read takes up to a quarter of the widened pipe. */
const CHUNK_BYTES = 256 * 1024;

/** Buffers of CHUNK_BYTES handed out and taken back; a buffer not given back is garbage. */
class BufferPool {
  private readonly free: Buffer[] = [];
  private readonly own = new WeakSet<ArrayBufferLike>();

  take(): Buffer {
    const reused = this.free.pop();
    if (reused) return reused;
    const buffer = Buffer.allocUnsafeSlow(CHUNK_BYTES);
    this.own.add(buffer.buffer);
    pipeBuffers.allocated += 1;
    return buffer;
  }

  /** Takes back the buffer under `chunk` if it is one of ours (not a frame's string). */
  giveBack(chunk: Buffer): void {
    if (this.own.has(chunk.buffer)) this.free.push(Buffer.from(chunk.buffer, 0, CHUNK_BYTES));
  }
}

/**
 * The read end of the pipe as a stream. Its `pipe` gives each buffer back to the pool once the
 * destination's write callback says the bytes were taken (an HTTP response: handed to the
 * kernel; gzip: compressed). Other consumers get a fresh buffer per chunk.
 */
class PipeReader extends Readable {
  /** Settles at the first byte of DuckDB's output, at its end, or at a failure before either. */
  readonly started: Promise<void>;
  private readonly buffers = new BufferPool();
  private readonly socket: net.Socket;
  private ended = false;

  constructor(
    fd: number,
    private readonly copying: Promise<unknown>,
    private readonly frame: CopyFrame,
    private readonly onClose: () => void,
  ) {
    super({ highWaterMark: 4 * CHUNK_BYTES });
    let first: () => void = () => undefined;
    this.started = new Promise<void>((resolve, reject) => {
      first = resolve;
      copying.catch(reject);
    });
    this.started.catch(() => undefined);
    this.socket = new net.Socket({
      fd,
      readable: true,
      writable: false,
      onread: {
        buffer: () => this.buffers.take(),
        callback: (bytes: number, buffer: Uint8Array) => {
          first();
          return this.deliver(Buffer.from(buffer.buffer, buffer.byteOffset, bytes));
        },
      },
    } as net.SocketConstructorOpts);
    this.socket.once('end', () => {
      this.ended = true;
      first();
      this.finish();
    });
    this.socket.once('error', (error) => this.destroy(error));
    if (frame.head) this.push(Buffer.from(frame.head));
  }

  /** Hands a chunk on; false pauses the pipe until the stream wants more. */
  private deliver(chunk: Buffer): boolean {
    const more = this.push(chunk);
    if (!more) this.socket.pause();
    return more;
  }

  override _read(): void {
    if (!this.ended) this.socket.resume();
  }

  /** At the pipe's end: the tail once the COPY has succeeded, or the COPY's failure. */
  private finish(): void {
    this.copying.then(
      () => {
        if (this.frame.tail) this.push(Buffer.from(this.frame.tail));
        this.push(null);
      },
      (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.socket.destroy();
    this.onClose();
    callback(error);
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    const onData = (chunk: Buffer): void => {
      const more = destination.write(chunk, () => this.buffers.giveBack(chunk));
      if (!more && !this.isPaused()) {
        this.pause();
        destination.once('drain', () => this.resume());
      }
    };
    const onEnd = (): void => {
      if (options?.end !== false) destination.end();
    };
    const stop = (): void => {
      this.off('data', onData);
      this.off('end', onEnd);
      this.pause();
    };
    this.on('data', onData);
    this.once('end', onEnd);
    destination.once('close', stop);
    destination.once('error', stop);
    return destination;
  }
}
