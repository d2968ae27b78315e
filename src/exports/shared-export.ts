// The shared files of whole exports (docs/exports.md, Shared files): a dataset's unfiltered export
// in its default form, written once per dataset version into `<portal>/.exports/<dataset>/` by the
// first process that asks, then sent as a file. A lock file beside it lets one process among the
// replicas of a portal folder write it; the bytes go to a part file renamed over the name once
// complete, so a reader finds a whole file or none.
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, rename, stat, unlink, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The formats whose default export is kept as a file: the ones DuckDB's COPY writes whole. */
export const SHARED_EXPORT_FORMATS: ReadonlySet<string> = new Set([
  'csv',
  'parquet',
  'json',
  'jsonl',
  'geojson',
]);

/** A lock older than this (its writer touches it every LOCK_TOUCH_MS) is a dead writer's, taken over. */
const LOCK_STALE_MS = 60_000;
const LOCK_TOUCH_MS = 10_000;

/** The files being written by this process: a second request for one waits for nothing. */
const writing = new Set<string>();

/** Where a dataset's shared exports are: under the portal, outside its `datasets/` folders. */
const folderOf = (portalDir: string, datasetId: string): string =>
  path.join(portalDir, '.exports', encodeURIComponent(datasetId));

/**
 * The path of the shared export of `datasetId` at `version` in `variant` (the API generation and
 * format, e.g. `v2.1.csv`): the version is hashed into the name, so a new version is a new file.
 */
export function sharedExportPath(
  portalDir: string,
  datasetId: string,
  version: string,
  variant: string,
): string {
  const stamp = createHash('sha256').update(version).digest('base64url').slice(0, 16);
  return path.join(folderOf(portalDir, datasetId), `${stamp}.${variant}`);
}

/** Whether the shared export at `file` is there, whole. */
export async function sharedExportReady(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

/**
 * What a write reports: written, or why not (another writer, the file already there, its folder
 * found unwritable now, or by an earlier write of this process).
 */
export type SharedWrite = 'written' | 'locked' | 'present' | 'busy' | 'unwritable' | 'skipped';

/**
 * The `.exports` folders this process could not write (a read-only portal): their exports are
 * computed, and tried no more until the process restarts.
 */
const unwritable = new Set<string>();

/**
 * Writes `produce()`'s bytes to `file` unless it is there, this process writes it already, or
 * another process holds its lock; then removes the dataset's files of other versions of the same
 * variant. A failure leaves no file (nor part, nor lock) behind and is thrown.
 */
export async function writeSharedExport(
  file: string,
  produce: () => Promise<Readable>,
): Promise<SharedWrite> {
  const root = path.dirname(path.dirname(file));
  if (unwritable.has(root)) return 'skipped';
  if (writing.has(file)) return 'busy';
  writing.add(file);
  try {
    const lock = await mkdir(path.dirname(file), { recursive: true })
      .then(() => takeLock(`${file}.lock`))
      .catch(() => undefined);
    if (lock === undefined) {
      const first = !unwritable.has(root);
      unwritable.add(root);
      return first ? 'unwritable' : 'skipped';
    }
    if (!lock) return 'locked';
    try {
      if (await sharedExportReady(file)) return 'present';
      const part = `${file}.${os.hostname()}-${process.pid}.part`;
      try {
        // The part is created before any byte is asked for: a stream that fails at once cannot
        // leave it to be created after the unlink below.
        const source = await produce();
        const out = await open(part, 'w').catch((error: unknown) => {
          source.destroy();
          throw error;
        });
        await pipeline(source, out.createWriteStream());
        await rename(part, file);
      } catch (error) {
        await unlink(part).catch(() => undefined);
        throw error;
      }
      await removeOtherVersions(file);
      return 'written';
    } finally {
      await lock.release();
    }
  } finally {
    writing.delete(file);
  }
}

/**
 * Takes the lock file `lock` (created exclusively, so one process among all wins it), taking over
 * a stale one; the holder touches it while it writes. Null when another holds it; a failure to
 * create it for another reason than its being there (a read-only folder) is thrown.
 */
async function takeLock(lock: string): Promise<{ release(): Promise<void> } | null> {
  const held = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST') return null;
    throw error;
  };
  let handle = await open(lock, 'wx').catch(held);
  if (!handle) {
    const age = await stat(lock).then(
      (s) => Date.now() - s.mtimeMs,
      () => Infinity,
    );
    if (age < LOCK_STALE_MS) return null;
    await unlink(lock).catch(() => undefined);
    handle = await open(lock, 'wx').catch(held);
    if (!handle) return null;
  }
  await handle.writeFile(`${os.hostname()} ${process.pid}\n`);
  await handle.close();
  const touch = setInterval(() => {
    const now = new Date();
    void utimes(lock, now, now).catch(() => undefined);
  }, LOCK_TOUCH_MS).unref();
  return {
    async release() {
      clearInterval(touch);
      await unlink(lock).catch(() => undefined);
    },
  };
}

/** Removes the files of `file`'s variant of other versions (a replica still serving one keeps its open descriptor). */
async function removeOtherVersions(file: string): Promise<void> {
  const dir = path.dirname(file);
  const name = path.basename(file);
  const variant = name.slice(name.indexOf('.'));
  for (const other of await readdir(dir).catch(() => [])) {
    if (other !== name && other.endsWith(variant)) await unlink(path.join(dir, other)).catch(() => undefined);
  }
}
