// Serves the client bundle under /assets/: content-hashed names, so every answer is cacheable forever.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context, Next } from 'koa';
import mime from 'mime-types';
import { WEB_DIST } from './manifest.js';

/** The URL prefix of bundle files. */
export const ASSETS_PREFIX = '/assets/';

/** A bundle file name as esbuild writes them: no folder, no dot-file, nothing but name-hash.ext. */
const ASSET_NAME = /^[A-Za-z0-9_-]+\.(js|css|map|woff2|png|svg)$/;

/** Answers GET/HEAD /assets/<file> from dist/web with immutable caching; other paths go on. */
export function assets() {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (!ctx.path.startsWith(ASSETS_PREFIX) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      await next();
      return;
    }
    const name = ctx.path.slice(ASSETS_PREFIX.length);
    const file = path.join(WEB_DIST, name);
    const stats = ASSET_NAME.test(name) ? await stat(file).catch(() => null) : null;
    if (!stats?.isFile()) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = `No such asset: ${name}\n`;
      return;
    }
    ctx.type = mime.contentType(path.extname(name)) || 'application/octet-stream';
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = createReadStream(file);
    ctx.length = stats.size;
  };
}
