// Serves the client bundle under /assets/: content-hashed names, so every answer is cacheable
// forever; and the site's icon at /favicon.ico. Scripts and stylesheets go as web/build.mjs precompressed them (brotli, else gzip, else
// as they are, by Accept-Encoding), each coding with its own ETag; nothing is compressed per request.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context, Next } from 'koa';
import mime from 'mime-types';
import { WEB_DIST } from './manifest.js';
import { encodedTag, matchIfNoneMatch } from '../http/etag.js';

/** The URL prefix of bundle files. */
export const ASSETS_PREFIX = '/assets/';

/**
 * A bundle file name as esbuild writes them: no folder, no dot-file, nothing but name-hash.ext
 * (a source map: name-hash.js.map). The precompressed forms are never asked for by name.
 */
const ASSET_NAME = /^[A-Za-z0-9_-]+\.(?:(?:js|css)(?:\.map)?|woff2|png|svg)$/;

/** Files web/build.mjs precompressed, and the codings it wrote, in the order they are preferred. */
const PRECOMPRESSED = /\.(js|css)$/;
const CODINGS = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;

/** The file to send for `name`: its best precompressed form the client accepts, else the file itself. */
async function representation(
  ctx: Context,
  name: string,
): Promise<{ file: string; size: number; coding: string | null } | null> {
  const file = path.join(WEB_DIST, name);
  if (PRECOMPRESSED.test(name)) {
    for (const { coding, suffix } of CODINGS) {
      if (ctx.acceptsEncodings(coding) !== coding) continue;
      const stats = await stat(file + suffix).catch(() => null);
      if (stats?.isFile()) return { file: file + suffix, size: stats.size, coding };
    }
  }
  const stats = ASSET_NAME.test(name) ? await stat(file).catch(() => null) : null;
  return stats?.isFile() ? { file, size: stats.size, coding: null } : null;
}

/** Where browsers ask for a site's icon, whether or not a page links it. */
export const FAVICON_PATH = '/favicon.ico';

/** How long a browser keeps the icon before asking again (with its ETag): its URL never changes. */
const FAVICON_MAX_AGE = 86_400;

let favicon: Promise<{ bytes: Buffer; tag: string }> | null = null;

/** The icon web/build.mjs drew, read once, tagged by its content. */
function faviconFile(): Promise<{ bytes: Buffer; tag: string }> {
  favicon ??= readFile(path.join(WEB_DIST, 'favicon.ico')).then((bytes) => ({
    bytes,
    tag: `"favicon-${createHash('sha256').update(bytes).digest('base64url').slice(0, 16)}"`,
  }));
  return favicon;
}

/** Answers /favicon.ico: the icon, kept a day by the browser and then revalidated by its ETag. */
async function answerFavicon(ctx: Context): Promise<void> {
  const { bytes, tag } = await faviconFile();
  ctx.type = mime.contentType('.ico') || 'image/x-icon';
  ctx.set({
    'Cache-Control': `public, max-age=${FAVICON_MAX_AGE}`,
    'X-Content-Type-Options': 'nosniff',
    ETag: tag,
  });
  if (matchIfNoneMatch(ctx.get('If-None-Match'), tag, [])) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.body = bytes;
}

/**
 * Answers GET/HEAD /assets/<file> from dist/web with immutable caching, and /favicon.ico; other
 * paths go on.
 */
export function assets() {
  return async (ctx: Context, next: Next): Promise<void> => {
    const read = ctx.method === 'GET' || ctx.method === 'HEAD';
    if (read && ctx.path === FAVICON_PATH) return answerFavicon(ctx);
    if (!ctx.path.startsWith(ASSETS_PREFIX) || !read) {
      await next();
      return;
    }
    const name = ctx.path.slice(ASSETS_PREFIX.length);
    const found = ASSET_NAME.test(name) ? await representation(ctx, name) : null;
    if (!found) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = `No such asset: ${name}\n`;
      return;
    }
    // The name carries the content's hash: with the coding, it tells every representation apart.
    const identityTag = `"${name}"`;
    const tag = found.coding === null ? identityTag : encodedTag(identityTag, found.coding);
    if (PRECOMPRESSED.test(name)) ctx.vary('Accept-Encoding');
    ctx.type = mime.contentType(path.extname(name)) || 'application/octet-stream';
    ctx.set({
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      ETag: tag,
    });
    // Any coding of the same name is the same content: a tag held of any of them is still good.
    if (
      matchIfNoneMatch(
        ctx.get('If-None-Match'),
        identityTag,
        CODINGS.map((c) => c.coding),
      )
    ) {
      ctx.status = 304;
      return;
    }
    if (found.coding !== null) ctx.set('Content-Encoding', found.coding);
    ctx.status = 200;
    ctx.length = found.size;
    // A HEAD answer has the GET's headers and no body: no file is opened for it.
    if (ctx.method === 'GET') ctx.body = createReadStream(found.file);
  };
}
