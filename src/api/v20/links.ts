// The `links` of v2.0 answers: absolute URLs from the request's own scheme and host (the forwarded
// ones behind --trust-proxy, as Koa reads them when the app trusts its proxy), under the v2.0 path
// the client used. An API key given in the query string is never written into a link: an answer
// may be kept by the response cache and served to another caller of the same audience.
import type { Context } from 'koa';
import { sentPath, sourceBase } from '../../http/services.js';

/** One link of a v2.0 answer. */
export interface Link {
  readonly href: string;
  readonly rel: string;
}

export const link = (rel: string, href: string): Link => ({ href, rel });

/** The absolute URL of a dataset, or of the catalog when `id` is null. */
export function catalogUrl(ctx: Context, id: string | null = null): string {
  const catalog = `${sourceBase(ctx)}/datasets`;
  return id === null ? catalog : `${catalog}/${encodeURIComponent(id)}`;
}

/** The links of one dataset: itself, the catalog, and its operations. */
export function datasetLinks(ctx: Context, id: string): Link[] {
  const self = catalogUrl(ctx, id);
  return [
    link('self', self),
    link('datasets', catalogUrl(ctx)),
    ...['records', 'aggregates', 'exports', 'facets', 'attachments'].map((rel) =>
      link(rel, `${self}/${rel}`),
    ),
  ];
}

/** The request's own URL, absolute, with `changes` set in its query string and no API key. */
export function requestUrl(ctx: Context, changes: Readonly<Record<string, string>> = {}): string {
  const params = new URLSearchParams(ctx.querystring);
  params.delete('apikey');
  for (const [name, value] of Object.entries(changes)) params.set(name, value);
  const query = params.toString();
  return `${ctx.protocol}://${ctx.host}${sentPath(ctx)}${query ? `?${query}` : ''}`;
}

/**
 * The links of a page of a paged list (records, datasets): self, first, last and next, each a
 * page the API answers (`offset + limit` within `window`, as pageOf checks).
 */
export function pageLinks(
  ctx: Context,
  page: { limit: number; offset: number },
  total: number,
  window: number,
): Link[] {
  const at = (offset: number) => requestUrl(ctx, { limit: String(page.limit), offset: String(offset) });
  const links = [link('self', requestUrl(ctx)), link('first', at(0))];
  if (page.limit <= 0) return links;
  const reachable = Math.min(total, window);
  const last = Math.max(
    0,
    Math.min(Math.floor((reachable - 1) / page.limit) * page.limit, window - page.limit),
  );
  links.push(link('last', at(last)));
  const next = page.offset + page.limit;
  if (next < reachable && next + page.limit <= window) links.push(link('next', at(next)));
  return links;
}
