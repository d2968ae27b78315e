// The stamps of a portal's dataset folders (each folder's inode and time, its dataset.json's inode,
// size and time): what a load compares with the catalog's index lines to find the folders that
// changed. A stamper remembers the stamps it last saw and reports only the folders whose stamp
// differs (all at its first call), so a reload's own work grows with what changed, not with the
// portal. A large portal is stamped by worker threads (stamp-worker.ts), each keeping its share of
// the names and their stamps, so the event loop stays free while 200,000 files are stat'ed; a
// small one inline, in slices between turns of the event loop.
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';

export const DATASET_ID = /^[a-z0-9][a-z0-9_-]*$/;

/** A dataset's previous version, renamed aside while an ingest swaps a new one in. */
const OLD_SIBLING = /^\.([a-z0-9][a-z0-9_-]*)\.old-[0-9a-f]{12}$/;

/** Folders stamped between two turns of the event loop when stamped inline (about 20 ms of stat calls). */
const STAMPS_PER_TURN = 1_000;

/** Datasets from which a portal is stamped by workers: starting one costs 30-50 ms. */
export const WORKER_STAMPS_FROM = 5_000;

/** Workers at most: stat calls spread over cores, and a machine's few cores are shared. */
const MAX_WORKERS = 2;

/** What a stamper found since its last call (everything at its first). */
export interface StampChanges {
  /** The folders whose stamp differs, or that are new: their stamp (null: no dataset.json). */
  readonly stamps: Map<string, string | null>;
  /** The folders seen at the last call and gone since. */
  readonly gone: string[];
  /** Ids whose folder was found renamed aside, with no folder of that name (caught mid-swap): the name aside. */
  readonly swapping: Map<string, string>;
}

/** The stamp of a dataset folder, null when it or its dataset.json is missing. */
export function folderStamp(dir: string): string | null {
  const folder = statSync(dir, { throwIfNoEntry: false });
  const file = statSync(path.join(dir, 'dataset.json'), { throwIfNoEntry: false });
  return folder && file ? `${folder.ino}:${folder.mtimeMs}:${file.ino}:${file.size}:${file.mtimeMs}` : null;
}

/** The entries of `root`, none when it is missing. */
function listing(root: string): Dirent[] {
  try {
    return readdirSync(root, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Which of `parts` shares a name falls in: by its characters, so that every lister agrees. */
function shareOf(name: string, parts: number): number {
  let hash = 0;
  for (let i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) | 0;
  return Math.abs(hash) % parts;
}

/** The stamps one share of the names had at the last call, and how to tell what changed since. */
export class ShareMemory {
  /** Stamp by id ('' when the folder had no dataset.json). */
  private last = new Map<string, string>();

  constructor(
    private readonly root: string,
    private readonly part = 0,
    private readonly parts = 1,
  ) {}

  get size(): number {
    return this.last.size;
  }

  /**
   * Lists the folder and stamps the share's names, after forgetting `forget` (reported again
   * whatever their stamp); what changed as text: `id TAB stamp` a line, `TAB gone TAB id`, and
   * `TAB swap TAB id TAB name` for an id renamed aside as `name`. `pause` lets other work run.
   */
  async changes(forget: readonly string[], pause?: () => Promise<void>): Promise<string> {
    for (const id of forget) this.last.delete(id);
    const entries = listing(this.root);
    const names = new Set(entries.map((entry) => entry.name));
    const now = new Map<string, string>();
    let text = '';
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const swapped = OLD_SIBLING.exec(entry.name)?.[1];
      if (swapped !== undefined && !names.has(swapped) && shareOf(swapped, this.parts) === this.part)
        text += `\t${'swap'}\t${swapped}\t${entry.name}\n`;
      if (!DATASET_ID.test(entry.name) || shareOf(entry.name, this.parts) !== this.part) continue;
      if (pause && now.size % STAMPS_PER_TURN === STAMPS_PER_TURN - 1) await pause();
      const stamp = folderStamp(path.join(this.root, entry.name)) ?? '';
      now.set(entry.name, stamp);
      if (this.last.get(entry.name) !== stamp) text += `${entry.name}\t${stamp}\n`;
    }
    for (const id of this.last.keys()) if (!now.has(id)) text += `\tgone\t${id}\n`;
    this.last = now;
    return text;
  }
}

/** Reads ShareMemory's text into `into`. */
function readChanges(text: string, into: StampChanges): void {
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const fields = line.split('\t');
    if (fields[0] !== '') into.stamps.set(fields[0]!, fields[1] || null);
    else if (fields[1] === 'gone') into.gone.push(fields[2]!);
    else into.swapping.set(fields[2]!, fields[3]!);
  }
}

/** A worker thread keeping one share's memory, asked for its changes one call at a time. */
function startWorker(root: string, part: number, parts: number): Worker {
  const worker = new Worker(new URL('./stamp-worker.js', import.meta.url), {
    workerData: { root, part, parts },
  });
  // Idle between loads, it keeps no process alive.
  worker.unref();
  return worker;
}

function askWorker(worker: Worker, forget: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const answered = (text: string): void => (done(), resolve(text));
    const failed = (error: Error): void => (done(), reject(error));
    const exited = (code: number): void => failed(new Error(`the stamping worker exited with ${code}`));
    const done = (): void => {
      worker.off('message', answered).off('error', failed).off('exit', exited);
    };
    worker.once('message', answered).once('error', failed).once('exit', exited);
    worker.postMessage(forget);
  });
}

/** The stamper of one portal's dataset folders, kept from load to load. */
export class FolderStamper {
  private inline: ShareMemory | null = null;
  private workers: Worker[] | null = null;
  private forgotten: string[] = [];
  /** The call running: calls run one after the other. */
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly root: string,
    /** Folders from which workers stamp them. */
    private readonly workersFrom = WORKER_STAMPS_FROM,
  ) {}

  /** Has the next call report these folders whatever their stamp (those a load could not read). */
  forget(ids: Iterable<string>): void {
    this.forgotten.push(...ids);
  }

  /** Forgets every stamp (the next call reports every folder), as after a load that failed. */
  reset(): void {
    for (const worker of this.workers ?? []) void worker.terminate();
    [this.inline, this.workers, this.forgotten] = [null, null, []];
  }

  /** The folders changed since the last call (every folder at the first or after a reset). */
  changes(): Promise<StampChanges> {
    const call = this.running.then(() => this.stamp());
    this.running = call.catch(() => undefined);
    return call;
  }

  private async stamp(): Promise<StampChanges> {
    const found: StampChanges = { stamps: new Map(), gone: [], swapping: new Map() };
    const forget = this.forgotten;
    this.forgotten = [];
    try {
      if (this.inline && this.inline.size >= this.workersFrom) this.reset();
      if (!this.workers && !this.inline && foldersIn(this.root) >= this.workersFrom) {
        const parts = Math.max(1, Math.min(MAX_WORKERS, availableParallelism()));
        this.workers = Array.from({ length: parts }, (_, part) => startWorker(this.root, part, parts));
      }
      if (this.workers) {
        const workers = this.workers;
        for (const text of await Promise.all(workers.map((w) => askWorker(w, forget))))
          readChanges(text, found);
      } else {
        this.inline ??= new ShareMemory(this.root);
        readChanges(await this.inline.changes(forget, () => yieldToEvents()), found);
      }
      return found;
    } catch (error) {
      this.reset();
      throw error;
    }
  }
}

/**
 * How many dataset folders `root` holds, as its link count tells (each subfolder links to it);
 * Infinity where the count says nothing (ext4 past 65,000 subfolders, btrfs: 1).
 */
function foldersIn(root: string): number {
  const links = statSync(root, { throwIfNoEntry: false })?.nlink ?? 2;
  return links < 2 ? Infinity : links - 2;
}
