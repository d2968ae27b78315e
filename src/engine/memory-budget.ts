// The memory an engine's own limit does not count, bounded for the whole process. DuckDB's
// memory_limit covers its buffers, shared by every connection of its one instance (exports'
// included), but not the states of holistic aggregations (median, percentile, envelope), which
// keep every value of their argument: each query's are capped when it is compiled
// (src/odsql/limits-holistic.ts), yet a few exports of two medians grouped per flight, each
// within that cap, took the process past any bound together (bench/README.md, Measurements behind
// the code). So every query and export holding such
// states reserves their estimate here while it runs, from one budget. Knows nothing of HTTP.
import { QueryInterrupted, QueryOutOfMemory } from './engine.js';
import { onlyOnce } from '../once.js';

interface Waiter {
  readonly bytes: number;
  readonly grant: () => void;
}

/**
 * One budget of bytes that queries hold while they run. A reservation that fits is granted at
 * once; one that does not waits, and those waiting are granted in their order of arrival as
 * soon as each fits (a small one may pass a large one that does not fit yet). One that waited
 * `waitMs` in vain is refused (QueryOutOfMemory: 503, retry).
 */
export class MemoryBudget {
  private held = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    /** The bytes all reservations together may hold. */
    readonly totalBytes: number,
    /** The longest a reservation waits for room, in ms. */
    private readonly waitMs: number,
  ) {}

  /** Bytes reserved now. */
  get heldBytes(): number {
    return this.held;
  }

  /** Reservations waiting for room. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /**
   * Reserves `bytes` (at most the whole budget: a query the compiler let through runs alone),
   * waiting for room up to the budget's wait; the function returned gives them back (once,
   * however often it is called). QueryInterrupted when `signal` aborts first.
   */
  async reserve(bytes: number, signal?: AbortSignal): Promise<() => void> {
    const wanted = Math.min(Math.max(bytes, 0), this.totalBytes);
    if (wanted === 0) return () => undefined;
    if (signal?.aborted) throw new QueryInterrupted();
    if (this.fits(wanted)) this.held += wanted;
    else await this.wait(wanted, signal);
    return onlyOnce(() => {
      this.held -= wanted;
      this.grantWaiting();
    });
  }

  private fits(bytes: number): boolean {
    return this.held + bytes <= this.totalBytes;
  }

  /** Waits in line until `bytes` are granted (counted as held), or throws. */
  private wait(bytes: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const leave = (error: Error): void => {
        const at = this.waiting.indexOf(waiter);
        if (at === -1) return;
        this.waiting.splice(at, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      };
      const onAbort = (): void => leave(new QueryInterrupted());
      const timer = setTimeout(() => leave(new QueryOutOfMemory()), this.waitMs);
      const waiter: Waiter = {
        bytes,
        grant: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Grants, in order of arrival, every waiting reservation that fits now. */
  private grantWaiting(): void {
    for (let i = 0; i < this.waiting.length;) {
      const waiter = this.waiting[i]!;
      if (!this.fits(waiter.bytes)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.held += waiter.bytes;
      waiter.grant();
    }
  }
}
