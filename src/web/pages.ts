// The web pages' routes: the catalog, the dataset pages with their tabs, and the HTML 404 of any
// other path outside /api/. Mounted after authentication and before the API's quotas and its
// JSON errors (src/server/app.ts): a page is not an API call, and a browser must never get a JSON
// 404. Each page is the shell of src/web/layout.ts; its script fetches the data from the API.
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Services } from '../http/services.js';
import { accessOf } from '../http/services.js';
import { callerState } from '../http/auth-middleware.js';
import { escapeHtml, PAGE_API_BASE, renderPage, type PageShell } from './layout.js';
import { tabsOf } from './tabs.js';
import { catalogScope } from './catalog-scope.js';
import { ACCOUNT_PATHS } from './account-page.js';
import type { Dataset } from '../catalog/portal.js';

/** A page's shell without what every page takes from the portal. */
export type Shell = Omit<PageShell, 'lang' | 'portalTitle'>;

/** Answers `ctx` with the HTML page of `shell`, in the portal's language and with its title. */
export function answerPage(ctx: Context, services: Services, status: number, shell: Shell): void {
  const settings = services.portal().settings;
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-cache');
  ctx.body = renderPage({ lang: settings.language, portalTitle: settings.title, ...shell });
}

/** The sign-in form, going back to the page at `url` once signed in. */
function signInUrl(url: string): string {
  return `${ACCOUNT_PATHS.page}?next=${encodeURIComponent(url)}`;
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

/**
 * The page of a restricted dataset asked anonymously: sign in, then back to `url`. It tells no more
 * than the catalog API, which lists the dataset to anonymous callers with `data_visible` false.
 */
function signInOffer(id: string, url: string): Shell {
  return messagePage(
    'Sign in to see this dataset',
    `The dataset <code>${escapeHtml(id)}</code> is open only to some users. Sign in to see it, if you are one of them.`,
    `<a href="${escapeHtml(signInUrl(url))}">Sign in</a> or <a href="/explore/">go back to the catalog</a>`,
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

/** The pages' router: the catalog, the dataset pages and the API console. */
export function pagesRouter(services: Services): Router {
  const router = new Router();
  const catalog: Shell = {
    title: 'Catalog',
    section: 'catalog',
    entry: 'catalog',
    main: '<h1>Datasets</h1><div id="app"></div>',
  };
  router.get(['/', '/explore'], async (ctx) => {
    const scope = await catalogScope(ctx, services);
    answerPage(ctx, services, 200, scope === null ? catalog : { ...catalog, data: { scope } });
  });
  const apiConsole: Shell = {
    title: 'API console',
    section: 'console',
    entry: 'console',
    main: '<h1>API console</h1><div id="console"></div>',
  };
  router.get(`${PAGE_API_BASE}/console`, (ctx) => answerPage(ctx, services, 200, apiConsole));
  router.get(['/explore/dataset/:id', '/explore/dataset/:id/:tab'], (ctx, next) => {
    const { id, tab = 'information' } = ctx.params as { id: string; tab?: string };
    // The download link is an export, answered by the API's router below (src/api/explore-download.ts).
    if (tab === DOWNLOAD_TAB) return next();
    const dataset = services.portal().datasets.get(id);
    if (!dataset) return answerPage(ctx, services, 404, datasetNotFound(id));
    if (!accessOf(ctx, dataset).dataVisible) {
      // Signing in may open it to an anonymous visitor; a signed-in one learns nothing more.
      if (callerState(ctx).owner === null) return answerPage(ctx, services, 401, signInOffer(id, ctx.url));
      return answerPage(ctx, services, 404, datasetNotFound(id));
    }
    const page = datasetPage(dataset, tab);
    if (!page)
      return answerPage(ctx, services, 404, messagePage('Page not found', 'This dataset has no such tab.'));
    answerPage(ctx, services, 200, page);
  });
  return router;
}

/**
 * Wraps every page path (everything outside /api/ but the download links, and the API console): a private portal sends a
 * caller who is not signed in to the sign-in form (303, back here once signed in), a bad key
 * gets an HTML page saying so, a method other than GET/HEAD is a 405 page (the account page's
 * forms, mounted before this, are the only POST routes), and a path nothing answered the HTML 404.
 */
export function pageErrors(services: Services) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if ((API_PATH.test(ctx.path) && !CONSOLE_PATH.test(ctx.path)) || DOWNLOAD_LINK.test(ctx.path)) {
      await next();
      return;
    }
    if (!isRead(ctx)) {
      ctx.set('Allow', 'GET, HEAD');
      const text = `This page is read with GET; ${escapeHtml(ctx.method)} is not allowed here.`;
      return answerPage(ctx, services, 405, messagePage('Method not allowed', text));
    }
    const refusal = callerState(ctx).refusal;
    if (refusal?.errorCode === 'AuthenticationRequired') {
      ctx.status = 303;
      ctx.set('Cache-Control', 'no-store');
      return ctx.redirect(signInUrl(ctx.url));
    }
    if (refusal) {
      const signIn = messagePage(
        'Sign in required',
        escapeHtml(refusal.message),
        '<a href="/account/">Sign in</a>',
      );
      return answerPage(ctx, services, refusal.status, signIn);
    }
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      answerPage(ctx, services, 404, messagePage('Page not found', 'Nothing is published at this address.'));
    }
  };
}

const API_PATH = /^\/api(?:\/|$)/;

/** The tab name of a dataset's download link: an export with the API's errors and quotas, not a page. */
const DOWNLOAD_TAB = 'download';
const DOWNLOAD_LINK = /^\/explore\/dataset\/[^/]+\/download\/?$/;

/** The API console's page, the one page under /api/. */
export const CONSOLE_PATH = /^\/api\/explore\/v2\.1\/console\/?$/;

function isRead(ctx: Context): boolean {
  return ctx.method === 'GET' || ctx.method === 'HEAD';
}
