// A byte range of an open file as a stream that reuses its read buffers once the response it is
// piped into has written them. A new 1 MiB Buffer per read made V8 collect the server's whole heap
// every few dozen megabytes: sending the 30M flights' CSV (1.24 GB) twice cost 2.4 s of CPU, 1.2 s
// of it in the garbage collector (a profile, bench/README.md), where nginx's sendfile cost 0.1-0.3 s.
import type { FileHandle } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** Bytes read per chunk: larger than fs's 64 KiB, so a fast client costs fewer reads and writes. */
export const READ_CHUNK = 1 << 20;
/** Buffers one stream keeps lent at most; past them (a response that never drains) reads allocate. */
const LENT_MAX = 4;

/**
 * The bytes `start`..`end` (inclusive) of `handle`, read through the handle (not an fs.ReadStream
 * over `handle.fd`: destroying one closes that descriptor whatever `autoClose` says, and the
 * handle's own close then closed the same number again, by then another request's file), closing
 * it when the stream ends or is destroyed.
 *
 * A buffer pushed is known written once `response` emits 'drain' (every byte handed to it is then
 * written to the socket) while the buffer is no longer queued in this stream; this stream's
 * listener goes first, before the pipe's own writes more. Piped anywhere but `response`, or twice,
 * each read allocates as fs streams do.
 */
export class FileRangeStream extends Readable {
  private position: number;
  private readonly free: Buffer[] = [];
  /** Buffers pushed and not yet known written, oldest first, with the bytes pushed of each. */
  private readonly lent: { readonly buffer: Buffer; readonly bytes: number }[] = [];
  private readonly last: number;
  private pooled: boolean | null = null;
  /** Buffers this stream allocated (the tests see the reuse by it). */
  allocated = 0;
  private readonly onDrain = (): void => this.reclaim();

  constructor(
    private readonly handle: FileHandle,
    range: { readonly start: number; readonly end: number },
    private readonly response: ServerResponse,
  ) {
    super({ highWaterMark: READ_CHUNK });
    this.position = range.start;
    this.last = range.end;
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    this.pooled = this.pooled === null && (destination as unknown) === this.response;
    if (this.pooled) this.response.prependListener('drain', this.onDrain);
    else this.response.off('drain', this.onDrain);
    return super.pipe(destination, options);
  }

  /** Frees the lent buffers the response has written: all those older than what this stream still queues. */
  private reclaim(): void {
    if (this.response.writableLength > 0) return;
    let queued = this.readableLength;
    let kept = this.lent.length;
    while (kept > 0 && queued > 0) queued -= this.lent[--kept]!.bytes;
    for (const { buffer } of this.lent.splice(0, kept)) this.free.push(buffer);
  }

  private buffer(): Buffer {
    if (this.pooled) {
      this.reclaim();
      const buffer = this.free.pop();
      if (buffer) return buffer;
    }
    this.allocated++;
    return Buffer.allocUnsafe(READ_CHUNK);
  }

  override _read(): void {
    const length = Math.min(READ_CHUNK, this.last - this.position + 1);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = this.buffer();
    const lendable = this.pooled === true && this.lent.length < LENT_MAX;
    this.handle.read(buffer, 0, length, this.position).then(
      ({ bytesRead }) => {
        if (bytesRead === 0) {
          this.push(null);
          return;
        }
        this.position += bytesRead;
        if (lendable) this.lent.push({ buffer, bytes: bytesRead });
        this.push(buffer.subarray(0, bytesRead));
      },
      (error: Error) => this.destroy(error),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.response.off('drain', this.onDrain);
    // The handle's close waits for a read still in flight.
    this.handle.close().then(
      () => callback(error),
      () => callback(error),
    );
  }
}
