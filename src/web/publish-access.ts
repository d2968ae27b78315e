// Who publishes on the account page's Datasets tab, and how its answers are made: the signed-in
// administrator (else a 404, or sign-in, or a 403), the tab's page, the one-at-a-time gate of
// publications, the errors answered as the page with their message.
import type { Context } from 'koa';
import { DATASET_ID } from '../catalog/portal.js';
import type { Publishing, Services } from '../http/services.js';
import { callerState } from '../http/auth-middleware.js';
import { isAdmin, type PortalUser } from '../auth/users.js';
import { account, sessionOf, signedInUser } from './account-routes.js';
import { accountTop, ACCOUNT_PATHS } from './account-page.js';
import { PublishError } from './publish-errors.js';
import { datasetsMain, type ListedDataset } from './publish-page.js';
import { EXPIRED } from './publish-upload.js';

/** Datasets the tab lists (a portal may hold 100,000: the others are replaced by id). */
const LISTED = 200;

/** A signed-in administrator and what they publish with. */
export interface Publisher {
  readonly user: PortalUser;
  readonly publishing: Publishing;
  readonly csrf: string;
  readonly top: (tab: 'keys' | 'datasets') => string;
}

/** The publisher of the request, or null once the request is answered (404, 303 or 403). */
export function publisherOf(ctx: Context, services: Services): Publisher | null {
  const user = signedInUser(ctx, services);
  const { publishing } = services;
  if (user === null) {
    if (ctx.method === 'GET') ctx.redirect(`${ACCOUNT_PATHS.page}?next=${encodeURIComponent(ctx.path)}`);
    else account(ctx, services, 403, 'Form expired', `<h1>Form expired</h1><p>${EXPIRED}</p>`);
    return null;
  }
  if (!publishing || !isAdmin(user)) {
    account(
      ctx,
      services,
      404,
      'Page not found',
      '<h1>Page not found</h1><p>Nothing is published at this address.</p>',
    );
    return null;
  }
  const csrf = services.guard.sessions.csrfToken(sessionOf(ctx, services));
  return { user, publishing, csrf, top: (tab) => accountTop(user, csrf, tab, true) };
}

function listed(services: Services): { datasets: ListedDataset[]; total: number } {
  const all = services.portal().datasets;
  const datasets: ListedDataset[] = [];
  for (const dataset of all.values()) {
    if (datasets.length === LISTED) break;
    const { metas, computed, visibility } = dataset.file;
    datasets.push({
      id: dataset.id,
      title: metas.default.title,
      records: computed.records_count,
      visibility,
    });
  }
  return { datasets, total: all.size };
}

export function tabPage(
  ctx: Context,
  services: Services,
  publisher: Publisher,
  status: number,
  notice: { message?: string; done?: string; id?: string },
): void {
  const { datasets, total } = listed(services);
  const maxBytes = publisher.publishing.maxUploadBytes;
  const main = datasetsMain(publisher.top('datasets'), publisher.csrf, datasets, total, {
    ...notice,
    maxBytes,
  });
  account(ctx, services, status, 'Datasets', main);
}

/** Runs `work` unless another publication runs in this process (then a 503). */
export type Exclusive = <T>(work: () => Promise<T>) => Promise<T>;

export function oneAtATime(): Exclusive {
  let running = false;
  return async (work) => {
    if (running)
      throw new PublishError(503, 'Another publication is running on this server: try again in a moment.');
    running = true;
    try {
      return await work();
    } finally {
      running = false;
    }
  };
}

/** Answers a PublishError with `page` and its status; anything else goes on up. */
export async function answering(
  ctx: Context,
  work: () => Promise<void>,
  page: (status: number, message: string) => void,
) {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof PublishError)) throw error;
    if (error.status === 503) ctx.set('Retry-After', '5');
    page(error.status, error.message);
  }
}

/** The dataset id typed in the form, checked before it names any folder. */
export function datasetId(text: string | undefined): string {
  const id = (text ?? '').trim();
  if (id.length > 100 || !DATASET_ID.test(id))
    throw new PublishError(
      400,
      `"${id.slice(0, 100)}" is not a dataset id: use lowercase letters, digits, _ and - (not first).`,
    );
  return id;
}

/** Checks the posted form's token; a 403 otherwise. */
export function checkToken(ctx: Context, services: Services, form: Record<string, unknown>): void {
  if (!services.guard.sessions.checkCsrf(callerState(ctx).session, form._csrf))
    throw new PublishError(403, EXPIRED);
}
