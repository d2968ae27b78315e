// CORS for browser clients: any origin, preflights answered, the rate-limit headers readable.
import type { Context, Next } from 'koa';

/** Headers a browser script may read from answers (quotas). */
export const EXPOSED_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/** Marks an answer readable by a script of any origin, its quota headers included. */
export function allowAnyOrigin(ctx: Context): void {
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS.join(', '));
}

/** Answers preflight OPTIONS requests itself and marks every other answer readable from any origin. */
export function cors() {
  return async (ctx: Context, next: Next): Promise<void> => {
    allowAnyOrigin(ctx);
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
      ctx.set('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', ctx.get('Access-Control-Request-Headers') || 'Authorization');
      ctx.set('Access-Control-Max-Age', '86400');
      ctx.status = 204;
      return;
    }
    await next();
  };
}
