// Daily API call quotas (per key, per anonymous IP, per portal) and a cap on concurrent exports.
// Counted in this process synchronously, so parallel requests cannot both take the last call of a
// quota; src/auth/quota-store.ts counts the same buckets in Redis for replicas.
import type { Quotas } from '../catalog/schema.js';
import { onlyOnce } from '../once.js';

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

/** Counts calls against the daily quotas: in this process (QuotaCounter) or in a shared store. */
export interface CallCounter {
  /** Counts one call of `caller` if every quota it falls under has room; refused calls are not counted. */
  take(caller: Caller): QuotaDecision | Promise<QuotaDecision>;
}

/** Caps the exports a caller runs at once: in this process (ExportSlots) or in a shared store. */
export interface SlotCounter {
  /** A release function, or null when the caller already runs its maximum of exports. */
  acquire(caller: Caller): (() => void) | null | Promise<(() => void) | null>;
  /** Slots taken through this counter and not released yet: the exports of this process. */
  readonly size: number;
}

/** A daily quota a call counts against: the name of its counter, its limit, its kind. */
export interface Bucket {
  readonly name: string;
  readonly limit: number;
  readonly kind: QuotaKind;
}

/** The day (since the epoch, UTC) of `time`; every call counter starts again at the next. */
export const dayOf = (time: number): number => Math.floor(time / DAY_MS);

/** When the counters of `day` start again. */
export const resetOf = (day: number): Date => new Date((day + 1) * DAY_MS);

/** The quotas a call of `caller` counts against (those without a limit left out). */
export function bucketsOf(quotas: Quotas, caller: Caller): Bucket[] {
  const own: [string, number | null, QuotaKind] =
    caller.keyId === null
      ? [`ip:${caller.ip}`, quotas.per_ip, 'ip']
      : [`key:${caller.keyId}`, quotas.per_key, 'key'];
  const buckets: [string, number | null, QuotaKind][] = [own, ['portal', quotas.portal, 'portal']];
  return buckets.flatMap(([name, limit, kind]) => (limit === null ? [] : [{ name, limit, kind }]));
}

/**
 * The decision on a call, given the counts of its buckets (the call included when allowed) and
 * the bucket that refused it; the headers describe the quota closest to running out.
 */
export function decide(
  buckets: readonly Bucket[],
  counts: readonly number[],
  refused: Bucket | null,
  resetAt: Date,
): QuotaDecision {
  const outcome = { allowed: refused === null, resetAt, refusedBy: refused?.kind ?? null };
  const left = buckets.map((bucket, i) => Math.max(0, bucket.limit - (counts[i] ?? 0)));
  if (buckets.length === 0) return { ...outcome, limit: null, remaining: null };
  const tightest = left.indexOf(Math.min(...left));
  return { ...outcome, limit: buckets[tightest]!.limit, remaining: left[tightest]! };
}

/** Call counters of the current UTC day, in this process. */
export class QuotaCounter implements CallCounter {
  private day = -1;
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly quotas: Quotas,
    private readonly now: () => number = Date.now,
  ) {}

  take(caller: Caller): QuotaDecision {
    const day = dayOf(this.now());
    this.startDay(day);
    const buckets = bucketsOf(this.quotas, caller);
    const count = (bucket: Bucket): number => this.counts.get(bucket.name) ?? 0;
    const refused = buckets.find((bucket) => count(bucket) >= bucket.limit) ?? null;
    if (refused === null) for (const bucket of buckets) this.counts.set(bucket.name, count(bucket) + 1);
    return decide(buckets, buckets.map(count), refused, resetOf(day));
  }

  /**
   * Raises the counts of `buckets` on `day` to those a shared store answered (src/auth/quota-store.ts),
   * so that counting here, while the store is out, goes on from them instead of from zero.
   */
  observe(day: number, buckets: readonly Bucket[], counts: readonly number[]): void {
    if (day < this.day) return;
    this.startDay(day);
    buckets.forEach((bucket, i) =>
      this.counts.set(bucket.name, Math.max(this.counts.get(bucket.name) ?? 0, counts[i] ?? 0)),
    );
  }

  private startDay(day: number): void {
    if (day === this.day) return;
    this.day = day;
    this.counts.clear();
  }
}

/** Concurrent exports per caller: a slot is taken for the length of one export. */
export class ExportSlots implements SlotCounter {
  private readonly running = new Map<string, number>();

  constructor(private readonly perCaller: number | null) {}

  /** A release function, or null when the caller already runs its maximum of exports. */
  acquire(caller: Caller): (() => void) | null {
    if (this.perCaller === null) return () => undefined;
    const name = caller.keyId ?? `ip:${caller.ip}`;
    const count = this.running.get(name) ?? 0;
    if (count >= this.perCaller) return null;
    this.running.set(name, count + 1);
    return onlyOnce(() => {
      const left = (this.running.get(name) ?? 1) - 1;
      if (left === 0) this.running.delete(name);
      else this.running.set(name, left);
    });
  }

  get size(): number {
    let total = 0;
    for (const count of this.running.values()) total += count;
    return total;
  }
}
