// What the account page's Datasets tab publishes with (src/web/publish-routes.ts): the portal,
// this process's drafts folder, the limits of `serve`'s flags, and the reload that follows a
// publication: this server's, then a SIGHUP to this host's other servers of the portal.
import bytes from 'bytes';
import type { Publishing } from '../http/services.js';
import type { Logger } from '../log.js';
import { DEFAULT_MAX_UPLOAD } from './defaults.js';
import { servingProcesses, type ProcessFolder } from './process-folder.js';

/** The limits `serve` gives publishing (`--max-upload-size`, `--allow-private-urls`). */
export interface PublishingOptions {
  readonly maxUploadBytes?: number;
  readonly allowPrivateUrls?: boolean;
}

/** Publishing into `portalDir`, its drafts in `folder`; `published` reloads the servers. */
export function publishing(
  portalDir: string,
  folder: ProcessFolder,
  options: PublishingOptions,
  published: () => Promise<void>,
): Publishing {
  return {
    portalDir,
    draftsDir: folder.draftsDirectory,
    maxUploadBytes: options.maxUploadBytes ?? bytes.parse(DEFAULT_MAX_UPLOAD)!,
    allowPrivateUrls: options.allowPrivateUrls ?? false,
    published,
  };
}

/** Reloads this server, then signals this host's other servers of `portalDir` to reload (SIGHUP). */
export async function reloadServers(
  reload: () => Promise<unknown>,
  portalDir: string,
  log: Logger,
): Promise<void> {
  await reload();
  for (const pid of await servingProcesses(portalDir)) {
    try {
      process.kill(pid, 'SIGHUP');
    } catch (error) {
      // Gone since it was found: nothing to reload.
      log.warn({ err: error }, `cannot signal server process ${pid}`);
    }
  }
}

/** `run`, each call waiting for the previous one to end (a reload waits for the one running). */
export function oneAfterAnother<T>(run: () => Promise<T>): () => Promise<T> {
  let last: Promise<T> | null = null;
  return () => (last = last === null ? run() : last.then(run, run));
}
