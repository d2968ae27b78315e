// Compression of answers with gzip or br (koa-compress), over 1 KB and for compressible types only.
// Streamed bodies (exports, attachments) go as they are: an export asks for gzip itself with
// `compressed=true`, and compressing a stream here would hold its bytes in zlib's buffers.
import { Stream } from 'node:stream';
import type { Context, Next } from 'koa';
import compress from 'koa-compress';
import { encodedTag } from '../http/etag.js';

const COMPRESSION_THRESHOLD = 1024;

/** A body Koa would send as JSON (Content-Type already set when it was assigned): an array or a plain object. */
function isJsonValue(body: unknown): body is object {
  if (body === null || typeof body !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(body);
  return Array.isArray(body) || prototype === Object.prototype || prototype === null;
}

/** Compresses JSON, GeoJSON and text answers; an encoded answer gets its own strong ETag. */
export function compression() {
  const compressor = compress({
    threshold: COMPRESSION_THRESHOLD,
    gzip: {},
    br: {},
    deflate: false,
    zstd: false,
  });
  return async (ctx: Context, next: Next): Promise<void> => {
    await compressor(ctx, async () => {
      await next();
      if (ctx.body instanceof Stream) ctx.compress = false;
      // Written once: koa-compress measures an object body by writing it, then it or Koa writes it again.
      else if (isJsonValue(ctx.body)) ctx.body = JSON.stringify(ctx.body);
    });
    const encoding = ctx.response.get('Content-Encoding');
    const tag = ctx.response.get('ETag');
    if (encoding && tag) ctx.set('ETag', encodedTag(tag, encoding));
  };
}
