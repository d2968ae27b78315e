// Files the server reads and a command may rewrite while it runs (keys.json, users.json): every
// write renames a new file into place, so the file's inode, time and size say when to read again.
import { statSync } from 'node:fs';

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
