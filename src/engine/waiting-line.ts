// The places of an engine's work, whatever runs it: a pool of places for queries (DuckDB's pooled
// connections, ClickHouse's requests at once) with its waiting line and admission (admission.ts),
// and a cap on exports running at once. Knows nothing of HTTP or of any engine.
import { Admission, DEFAULT_TARGET_WAIT_MS, type AdmissionOptions } from './admission.js';
import { EngineSaturated, QueryInterrupted } from './engine.js';
import { MemoryBudget } from './memory-budget.js';
import { onlyOnce } from '../once.js';

/**
 * Places handed one at a time to queries, in their order of arrival; a caller past the line's
 * ceiling is refused (EngineSaturated), and `admit` refuses a request past the line's bound.
 */
export class WaitingLine<Place> {
  private readonly idle: Place[];
  private readonly waiting: ((place: Place) => void)[] = [];
  private busy = 0;
  private readonly admission: Admission;

  constructor(places: readonly Place[], options: Omit<AdmissionOptions, 'connections' | 'now'> = {}) {
    this.idle = [...places];
    this.admission = new Admission({
      connections: places.length,
      targetWaitMs: options.targetWaitMs,
      maxWaiting: options.maxWaiting,
    });
  }

  /** Places not in use now. */
  get idlePlaces(): number {
    return this.idle.length;
  }

  /** Places in use now. */
  get busyPlaces(): number {
    return this.busy;
  }

  /** Callers waiting for a place. */
  get length(): number {
    return this.waiting.length;
  }

  /**
   * Admission of a request's work, before any of it: EngineSaturated (with when to retry) when
   * the line holds what the places serve within the target wait (admission.ts). A request
   * admitted waits for each of its queries (a page runs two), up to the line's ceiling: one
   * refused halfway would waste the work done.
   */
  admit(): void {
    const waiting = this.waiting.length;
    if (!this.admission.admits(waiting)) throw new EngineSaturated(this.admission.retryAfterSeconds(waiting));
  }

  /** Runs `work` on a place, timed for admission; QueryInterrupted when `signal` aborts before it starts. */
  async use<T>(work: (place: Place) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw new QueryInterrupted();
    const place = await this.acquire();
    if (signal?.aborted) {
      // Gone (or past its deadline) while waiting in line.
      this.release(place);
      throw new QueryInterrupted();
    }
    const served = this.admission.start();
    try {
      return await work(place);
    } finally {
      served();
      this.release(place);
    }
  }

  /** Takes the idle places out of the line (to close them); the line serves no one after. */
  takeIdle(): Place[] {
    return this.idle.splice(0);
  }

  private acquire(): Promise<Place> {
    const place = this.idle.pop();
    if (place !== undefined) {
      this.busy++;
      return Promise.resolve(place);
    }
    const waiting = this.waiting.length;
    if (waiting >= this.admission.maxWaiting) {
      return Promise.reject(new EngineSaturated(this.admission.retryAfterSeconds(waiting)));
    }
    // A waiter is handed a released place still counted busy.
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(place: Place): void {
    const next = this.waiting.shift();
    if (next) next(place);
    else {
      this.busy--;
      this.idle.push(place);
    }
  }
}

/** A cap on exports running at once (each holds its own connection or request, outside the line). */
export class ExportPlaces {
  private running = 0;

  constructor(private readonly cap: number) {}

  /** Exports running now. */
  get count(): number {
    return this.running;
  }

  /**
   * Takes a place, or throws QueryInterrupted (signal aborted) or EngineSaturated (past the cap:
   * 503, try again); the function returned gives it back (once, however often it is called).
   */
  take(signal: AbortSignal): () => void {
    if (signal.aborted) throw new QueryInterrupted();
    if (this.running >= this.cap) throw new EngineSaturated();
    this.running++;
    return onlyOnce(() => {
      this.running--;
    });
  }

  /** Runs `work` in a place of its own, given back when it settles. */
  async run<T>(work: () => Promise<T>, signal: AbortSignal): Promise<T> {
    const giveBack = this.take(signal);
    try {
      return await work();
    } finally {
      giveBack();
    }
  }
}

/** How an engine's places are sized (each engine's options carry these). */
export interface PlacesOptions {
  /** Places for queries (pooled connections, requests at once). */
  readonly connections: number;
  /** Most exports running at once. */
  readonly exportConnections: number;
  /** The longest a caller should wait in line, in ms (admission.ts). */
  readonly targetWaitMs?: number | undefined;
  /** Most callers that may wait in line. */
  readonly maxWaiting?: number | undefined;
  /**
   * Bytes of the process's memory outside the engine's own limit that its queries may hold at
   * once (memory-budget.ts); absent: its queries hold none here (they run on another server).
   */
  readonly memoryBudgetBytes?: number | undefined;
}

/** What a reservation of no memory gives back. */
const NOTHING_HELD = Promise.resolve(() => undefined);

/**
 * The load of an engine as the Engine interface tells it, kept by its waiting line and its export
 * cap: both engines extend it, so that admission, drain and metrics read every engine alike.
 */
export abstract class EngineLoad<Place> {
  protected readonly line: WaitingLine<Place>;
  protected readonly exports: ExportPlaces;
  private readonly memory: MemoryBudget | null;

  protected constructor(places: readonly Place[], options: Omit<PlacesOptions, 'connections'>) {
    this.line = new WaitingLine(places, options);
    this.exports = new ExportPlaces(options.exportConnections);
    const { memoryBudgetBytes, targetWaitMs } = options;
    this.memory =
      memoryBudgetBytes === undefined
        ? null
        : new MemoryBudget(memoryBudgetBytes, targetWaitMs ?? DEFAULT_TARGET_WAIT_MS);
  }

  /** Bytes of the memory budget reserved now (0 without a budget). */
  get reservedMemoryBytes(): number {
    return this.memory?.heldBytes ?? 0;
  }

  /** Reserves `bytes` from the engine's memory budget until the function returned is called. */
  reserveMemory(bytes: number, signal?: AbortSignal): Promise<() => void> {
    return this.memory && bytes > 0 ? this.memory.reserve(bytes, signal) : NOTHING_HELD;
  }

  /** Places for queries not in use now (for tests that count leaks). */
  get idleConnections(): number {
    return this.line.idlePlaces;
  }

  /** Exports running now, each on its own connection or request. */
  get runningExports(): number {
    return this.exports.count;
  }

  /** Statements running now: places in use, and exports. */
  get queriesInFlight(): number {
    return this.line.busyPlaces + this.exports.count;
  }

  /** Queries waiting for a place. */
  get queueLength(): number {
    return this.line.length;
  }

  /** Admits a request's work to the waiting line, or throws EngineSaturated (with when to retry). */
  admit(): void {
    this.line.admit();
  }
}
