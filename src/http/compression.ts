// Compression of answers with gzip or br (koa-compress), over 1 KB and for compressible types only.
// Streamed bodies (exports, attachments) go as they are: an export asks for gzip itself with
// `compressed=true`, and compressing a stream here would hold its bytes in zlib's buffers.
// Accept-Encoding is read as RFC 9110 says: identity is acceptable unless excluded (`identity;q=0`,
// or `*;q=0` without identity); a client that excludes it gets every compressible answer
// compressed, and a 406 when nothing it accepts can be sent.
import { Stream } from 'node:stream';
import type { Context, Next } from 'koa';
import compress from 'koa-compress';
import { encodedTag } from './etag.js';
import { ApiError } from './errors.js';

const COMPRESSION_THRESHOLD = 1024;

/** The codings an answer may have: br and gzip for compressible ones, identity for every one. */
const OFFERED_CODINGS = ['br', 'gzip', 'identity'];

/** A body Koa would send as JSON (Content-Type already set when it was assigned): an array or a plain object. */
function isJsonValue(body: unknown): body is object {
  if (body === null || typeof body !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(body);
  return Array.isArray(body) || prototype === Object.prototype || prototype === null;
}

const refusesIdentity = (ctx: Context): boolean => ctx.acceptsEncodings('identity') === false;

/** The 406 of an answer no coding of which the client accepts. */
function notAcceptable(ctx: Context, what: string): ApiError {
  const header = ctx.get('Accept-Encoding').slice(0, 100);
  return new ApiError(
    406,
    'NotAcceptable',
    `Accept-Encoding "${header}" refuses identity and accepts ${what}: send it without identity;q=0 or *;q=0.`,
  );
}

/** Whether the answer has a body to send (not a HEAD, a 204 or a 304). */
const sendsBody = (ctx: Context): boolean =>
  ctx.method !== 'HEAD' && ctx.body != null && ctx.status !== 204 && ctx.status !== 304;

/** Compresses JSON, GeoJSON and text answers; an encoded answer gets its own strong ETag. */
export function compression() {
  const compressor = compress({
    threshold: (_type, _size, ctx) => (refusesIdentity(ctx) ? 0 : COMPRESSION_THRESHOLD),
    gzip: {},
    br: {},
    deflate: false,
    zstd: false,
  });
  return async (ctx: Context, next: Next): Promise<void> => {
    // Before any work: koa-compress itself would fail on such a header (it picks no coding).
    if (ctx.acceptsEncodings(OFFERED_CODINGS) === false) throw notAcceptable(ctx, 'neither br nor gzip');
    let encodedBelow = false;
    await compressor(ctx, async () => {
      await next();
      // Sent encoded as it is (the precompressed assets, src/web/assets.ts): tagged there already.
      encodedBelow = Boolean(ctx.response.get('Content-Encoding'));
      if (ctx.body instanceof Stream) ctx.compress = false;
      // Written once: koa-compress measures an object body by writing it, then it or Koa writes it again.
      else if (isJsonValue(ctx.body)) ctx.body = JSON.stringify(ctx.body);
    });
    const encoding = ctx.response.get('Content-Encoding');
    if (!encoding && sendsBody(ctx) && refusesIdentity(ctx)) {
      throw notAcceptable(ctx, 'only br or gzip, but this answer is a file sent as it is');
    }
    const tag = ctx.response.get('ETag');
    if (encoding && tag && !encodedBelow) ctx.set('ETag', encodedTag(tag, encoding));
  };
}
