// The web pages' routes: the catalog, the dataset pages with their tabs, and the HTML 404 of any
// other path outside /api/. Mounted after authentication and before the API's quotas and its
// JSON errors (src/api/app.ts): a page is not an API call, and a browser must never get a JSON
// 404. Each page is the shell of src/web/layout.ts; its script fetches the data from the API.
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Services } from '../api/services.js';
import { accessOf } from '../api/services.js';
import { callerState } from '../auth/middleware.js';
import { escapeHtml, renderPage, type PageShell } from './layout.js';
import { tabsOf } from './tabs.js';
import type { Dataset } from '../catalog/portal.js';

type Shell = Omit<PageShell, 'lang' | 'portalTitle'>;

function answer(ctx: Context, services: Services, status: number, shell: Shell): void {
  const settings = services.portal().settings;
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-cache');
  ctx.body = renderPage({ lang: settings.language, portalTitle: settings.title, ...shell });
}

/** A page of one message: `text` is HTML, the link goes on from there. */
function messagePage(
  heading: string,
  text: string,
  link = '<a href="/explore/">Back to the catalog</a>',
): Shell {
  return {
    title: heading,
    section: null,
    entry: null,
    main: `<h1>${escapeHtml(heading)}</h1><p>${text}</p><p>${link}</p>`,
  };
}

/** The page of an unknown dataset and of one the caller may not see: the same, as the API's 404. */
function datasetNotFound(id: string): Shell {
  return messagePage(
    'Dataset not found or not allowed',
    `The dataset <code>${escapeHtml(id)}</code> does not exist, or you are not allowed to see it.`,
  );
}

function datasetPage(dataset: Dataset, tabName: string): Shell | null {
  const tabs = tabsOf(dataset);
  const tab = tabs.find((t) => t.name === tabName);
  if (!tab) return null;
  const title = dataset.file.metas.default.title;
  const base = `/explore/dataset/${encodeURIComponent(dataset.id)}`;
  const links = tabs
    .map(
      (t) =>
        `<li><a data-carry href="${base}/${t.name}/"${t === tab ? ' aria-current="page"' : ''}>${t.label}</a></li>`,
    )
    .join('');
  return {
    title: `${title} (${tab.label})`,
    section: 'catalog',
    entry: tab.entry,
    data: { dataset: dataset.id, tab: tab.name },
    main:
      `<h1>${escapeHtml(title)}</h1><nav class="tabs" aria-label="Dataset"><ul>${links}</ul></nav>` +
      `<div id="app"></div>`,
  };
}

/** The pages' router: the catalog and the dataset pages. */
export function pagesRouter(services: Services): Router {
  const router = new Router();
  const catalog: Shell = {
    title: 'Catalog',
    section: 'catalog',
    entry: 'catalog',
    main: '<h1>Datasets</h1><div id="app"></div>',
  };
  router.get(['/', '/explore'], (ctx) => answer(ctx, services, 200, catalog));
  router.get(['/explore/dataset/:id', '/explore/dataset/:id/:tab'], (ctx) => {
    const { id, tab = 'information' } = ctx.params as { id: string; tab?: string };
    const dataset = services.portal().datasets.get(id);
    if (!dataset || !accessOf(ctx, dataset).dataVisible)
      return answer(ctx, services, 404, datasetNotFound(id));
    const page = datasetPage(dataset, tab);
    if (!page)
      return answer(ctx, services, 404, messagePage('Page not found', 'This dataset has no such tab.'));
    answer(ctx, services, 200, page);
  });
  return router;
}

/**
 * Wraps everything outside /api/ that a browser reads: a caller the API would refuse (a private
 * portal, a bad key) gets an HTML page asking to sign in, and a path nothing answered the HTML 404.
 */
export function pageErrors(services: Services) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (API_PATH.test(ctx.path) || !isRead(ctx)) {
      await next();
      return;
    }
    const refusal = callerState(ctx).refusal;
    if (refusal) {
      const signIn = messagePage(
        'Sign in required',
        escapeHtml(refusal.message),
        '<a href="/account/">Sign in</a>',
      );
      return answer(ctx, services, refusal.status, signIn);
    }
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      answer(ctx, services, 404, messagePage('Page not found', 'Nothing is published at this address.'));
    }
  };
}

const API_PATH = /^\/api(?:\/|$)/;

function isRead(ctx: Context): boolean {
  return ctx.method === 'GET' || ctx.method === 'HEAD';
}
