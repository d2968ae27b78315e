// Older paths of v2: `/api/explore/v2.0/...` and `/api/v2/...` are answered by the v2.1 handlers
// with a deprecation header, except the v2.0 operations v2.1 removed, which answer 410. The
// handlers keep the v2.0 differences explore-api.md lists (Versioning 3) for requests marked here.
import type { Context, Next } from 'koa';
import type { QueryParams } from '../../odsql/index.js';
import { ApiError } from '../../http/errors.js';

export const DEPRECATION_HEADER = 'ODS-Explore-API-Deprecation';
const OLD_PREFIXES = ['/api/explore/v2.0', '/api/v2'];

/** The v2.0 `aggregates` and `query` operations (catalog-wide or per dataset). */
const REMOVED = /^\/catalog(?:\/datasets\/[^/]+)?\/(aggregates|query)$/;

/** The v2.1 operation that answers what a removed one did: the records of its dataset, or the catalog list. */
const replacement = (rest: string): string =>
  rest.startsWith('/catalog/datasets/')
    ? rest.replace(/\/(aggregates|query)$/, '/records')
    : '/catalog/datasets';

/** Whether the request came by a v2.0 path (`/api/explore/v2.0` or `/api/v2`). */
export const isV20 = (ctx: Context): boolean => (ctx.state as { v20?: boolean }).v20 === true;

/** The query options of the request's generation: v2.0 has no group for null keys. */
export const generationQueryParams = (ctx: Context): Partial<QueryParams> =>
  isV20(ctx) ? { nullGroups: false } : {};

/** Rewrites old v2 paths onto `v21Prefix`, marking the answer deprecated. */
export function v2Aliases(v21Prefix: string) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const prefix = OLD_PREFIXES.find((p) => ctx.path === p || ctx.path.startsWith(`${p}/`));
    if (prefix === undefined) {
      await next();
      return;
    }
    const rest = ctx.path.slice(prefix.length);
    ctx.set(DEPRECATION_HEADER, `${prefix} is deprecated: use ${v21Prefix}${rest}`);
    const removed = REMOVED.exec(rest);
    if (removed) {
      throw new ApiError(
        410,
        'GoneOperation',
        `The ${removed[1]} operation of Explore API v2.0 was removed: use select and group_by on ${v21Prefix}${replacement(rest)}.`,
      );
    }
    ctx.path = `${v21Prefix}${rest}`;
    (ctx.state as { v20?: boolean }).v20 = true;
    await next();
  };
}
