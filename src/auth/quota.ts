// Daily API call quotas (per key, per anonymous IP, per portal) and a cap on concurrent exports.
// Counting is synchronous, so parallel requests cannot both take the last call of a quota.
import type { Quotas } from '../catalog/schema.js';

const DAY_MS = 86_400_000;

/** Who is calling: a key id when a valid key was presented, else the client's address. */
export interface Caller {
  readonly keyId: string | null;
  readonly ip: string;
}

/** The outcome of one call against the quotas, with what the X-RateLimit-* headers report. */
export interface QuotaDecision {
  readonly allowed: boolean;
  /** null when no quota applies to this caller. */
  readonly limit: number | null;
  readonly remaining: number | null;
  readonly resetAt: Date;
  /** The quota that refused the call ('ip', 'key' or 'portal'), null when allowed. */
  readonly refusedBy: QuotaKind | null;
}

export type QuotaKind = 'ip' | 'key' | 'portal';

/** Call counters of the current UTC day. */
export class QuotaCounter {
  private day = -1;
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly quotas: Quotas,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one call of `caller` if every quota it falls under has room; refused calls are not counted. */
  take(caller: Caller): QuotaDecision {
    const now = this.now();
    const day = Math.floor(now / DAY_MS);
    if (day !== this.day) {
      this.day = day;
      this.counts.clear();
    }
    const resetAt = new Date((day + 1) * DAY_MS);
    const own = caller.keyId === null ? this.quotas.per_ip : this.quotas.per_key;
    const buckets: [string, number | null, QuotaKind][] = [
      caller.keyId === null ? [`ip:${caller.ip}`, own, 'ip'] : [`key:${caller.keyId}`, own, 'key'],
      ['portal', this.quotas.portal, 'portal'],
    ];
    const limited = buckets.filter((b): b is [string, number, QuotaKind] => b[1] !== null);
    const spent = limited.find(([name, max]) => (this.counts.get(name) ?? 0) >= max);
    const allowed = spent === undefined;
    const refusedBy = spent?.[2] ?? null;
    if (allowed) for (const [name] of limited) this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
    if (limited.length === 0) return { allowed, limit: null, remaining: null, resetAt, refusedBy };
    // The headers describe the quota closest to running out.
    const [name, max] = limited.reduce((a, b) =>
      b[1] - (this.counts.get(b[0]) ?? 0) < a[1] - (this.counts.get(a[0]) ?? 0) ? b : a,
    );
    return {
      allowed,
      limit: max,
      remaining: Math.max(0, max - (this.counts.get(name) ?? 0)),
      resetAt,
      refusedBy,
    };
  }
}

/** Concurrent exports per caller: a slot is taken for the length of one export. */
export class ExportSlots {
  private readonly running = new Map<string, number>();

  constructor(private readonly perCaller: number | null) {}

  /** A release function, or null when the caller already runs its maximum of exports. */
  acquire(caller: Caller): (() => void) | null {
    if (this.perCaller === null) return () => undefined;
    const name = caller.keyId ?? `ip:${caller.ip}`;
    const count = this.running.get(name) ?? 0;
    if (count >= this.perCaller) return null;
    this.running.set(name, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(name) ?? 1) - 1;
      if (left === 0) this.running.delete(name);
      else this.running.set(name, left);
    };
  }

  /** Exports running now, all callers together (for tests and the status log). */
  get size(): number {
    let total = 0;
    for (const count of this.running.values()) total += count;
    return total;
  }
}
