// The in-process cache of JSON answers, keyed by their entity tag (which already names the data
// version, the canonical request and the audience): least-recently-used, bounded in bytes, and
// one computation for concurrent identical misses.
import { LRUCache } from 'lru-cache';

/** One stored answer, and what it was made from (to drop it when that changes). */
export interface CachedAnswer {
  readonly body: Buffer;
  readonly type: string;
  /** The dataset the answer is about, or null for the catalog. */
  readonly scope: string | null;
  /** The tag of that scope's data version when the answer was made. */
  readonly version: string;
}

/** Bytes an entry holds beyond its body (key, headers, bookkeeping): a bound, not a measure. */
const ENTRY_OVERHEAD = 256;

/** Answers cached up to `maxBytes` (0: nothing is kept; the middleware then bypasses the cache). */
export class ResponseCache {
  private readonly entries: LRUCache<string, CachedAnswer> | null;
  private readonly pending = new Map<string, Promise<CachedAnswer | null>>();

  constructor(readonly maxBytes: number) {
    this.entries =
      maxBytes > 0
        ? new LRUCache({
            maxSize: maxBytes,
            sizeCalculation: (answer, key) => answer.body.length + key.length + ENTRY_OVERHEAD,
          })
        : null;
  }

  /** The stored answer of `key`, made most recently used. */
  get(key: string): CachedAnswer | undefined {
    return this.entries?.get(key);
  }

  /** The computation of `key` under way in another request, if any. */
  inFlight(key: string): Promise<CachedAnswer | null> | undefined {
    return this.pending.get(key);
  }

  /**
   * Shares `computation` with the requests that ask for `key` while it runs, and keeps its answer
   * (null: not cacheable; a failure is shared as null, each waiter then computes its own).
   */
  share(key: string, computation: Promise<CachedAnswer | null>): void {
    const shared = computation.catch(() => null);
    this.pending.set(key, shared);
    void shared.then((answer) => {
      this.pending.delete(key);
      if (answer && answer.body.length + key.length + ENTRY_OVERHEAD <= this.maxBytes) {
        this.entries?.set(key, answer);
      }
    });
  }

  /** Drops every answer whose data changed (after a reload). */
  retain(isCurrent: (answer: CachedAnswer, key: string) => boolean): void {
    const stale = [...(this.entries?.entries() ?? [])].filter(([key, answer]) => !isCurrent(answer, key));
    for (const [key] of stale) this.entries?.delete(key);
  }

  /** Bytes held now (by the size calculation), and the number of answers. */
  usage(): { bytes: number; answers: number } {
    return { bytes: this.entries?.calculatedSize ?? 0, answers: this.entries?.size ?? 0 };
  }
}

/**
 * One portal's part of the server's response cache: its keys apart from the other portals' (they
 * start with its prefix), its reloads dropping only its own answers, one bound in bytes for all.
 */
export class CachePartition {
  constructor(
    private readonly cache: ResponseCache,
    private readonly prefix: string,
  ) {}

  /** The bound of the whole cache (0: nothing is kept). */
  get maxBytes(): number {
    return this.cache.maxBytes;
  }

  get(key: string): CachedAnswer | undefined {
    return this.cache.get(this.prefix + key);
  }

  inFlight(key: string): Promise<CachedAnswer | null> | undefined {
    return this.cache.inFlight(this.prefix + key);
  }

  share(key: string, computation: Promise<CachedAnswer | null>): void {
    this.cache.share(this.prefix + key, computation);
  }

  /** Drops every answer of this portal whose data changed (after a reload). */
  retain(isCurrent: (answer: CachedAnswer) => boolean): void {
    this.cache.retain((answer, key) => !key.startsWith(this.prefix) || isCurrent(answer));
  }

  /** Bytes and answers held by the whole cache. */
  usage(): { bytes: number; answers: number } {
    return this.cache.usage();
  }
}
