// Opens the dataset a request names before its route runs (src/server/dataset-views.ts opens a
// dataset's views on first use): the routes then find its views defined, and keep them until the
// response closes.
import type { Context, Next } from 'koa';
import { scopeOf } from './http-caching.js';
import { openForRequest, type Services } from './services.js';

/** Paths that read one dataset's rows beside those of http-caching.ts's scopes (v1's export page). */
const DOWNLOAD_PATH = /^\/explore\/dataset\/([^/]+)\/download\/?$/;

/** The id of the dataset a request reads, or null. */
function datasetOf(ctx: Context): string | null {
  const download = DOWNLOAD_PATH.exec(ctx.path);
  if (!download) return scopeOf(ctx);
  try {
    return decodeURIComponent(download[1]!);
  } catch {
    return null;
  }
}

/** The middleware: a request naming a dataset of the portal opens it first. */
export function openRequestDataset(services: Services) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const id = datasetOf(ctx);
    const dataset = id === null ? undefined : services.portal().datasets.get(id);
    if (dataset) await openForRequest(services, ctx, dataset);
    await next();
  };
}
