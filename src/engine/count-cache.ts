// total_count answers kept by their SQL until a view is defined or dropped again. The count SQL
// names the dataset's view and carries the whole condition, the caller's row filter included, so
// the same text over the same views is the same number: a table view's next pages and other
// sorts, and a refine clicked back, answer their count without scanning again.
import { LRUCache } from 'lru-cache';

/** Counts kept unless the server is told otherwise: each entry is a key of a few hundred bytes. */
export const DEFAULT_COUNT_ENTRIES = 4_096;

/** SQL whose answer moves with the clock (ODSQL's now() compiles to DuckDB's now()). */
const MOVING = /\bnow\(\)/i;

export class CountCache {
  private readonly counts: LRUCache<string, number> | null;
  /** Clears so far: a count begun before a clear may be of the old data, and is not kept. */
  private generation = 0;

  /** `entries` 0 keeps nothing. */
  constructor(entries: number) {
    this.counts = entries > 0 ? new LRUCache<string, number>({ max: entries }) : null;
  }

  /** The count of `sql`: kept from an earlier answer, or run and kept. */
  async count(sql: string, run: () => Promise<number>): Promise<number> {
    if (this.counts === null || MOVING.test(sql)) return run();
    const kept = this.counts.get(sql);
    if (kept !== undefined) return kept;
    const generation = this.generation;
    const counted = await run();
    if (generation === this.generation) this.counts.set(sql, counted);
    return counted;
  }

  /** Forgets every count: a view's data changed. */
  clear(): void {
    this.generation++;
    this.counts?.clear();
  }
}
