// Files the server reads and a command may rewrite while it runs (keys.json, users.json): every
// write renames a new file into place, so the file's inode, time and size say when to read again.
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';

/** The entries of the JSON file `file`, as `entriesOf` reads them; no file is no entries, a bad one an Error naming it. */
export function readJsonEntries<T>(file: string, entriesOf: (json: unknown) => T[]): T[] {
  try {
    return entriesOf(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Writes `value` as JSON to `file` atomically (a new file renamed into place), readable by its owner only. */
export function writeJsonFile(file: string, value: unknown): void {
  const aside = `${file}.${process.pid}.tmp`;
  writeFileSync(aside, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  renameSync(aside, file);
}

/** The entries of `file` by key, read again only when the file changed; no file is no entries. */
export class RereadFile<T> {
  private cache: { version: string; byKey: Map<string, T> } | null = null;

  constructor(
    private readonly file: string,
    private readonly read: (file: string) => readonly T[],
    private readonly keyOf: (entry: T) => string,
  ) {}

  entries(): Map<string, T> {
    let version = 'none';
    try {
      const stat = statSync(this.file);
      version = `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
    } catch {
      // No file yet: no entries.
    }
    if (this.cache?.version !== version) {
      const entries = version === 'none' ? [] : this.read(this.file);
      this.cache = { version, byKey: new Map(entries.map((e) => [this.keyOf(e), e])) };
    }
    return this.cache.byKey;
  }
}
