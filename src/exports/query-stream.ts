// Streams a query whose rows are already formatted text (or bytes) in SQL: JS only joins each
// chunk's strings and honours back-pressure. Settles at the first byte, like copyToStream.
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import type { Chunk, Engine } from '../engine/engine.js';

/** Turns one chunk of the query's rows into output bytes; `first` is true for the first chunk. */
export type ChunkEncoder = (chunk: Chunk, first: boolean) => string | Buffer;

/** What surrounds the rows: written before the first chunk and after the last (computed then). */
export interface Frame {
  readonly head: string | Buffer;
  readonly tail: string | Buffer | (() => string | Buffer);
}

/** Queries running for a streamed export (for tests that check nothing is left running). */
export let runningStreams = 0;

/** Joins a chunk's first column (one formatted line per row) with `separator` between rows. */
export function joinLines(separator: string): ChunkEncoder {
  return (chunk, first) => {
    const lines = chunk.values(0) as readonly (string | null)[];
    const text = lines.filter((line) => line !== null).join(separator);
    return first || text === '' ? text : separator + text;
  };
}

/**
 * Runs `sql` on an export connection and streams `head`, each encoded chunk, then `tail`.
 * `signal` (the client gone) interrupts the query; a destroyed output stops the loop too.
 */
export async function streamQuery(
  engine: Engine,
  sql: string,
  encode: ChunkEncoder,
  frame: Frame,
  signal: AbortSignal,
): Promise<Readable> {
  const output = new PassThrough({ highWaterMark: 1 << 20 });
  let started!: () => void;
  const firstByte = new Promise<void>((resolve) => (started = resolve));
  const push = async (bytes: string | Buffer): Promise<void> => {
    if (output.destroyed) throw new Error('export stream closed');
    if (bytes.length === 0) return;
    if (!output.write(bytes)) {
      await Promise.race([once(output, 'drain'), once(output, 'close')]);
      if (output.destroyed) throw new Error('export stream closed');
    }
  };
  runningStreams++;
  const writing = engine
    .withExportConnection(async (connection) => {
      let first = true;
      for await (const chunk of connection.chunks(sql)) {
        if (first) {
          await push(frame.head);
          started();
        }
        await push(encode(chunk, first));
        first = false;
      }
      if (first) {
        await push(frame.head);
        started();
      }
      await push(typeof frame.tail === 'function' ? frame.tail() : frame.tail);
    }, signal)
    .finally(() => runningStreams--);
  let handedOver = false;
  writing.then(
    () => output.end(),
    // Before the first byte the failure is the answer (the caller's rejection), and nobody
    // listens to the stream yet: an error emitted then would be uncaught.
    (error: unknown) =>
      output.destroy(handedOver ? (error instanceof Error ? error : new Error(String(error))) : undefined),
  );
  await Promise.race([firstByte, writing]);
  handedOver = true;
  return output;
}
