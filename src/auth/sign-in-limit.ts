// The rate limit of sign-in tries: a few a minute per user name and per address, so passwords
// cannot be guessed at speed from one address, nor one account's from many.
import type { Caller } from './quota.js';

/** Tries allowed per user name and per address within WINDOW_MS. */
export const SIGN_IN_TRIES = 5;
const WINDOW_MS = 60_000;

/** Whether a try may go on, and otherwise how long to wait. */
export interface SignInDecision {
  readonly allowed: boolean;
  readonly retryAfterSeconds: number;
}

/** Sliding one-minute windows of sign-in tries. */
export class SignInLimiter {
  /** Times of the tries in the window, by `user:<name>` and `ip:<address>`. */
  private readonly tries = new Map<string, number[]>();
  private swept = 0;

  constructor(
    private readonly perWindow = SIGN_IN_TRIES,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a try of `user` from the caller's address, unless one of them has used up its tries. */
  take(user: string, caller: Caller): SignInDecision {
    const now = this.now();
    this.sweep(now);
    const names = [`user:${user}`, `ip:${caller.ip}`];
    const windows = names.map((name) => (this.tries.get(name) ?? []).filter((t) => t > now - WINDOW_MS));
    const full = windows.filter((w) => w.length >= this.perWindow);
    if (full.length > 0) {
      const freeAt = Math.max(...full.map((w) => w[w.length - this.perWindow]! + WINDOW_MS));
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now) / 1000)) };
    }
    names.forEach((name, i) => this.tries.set(name, [...windows[i]!, now]));
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
