// One writer of a dataset folder at a time. Every writer (ingest, attach-file, detach-file, refresh,
// the publishing pages' publish and delete) reads the dataset.json served and builds the next
// version from it: two at once would each build on the same version and the second swapped in
// would drop the first one's change. Each holds the dataset's lock, `<portal>/.tmp/locks/<id>.lock`
// (proper-lockfile: a folder made by mkdir, atomic on every file system, its time touched while
// held, so that the lock of a process that died is taken over once stale), from reading the
// version served to swapping the next one in. Other processes and other requests of one server
// wait their turn; a writer already holding the lock (refresh's ingest) takes it again at once.
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdir, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { DATASET_ID } from '../catalog/portal.js';

/** The locks the current asynchronous call chain holds, by lock folder. */
const held = new AsyncLocalStorage<ReadonlySet<string>>();

/** A lock not touched for this long belongs to a process that is gone (it is touched every 10 s). */
const STALE_MS = 30_000;
/** The longest a writer waits for the one holding the lock (an ingest of millions of rows takes minutes). */
export const LOCK_WAIT_MS = 15 * 60_000;

/** Refuses an id that is no dataset id, before it names a path. */
export function checkDatasetId(id: string): void {
  if (!DATASET_ID.test(id))
    throw new Error(`invalid dataset id "${id}": use lowercase letters, digits, _ and - (not first)`);
}

/** Removes the folders `made` for a lock (a new portal's) when its first ingest left no portal.json. */
async function removeMadeFolders(portal: string, locks: string, made: string | undefined): Promise<void> {
  if (made === undefined || (await stat(path.join(portal, 'portal.json')).catch(() => null))) return;
  // rmdir removes empty folders only: one holding another writer's lock stays.
  for (let dir = locks; dir.length >= made.length; dir = path.dirname(dir))
    if (
      !(await rmdir(dir).then(
        () => true,
        () => false,
      ))
    )
      return;
}

/** Runs `work` holding the lock of dataset `id` of `portal`, waiting up to LOCK_WAIT_MS for it. */
export async function withDatasetLock<T>(portal: string, id: string, work: () => Promise<T>): Promise<T> {
  checkDatasetId(id);
  const locks = path.resolve(portal, '.tmp', 'locks');
  const lockPath = path.join(locks, `${id}.lock`);
  const mine = held.getStore() ?? new Set<string>();
  if (mine.has(lockPath)) return work();
  const made = await mkdir(locks, { recursive: true });
  const release = await lockfile
    .lock(path.resolve(portal, 'datasets', id), {
      lockfilePath: lockPath,
      realpath: false,
      stale: STALE_MS,
      update: STALE_MS / 3,
      retries: {
        forever: true,
        maxRetryTime: LOCK_WAIT_MS,
        minTimeout: 20,
        maxTimeout: 500,
        randomize: true,
      },
      onCompromised: (error) =>
        process.stderr.write(`${id}: the dataset's lock was lost: ${error.message}\n`),
    })
    .catch(async (error: NodeJS.ErrnoException) => {
      await removeMadeFolders(portal, locks, made);
      if (error.code !== 'ELOCKED') throw error;
      throw new Error(
        `${id}: another writer of this dataset held ${lockPath} for ${LOCK_WAIT_MS / 60_000} min`,
      );
    });
  try {
    return await held.run(new Set([...mine, lockPath]), work);
  } finally {
    await release().catch(() => undefined);
    await removeMadeFolders(portal, locks, made);
  }
}
