// A file on disk sent as HTTP asks of a static representation (RFC 9110 14 and 13.1.5): streamed
// from an open descriptor (a file renamed or removed meanwhile keeps its bytes), Accept-Ranges,
// one range (206 with Content-Range), several (206 multipart/byteranges), a range past the end
// (416 with `bytes */size`), If-Range against the answer's strong tag or date, HEAD without a read.
import { randomBytes } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { PassThrough, Readable } from 'node:stream';
import type { Context } from 'koa';
import parseRange from 'range-parser';
import { ApiError } from './errors.js';
import { FileRangeStream, READ_CHUNK } from './file-range-stream.js';
/** More ranges than this (after merging neighbours) get the whole file: a list bounded per request. */
export const MAX_RANGES = 64;

/** What a file is sent as: its type, its name for Content-Disposition, its validators. */
export interface FileAnswer {
  readonly contentType: string;
  readonly fileName: string;
  /** The answer's strong entity tag (If-Range compares it), or null when it has none. */
  readonly tag: string | null;
  readonly modified: Date;
}

interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/**
 * The ranges to send, or null for the whole file: no Range, a malformed one (ignored, as RFC 9110
 * 14.2 allows), a validator of If-Range that is not this answer's, or more than MAX_RANGES.
 * Throws the 416 of a range that starts past the end.
 */
function rangesOf(ctx: Context, size: number, answer: FileAnswer): ByteRange[] | null {
  const header = ctx.get('Range');
  if (!header || !ifRangeHolds(ctx.get('If-Range'), answer)) return null;
  const ranges = parseRange(size, header, { combine: true });
  if (ranges === -2 || (ranges !== -1 && ranges.type !== 'bytes')) return null;
  if (ranges === -1) {
    throw new ApiError(
      416,
      'RangeNotSatisfiable',
      `The range ${header.slice(0, 100)} is outside the file's ${size} bytes.`,
      {
        'Content-Range': `bytes */${size}`,
      },
    );
  }
  return ranges.length > MAX_RANGES ? null : ranges;
}

/** Whether If-Range (absent, a strong tag, or an HTTP date) lets the Range apply. */
function ifRangeHolds(header: string, answer: FileAnswer): boolean {
  if (!header) return true;
  if (header.startsWith('"')) return answer.tag !== null && header === answer.tag;
  if (header.startsWith('W/')) return false;
  const date = Date.parse(header);
  return !Number.isNaN(date) && date === Math.floor(answer.modified.getTime() / 1000) * 1000;
}

/** The bytes `start`..`end` (inclusive) of an open file, read through its handle (see FileRangeStream). */
async function* slice(handle: FileHandle, { start, end }: ByteRange): AsyncGenerator<Buffer> {
  for (let position = start; position <= end;) {
    const { bytesRead, buffer } = await handle.read({
      buffer: Buffer.allocUnsafe(Math.min(READ_CHUNK, end - position + 1)),
      position,
    });
    if (bytesRead === 0) return;
    yield buffer.subarray(0, bytesRead);
    position += bytesRead;
  }
}

/** The parts of a multipart/byteranges body, each headed by its type and range, then the closing delimiter. */
function multipartBody(handle: FileHandle, ranges: readonly ByteRange[], type: string, size: number) {
  const boundary = randomBytes(12).toString('hex');
  const heads = ranges.map(
    (r, i) =>
      `${i === 0 ? '' : '\r\n'}--${boundary}\r\nContent-Type: ${type}\r\nContent-Range: bytes ${r.start}-${r.end}/${size}\r\n\r\n`,
  );
  const tail = `\r\n--${boundary}--\r\n`;
  const length =
    heads.reduce((sum, head) => sum + Buffer.byteLength(head), 0) +
    ranges.reduce((sum, r) => sum + r.end - r.start + 1, 0) +
    tail.length;
  async function* parts() {
    for (const [i, range] of ranges.entries()) {
      yield Buffer.from(heads[i]!);
      yield* slice(handle, range);
    }
    yield Buffer.from(tail);
  }
  return { boundary, length, body: Readable.from(parts(), { objectMode: false }) };
}

/**
 * `body`, closing `handle` once it ends or is destroyed (a client gone); for a HEAD, nothing is
 * read: an empty body, and the file closed now.
 */
function closingWith(ctx: Context, body: () => Readable, handle: FileHandle): Readable {
  if (ctx.method === 'HEAD') {
    void handle.close().catch(() => undefined);
    return Readable.from([]);
  }
  const out = new PassThrough({ highWaterMark: READ_CHUNK });
  const source = body();
  source.pipe(out);
  source.once('error', (error) => out.destroy(error));
  out.once('close', () => {
    source.destroy();
    void handle.close().catch(() => undefined);
  });
  return out;
}

/** One range of the file as the body (piped straight into the response, which it closes the file after). */
function rangeBody(ctx: Context, handle: FileHandle, range: ByteRange): Readable {
  if (ctx.method === 'HEAD') return closingWith(ctx, () => Readable.from([]), handle);
  return new FileRangeStream(handle, range, ctx.res);
}

/**
 * Answers the request with the file at `file` (opened now: a rename over it later does not change
 * what this answer sends). Returns false, having sent nothing, when the file is gone.
 */
export async function sendFile(ctx: Context, file: string, answer: FileAnswer): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return false;
  try {
    const { size } = await handle.stat();
    const ranges = rangesOf(ctx, size, answer);
    ctx.set('Accept-Ranges', 'bytes');
    ctx.attachment(answer.fileName);
    if (ranges === null || ranges.length === 0) {
      ctx.status = 200;
      ctx.type = answer.contentType;
      ctx.body = rangeBody(ctx, handle, { start: 0, end: size - 1 });
      ctx.length = size;
    } else if (ranges.length === 1) {
      const range = ranges[0]!;
      ctx.status = 206;
      ctx.type = answer.contentType;
      ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
      ctx.body = rangeBody(ctx, handle, range);
      ctx.length = range.end - range.start + 1;
    } else {
      const { boundary, length, body } = multipartBody(handle, ranges, answer.contentType, size);
      ctx.status = 206;
      ctx.type = `multipart/byteranges; boundary=${boundary}`;
      ctx.body = closingWith(ctx, () => body, handle);
      ctx.length = length;
    }
    return true;
  } catch (error) {
    await handle.close();
    throw error;
  }
}
