// The rate limit of sign-in tries, in sliding one-minute windows: a few per user name from one
// address, more per address whatever the names, and a cap for the whole process. Tries at a name
// from one address never refuse that name from another, so knowing a user's name is not enough
// to keep them out; one address cannot spray many names; the process-wide cap bounds the scrypt
// work (docs/access-control.md: what a try costs) and the guesses at any account from many
// addresses together, and one address alone cannot reach it.
import type { Caller } from './quota.js';

/** Tries allowed within WINDOW_MS: per user name and address, per address, for the whole process. */
export interface SignInLimits {
  readonly perNameAndAddress: number;
  readonly perAddress: number;
  readonly perProcess: number;
}

/** The limits the server uses (docs/access-control.md, Sessions, secrets and sign-in). */
export const SIGN_IN_LIMITS: SignInLimits = { perNameAndAddress: 5, perAddress: 20, perProcess: 120 };
const WINDOW_MS = 60_000;

/** Whether a try may go on, and otherwise how long to wait. */
export interface SignInDecision {
  readonly allowed: boolean;
  readonly retryAfterSeconds: number;
}

/** Sliding one-minute windows of sign-in tries. */
export class SignInLimiter {
  /** Times of the tries in each window, by `pair:<address>\0<name>`, `ip:<address>` and `all`. */
  private readonly tries = new Map<string, number[]>();
  private swept = 0;

  constructor(
    private readonly limits: SignInLimits = SIGN_IN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a try of `user` from the caller's address, unless one of its windows is full. */
  take(user: string, caller: Caller): SignInDecision {
    const now = this.now();
    this.sweep(now);
    const { perNameAndAddress, perAddress, perProcess } = this.limits;
    const limited: [string, number][] = [
      [`pair:${caller.ip}\0${user}`, perNameAndAddress],
      [`ip:${caller.ip}`, perAddress],
      ['all', perProcess],
    ];
    const windows = limited.map(([name]) => (this.tries.get(name) ?? []).filter((t) => t > now - WINDOW_MS));
    const freeAt = limited.flatMap(([, limit], i) => {
      const times = windows[i]!;
      return times.length >= limit ? [times[times.length - limit]! + WINDOW_MS] : [];
    });
    if (freeAt.length > 0) {
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((Math.max(...freeAt) - now) / 1000)),
      };
    }
    limited.forEach(([name], i) => this.tries.set(name, [...windows[i]!, now]));
    return { allowed: true, retryAfterSeconds: 0 };
  }

  /** Drops the windows that emptied, once a window's time, so unused names do not pile up. */
  private sweep(now: number): void {
    if (now - this.swept < WINDOW_MS) return;
    this.swept = now;
    for (const [name, times] of this.tries)
      if (times.every((t) => t <= now - WINDOW_MS)) this.tries.delete(name);
  }
}
