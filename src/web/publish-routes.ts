// The account page's Datasets tab: an administrator of the portal (group `admin`) uploads a file
// or gives a URL, sees the staged dataset (fields, types, problems, first records), sets its
// metadata and publishes or replaces it, or deletes a dataset after a confirmation; the server
// then reloads and signals this host's other servers of the portal. For anyone else these paths
// do not exist (404; a signed-out visitor is sent to sign in, a form posted without a session is
// a 403). Every form carries the session's CSRF token. One publication runs at a time per process
// (another waits for none: a 503 with Retry-After).
import { rm } from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import type { Context } from 'koa';
import { DATASET_ID } from '../catalog/portal.js';
import type { Publishing, Services } from '../http/services.js';
import { callerState } from '../http/auth-middleware.js';
import { isAdmin, type PortalUser } from '../auth/users.js';
import { removeDatasetDirectory } from '../ingest/staging.js';
import { account, postedBody, sessionOf, signedInUser } from './account-routes.js';
import { accountTop, ACCOUNT_PATHS } from './account-page.js';
import {
  discardDraft,
  draftFolder,
  newDraftFolder,
  publishDraft,
  readDraft,
  stageDraft,
} from './publish-drafts.js';
import { PublishError } from './publish-errors.js';
import { fetchableUrl, fetchToFile } from './publish-fetch.js';
import { datasetsMain, deleteMain, draftMain, PUBLISH_PATHS, type ListedDataset } from './publish-page.js';
import { postedSettings } from './publish-settings.js';
import { EXPIRED, receiveUpload, safeExtension } from './publish-upload.js';

/** Datasets the tab lists (a portal may hold 100,000: the others are replaced by id). */
const LISTED = 200;

/** A signed-in administrator and what they publish with. */
interface Publisher {
  readonly user: PortalUser;
  readonly publishing: Publishing;
  readonly csrf: string;
  readonly top: (tab: 'keys' | 'datasets') => string;
}

/** The publisher of the request, or null once the request is answered (404, 303 or 403). */
function publisherOf(ctx: Context, services: Services): Publisher | null {
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

function tabPage(
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
type Exclusive = <T>(work: () => Promise<T>) => Promise<T>;

function oneAtATime(): Exclusive {
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
async function answering(
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
function datasetId(text: string | undefined): string {
  const id = (text ?? '').trim();
  if (id.length > 100 || !DATASET_ID.test(id))
    throw new PublishError(
      400,
      `"${id.slice(0, 100)}" is not a dataset id: use lowercase letters, digits, _ and - (not first).`,
    );
  return id;
}

/** Receives the upload form (or fetches its URL) into a new draft and stages it. */
async function stage(ctx: Context, services: Services, publisher: Publisher): Promise<string> {
  const { publishing, user } = publisher;
  const { token, dir } = await newDraftFolder(publishing.draftsDir);
  try {
    const session = callerState(ctx).session;
    const { fields, file } = await receiveUpload(ctx.req, {
      maxBytes: publishing.maxUploadBytes,
      dir,
      fileBase: 'source',
      tokenValid: (value) => services.guard.sessions.checkCsrf(session, value),
    });
    const id = datasetId(fields.id);
    const url = (fields.url ?? '').trim();
    if (file && url !== '') throw new PublishError(400, 'Give a file or a URL, not both.');
    let source: { file: string; name: string };
    if (file) source = { file: file.path, name: file.name };
    else if (url !== '') {
      const parsed = fetchableUrl(url, publishing.allowPrivateUrls);
      const target = path.join(dir, `source${safeExtension(parsed.pathname)}`);
      const limits = { maxBytes: publishing.maxUploadBytes, allowPrivate: publishing.allowPrivateUrls };
      source = { file: target, name: (await fetchToFile(parsed, target, limits)).href };
    } else throw new PublishError(400, 'Choose a file or give a URL.');
    const input = { token, dir, file: source.file, source: source.name, dataset: id, user: user.name };
    await stageDraft({ ...input, portalDir: publishing.portalDir });
    return token;
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The draft of the path for its publisher, or a 404. */
async function pathDraft(ctx: Context, publisher: Publisher) {
  const token = (ctx.params as { token: string }).token;
  const draft = await readDraft(publisher.publishing.draftsDir, token, publisher.user.name);
  if (!draft)
    throw new PublishError(
      404,
      'This draft does not exist: it was published, discarded or is more than a day old.',
    );
  return { draft, dir: draftFolder(publisher.publishing.draftsDir, token)! };
}

/** Checks the posted form's token; a 403 otherwise. */
function checkToken(ctx: Context, services: Services, form: Record<string, unknown>): void {
  if (!services.guard.sessions.checkCsrf(callerState(ctx).session, form._csrf))
    throw new PublishError(403, EXPIRED);
}

/** The Datasets tab's router. */
export function publishRouter(services: Services): Router {
  const router = new Router();
  const exclusive = oneAtATime();
  const tabError = (ctx: Context, publisher: Publisher) => (status: number, message: string) =>
    tabPage(ctx, services, publisher, status, { message });
  router.get(['/account/datasets', PUBLISH_PATHS.tab], (ctx) => {
    const publisher = publisherOf(ctx, services);
    if (!publisher) return;
    const { published, deleted, id } = ctx.query;
    const done =
      typeof published === 'string'
        ? `Published ${published}: ${services.portal().datasets.get(published)?.file.computed.records_count ?? 0} records.`
        : typeof deleted === 'string'
          ? `Deleted ${deleted}.`
          : undefined;
    tabPage(ctx, services, publisher, 200, { ...(done && { done }), ...(typeof id === 'string' && { id }) });
  });
  router.post(PUBLISH_PATHS.drafts, async (ctx) => {
    const publisher = publisherOf(ctx, services);
    if (!publisher) return;
    await answering(
      ctx,
      async () => {
        const token = await exclusive(() => stage(ctx, services, publisher));
        ctx.status = 303;
        ctx.redirect(PUBLISH_PATHS.draft(token));
      },
      (status, message) => {
        // The rest of a refused upload is not read: the connection closes after the answer.
        ctx.set('Connection', 'close');
        tabError(ctx, publisher)(status, message);
      },
    );
  });
  router.get('/account/datasets/drafts/:token', async (ctx) => {
    const publisher = publisherOf(ctx, services);
    if (!publisher) return;
    await answering(
      ctx,
      async () => {
        const { draft } = await pathDraft(ctx, publisher);
        account(
          ctx,
          services,
          200,
          `Preview of ${draft.dataset}`,
          draftMain(publisher.top('datasets'), draft, publisher.csrf, {}),
        );
      },
      tabError(ctx, publisher),
    );
  });
  router.post('/account/datasets/drafts/:token/publish', async (ctx) => {
    const publisher = publisherOf(ctx, services);
    if (!publisher) return;
    const form = await postedBody(ctx, true);
    await answering(
      ctx,
      async () => {
        checkToken(ctx, services, form);
        const { draft, dir } = await pathDraft(ctx, publisher);
        const { portalDir, draftsDir } = publisher.publishing;
        try {
          const settings = postedSettings(form, draft);
          if (!draft.replaces && services.portal().datasets.has(draft.dataset))
            throw new PublishError(
              409,
              `${draft.dataset} was published meanwhile: upload the file again to replace it.`,
            );
          await exclusive(async () => {
            await publishDraft(draft, dir, portalDir, settings);
            await publisher.publishing.published();
          });
        } catch (error) {
          if (!(error instanceof PublishError) || error.status === 503) throw error;
          const main = draftMain(publisher.top('datasets'), draft, publisher.csrf, {
            message: error.message,
          });
          return account(ctx, services, error.status, `Preview of ${draft.dataset}`, main);
        }
        await discardDraft(draftsDir, draft.token);
        ctx.status = 303;
        ctx.redirect(`${PUBLISH_PATHS.tab}?published=${encodeURIComponent(draft.dataset)}`);
      },
      tabError(ctx, publisher),
    );
  });
  router.post('/account/datasets/drafts/:token/discard', async (ctx) => {
    const publisher = publisherOf(ctx, services);
    if (!publisher) return;
    const form = await postedBody(ctx);
    await answering(
      ctx,
      async () => {
        checkToken(ctx, services, form);
        const { draft } = await pathDraft(ctx, publisher);
        await discardDraft(publisher.publishing.draftsDir, draft.token);
        ctx.status = 303;
        ctx.redirect(PUBLISH_PATHS.tab);
      },
      tabError(ctx, publisher),
    );
  });
  deleteRoutes(router, services, exclusive, tabError);
  return router;
}

/** GET: the confirmation of a deletion; POST: the deletion. */
function deleteRoutes(
  router: Router,
  services: Services,
  exclusive: Exclusive,
  tabError: (ctx: Context, publisher: Publisher) => (status: number, message: string) => void,
): void {
  const listedDataset = (ctx: Context): ListedDataset => {
    const id = (ctx.params as { id: string }).id;
    const dataset = DATASET_ID.test(id) ? services.portal().datasets.get(id) : undefined;
    if (!dataset) throw new PublishError(404, `The portal has no dataset ${id.slice(0, 100)}.`);
    const { metas, computed, visibility } = dataset.file;
    return { id, title: metas.default.title, records: computed.records_count, visibility };
  };
  router.get('/account/datasets/:id/delete', async (ctx) => {
    const publisher = publisherOf(ctx, services);
    if (!publisher) return;
    await answering(
      ctx,
      () => {
        const dataset = listedDataset(ctx);
        account(
          ctx,
          services,
          200,
          `Delete ${dataset.id}`,
          deleteMain(publisher.top('datasets'), dataset, publisher.csrf),
        );
        return Promise.resolve();
      },
      tabError(ctx, publisher),
    );
  });
  router.post('/account/datasets/:id/delete', async (ctx) => {
    const publisher = publisherOf(ctx, services);
    if (!publisher) return;
    const form = await postedBody(ctx);
    await answering(
      ctx,
      async () => {
        checkToken(ctx, services, form);
        const { id } = listedDataset(ctx);
        await exclusive(async () => {
          await removeDatasetDirectory(path.join(publisher.publishing.portalDir, 'datasets'), id);
          await publisher.publishing.published();
        });
        ctx.status = 303;
        ctx.redirect(`${PUBLISH_PATHS.tab}?deleted=${encodeURIComponent(id)}`);
      },
      tabError(ctx, publisher),
    );
  });
}
