// Who may wait for a place of an engine (its waiting line: src/engine/waiting-line.ts): a line as
// long as the places can serve within a target wait at the measured service time, so that past
// capacity the excess is refused at once and those admitted are served at full speed. Knows
// nothing of HTTP.

export interface AdmissionOptions {
  /** Pooled connections serving the line. */
  readonly connections: number;
  /** The longest a caller should wait in line, in ms (the line's bound follows from it). */
  readonly targetWaitMs?: number;
  /** The line's bound never goes past this, whatever the service time. */
  readonly maxWaiting?: number;
  /** The clock, in ms (tests give their own). */
  readonly now?: () => number;
}

/** The target wait in line by default: what a client of a page still waits for. */
export const DEFAULT_TARGET_WAIT_MS = 2_000;

/** The bound's ceiling by default: each waiter holds a socket and a request, little else. */
export const DEFAULT_MAX_WAITING = 1_024;

/** The service time assumed before any is measured: a page of a large dataset, the commonest query. */
const INITIAL_SERVICE_MS = 50;

/** Weight of the latest service time in the moving average: about the last 20 queries count. */
const SMOOTHING = 0.1;

/**
 * The admission policy of the engine's waiting line. Its bound is target wait / mean service time
 * × connections (the callers the pool serves within the target wait), at least the number of
 * connections (one turn of the pool) and at most `maxWaiting`; the mean is exponentially weighted.
 */
export class Admission {
  private serviceMs = INITIAL_SERVICE_MS;
  private readonly targetWaitMs: number;
  /** The bound's ceiling: the most callers that may ever wait. */
  readonly maxWaiting: number;
  private readonly now: () => number;

  constructor(private readonly options: AdmissionOptions) {
    this.targetWaitMs = options.targetWaitMs ?? DEFAULT_TARGET_WAIT_MS;
    this.maxWaiting = options.maxWaiting ?? DEFAULT_MAX_WAITING;
    this.now = options.now ?? performance.now.bind(performance);
  }

  /** The mean time a query holds its connection, in ms. */
  get meanServiceMs(): number {
    return this.serviceMs;
  }

  /** How many callers may wait now. */
  get bound(): number {
    const { connections } = this.options;
    const served = Math.round((this.targetWaitMs / this.serviceMs) * connections);
    return Math.min(this.maxWaiting, Math.max(connections, served));
  }

  /** Whether one more caller may join a line of `waiting`. */
  admits(waiting: number): boolean {
    return waiting < this.bound;
  }

  /** Seconds after which a refused caller may find room: the time the line takes to be served. */
  retryAfterSeconds(waiting: number): number {
    return Math.max(1, Math.ceil((waiting * this.serviceMs) / this.options.connections / 1000));
  }

  /** Starts timing a query on its connection; the function returned records its service time. */
  start(): () => void {
    const started = this.now();
    return () => {
      this.serviceMs += SMOOTHING * (this.now() - started - this.serviceMs);
    };
  }
}
