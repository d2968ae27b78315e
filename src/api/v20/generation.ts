// Which generation of the v2 API a request came by. The v2.0 router (src/api/v20/) marks its
// requests, so that the handlers it shares with v2.1 (facets, exports, attachments) keep the
// differences explore-api.md lists (Versioning 3) and write links under the path the client used.
import type { Context } from 'koa';
import type { QueryParams } from '../../odsql/index.js';

export const V21_PREFIX = '/api/explore/v2.1';
/** The two paths of v2.0: the public service's documented one and its short alias. */
export const V20_PREFIXES = ['/api/explore/v2.0', '/api/v2'] as const;
export type V20Prefix = (typeof V20_PREFIXES)[number];

export const DEPRECATION_HEADER = 'ODS-Explore-API-Deprecation';

/** `apiPrefix`: read by apiBase (services.ts) to write links under the path the client used. */
interface GenerationState {
  apiPrefix?: string;
}

/** Marks the request as a v2.0 one, come by `prefix`. */
export function markV20(ctx: Context, prefix: V20Prefix): void {
  (ctx.state as GenerationState).apiPrefix = prefix;
}

/** Whether the request came by a v2.0 path (`/api/explore/v2.0` or `/api/v2`). */
export const isV20 = (ctx: Context): boolean =>
  (V20_PREFIXES as readonly (string | undefined)[]).includes((ctx.state as GenerationState).apiPrefix);

/** The query options of the request's generation: v2.0 has no group for null keys. */
export const generationQueryParams = (ctx: Context): Partial<QueryParams> =>
  isV20(ctx) ? { nullGroups: false } : {};
