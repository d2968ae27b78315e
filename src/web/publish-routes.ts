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
import type { Services } from '../http/services.js';
import { callerState } from '../http/auth-middleware.js';
import { withDatasetLock } from '../ingest/dataset-lock.js';
import { removeDatasetDirectory } from '../ingest/staging.js';
import { account, postedBody } from './account-routes.js';
import {
  answering,
  checkToken,
  datasetId,
  oneAtATime,
  publisherOf,
  tabPage,
  type Exclusive,
  type Publisher,
} from './publish-access.js';
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
import { deleteMain, draftMain, PUBLISH_PATHS, type ListedDataset } from './publish-page.js';
import { postedSettings } from './publish-settings.js';
import { receiveUpload, safeExtension } from './publish-upload.js';

/** The tab's answer to an error of `publisher`'s request: the tab with the message. */
type TabError = (ctx: Context, publisher: Publisher) => (status: number, message: string) => void;

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
  draftRoutes(router, services, exclusive, tabError);
  deleteRoutes(router, services, exclusive, tabError);
  return router;
}

/** A POST route of a small form: for its publisher, with its token checked, errors answered by the tab. */
function postedRoute(
  router: Router,
  route: string,
  services: Services,
  tabError: TabError,
  act: (ctx: Context, publisher: Publisher) => Promise<void>,
): void {
  router.post(route, async (ctx) => {
    const publisher = publisherOf(ctx, services);
    if (!publisher) return;
    const form = await postedBody(ctx);
    await answering(
      ctx,
      async () => {
        checkToken(ctx, services, form);
        await act(ctx, publisher);
      },
      tabError(ctx, publisher),
    );
  });
}

/** A draft's preview (GET), its publication and its discarding (POST). */
function draftRoutes(router: Router, services: Services, exclusive: Exclusive, tabError: TabError): void {
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
  postedRoute(
    router,
    '/account/datasets/drafts/:token/discard',
    services,
    tabError,
    async (ctx, publisher) => {
      const { draft } = await pathDraft(ctx, publisher);
      await discardDraft(publisher.publishing.draftsDir, draft.token);
      ctx.status = 303;
      ctx.redirect(PUBLISH_PATHS.tab);
    },
  );
}

/** GET: the confirmation of a deletion; POST: the deletion. */
function deleteRoutes(router: Router, services: Services, exclusive: Exclusive, tabError: TabError): void {
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
  postedRoute(router, '/account/datasets/:id/delete', services, tabError, async (ctx, publisher) => {
    const { id } = listedDataset(ctx);
    await exclusive(async () => {
      const { portalDir } = publisher.publishing;
      await withDatasetLock(portalDir, id, () =>
        removeDatasetDirectory(path.join(portalDir, 'datasets'), id),
      );
      await publisher.publishing.published();
    });
    ctx.status = 303;
    ctx.redirect(`${PUBLISH_PATHS.tab}?deleted=${encodeURIComponent(id)}`);
  });
}
