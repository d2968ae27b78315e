// The folder of one serving process inside its portal: DuckDB's spill files and export pipes, and
// hard links to the data files it serves. One per opened portal, because replicas may share a
// portal folder: a replica starting must not wipe the pipes of another. Removed when the portal
// closes; the folders left by processes of this host that are gone are removed at start.
import { randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, rm, unlink } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** How long a replaced version's pins are kept: past the engine's 30 s deadline of JSON queries. */
const RETIRED_PIN_MS = 60_000;

export class ProcessFolder {
  private pinned = 0;

  private constructor(readonly dir: string) {}

  /** Makes `<portal>/.tmp/<host>-<pid>-<random>`, after removing those of this host's dead processes. */
  static async open(portalDir: string): Promise<ProcessFolder> {
    const root = path.join(portalDir, '.tmp');
    for (const { name, pid } of await hostFolders(root))
      if (!isAlive(pid)) await rm(path.join(root, name), { recursive: true, force: true });
    const folder = new ProcessFolder(
      path.join(root, `${os.hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`),
    );
    await mkdir(folder.pinDirectory, { recursive: true });
    return folder;
  }

  /** DuckDB's spill folder, where export pipes are made too (the engine wipes it at open). */
  get spillDirectory(): string {
    return path.join(this.dir, 'spill');
  }

  /** Where the account page's uploads and staged drafts are (src/web/publish-drafts.ts). */
  get draftsDirectory(): string {
    return path.join(this.dir, 'drafts');
  }

  /** Where pinned files are. */
  get pinDirectory(): string {
    return path.join(this.dir, 'data');
  }

  /**
   * A hard link to `file` that keeps its bytes while this process serves them, even once a new
   * version is renamed over the original (as ingest and rsync do), or the original itself when
   * the link cannot be made (another file system): that version is then not kept.
   */
  async pin(file: string): Promise<string> {
    const pinned = path.join(this.pinDirectory, `${++this.pinned}-${path.basename(file)}`);
    return link(file, pinned).then(
      () => pinned,
      () => file,
    );
  }

  /** Drops a pin made by `pin` (the original file is left alone). */
  async unpin(file: string): Promise<void> {
    if (path.dirname(file) === this.pinDirectory) await unlink(file).catch(() => undefined);
  }

  /**
   * Drops a pin a while from now: a query planned over the version it holds may not have opened
   * it yet (once open, a file stays readable after its unlinking).
   */
  retire(file: string): void {
    setTimeout(() => void this.unpin(file), RETIRED_PIN_MS).unref();
  }

  /** Removes the folder (synchronously: called on the way out of the process). */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * The ids of this host's live `serve` processes with a folder in `portalDir` (those a command that
 * changed the portal signals to reload). Where /proc is, a process whose arguments hold no `serve`
 * is left out: its id was reused since a server that died without removing its folder.
 */
export async function servingProcesses(portalDir: string): Promise<number[]> {
  const pids = new Set<number>();
  for (const { pid } of await hostFolders(path.join(portalDir, '.tmp')))
    if (pid !== process.pid && isAlive(pid)) pids.add(pid);
  const serving = await Promise.all([...pids].map(async (pid) => ((await runsServe(pid)) ? pid : null)));
  return serving.filter((pid): pid is number => pid !== null).sort((a, b) => a - b);
}

/** The process folders of this host's processes in `root`, and the id of each one's process. */
async function hostFolders(root: string): Promise<{ name: string; pid: number }[]> {
  const prefix = `${os.hostname()}-`;
  return (await readdir(root).catch(() => []))
    .filter((name) => name.startsWith(prefix))
    .map((name) => ({ name, pid: Number(name.slice(prefix.length).split('-')[0]) }))
    .filter(({ pid }) => Number.isInteger(pid) && pid > 0);
}

/** Whether process `pid` runs `serve` (true where /proc cannot say). */
async function runsServe(pid: number): Promise<boolean> {
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => null);
  return cmdline === null ? process.platform !== 'linux' : cmdline.split('\0').includes('serve');
}

/** Whether process `pid` runs (one of another user counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
