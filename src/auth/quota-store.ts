// Quota counters kept in Redis (`serve --quota-store redis://HOST:PORT`), so that replicas over
// the same portal folder enforce each quota once, together. Each call is one Lua script (atomic
// on the Redis server): it refuses the call or counts it in every bucket. Day counters expire at
// the same UTC midnight as the in-process ones; an export slot is a lease in a sorted set,
// renewed while the export runs, so that a replica killed mid-export frees its slots a minute
// later. While Redis cannot answer, each replica counts in its own process (the counters it would
// use without a store), logs it at most once a minute and reports it in duckportal_quota_store_up.
// Those counters mirror every count Redis answered, so an outage goes on from the last counts this
// replica saw, not from zero (calls made meanwhile through other replicas it cannot know).
import { createHmac, randomUUID } from 'node:crypto';
import { Redis, type Result } from 'ioredis';
import { Gauge, type Registry } from 'prom-client';
import type { Quotas } from '../catalog/schema.js';
import type { Logger } from '../log.js';
import { onlyOnce } from '../once.js';
import {
  bucketsOf,
  dayOf,
  decide,
  resetOf,
  type CallCounter,
  type Caller,
  type QuotaCounter,
  type QuotaDecision,
  type SlotCounter,
} from './quota.js';

/**
 * KEYS: the counters of the call's buckets; ARGV: when they expire (ms), then each one's limit.
 * Returns the bucket that refused the call (1-based, 0 when counted) and the counts after.
 */
const TAKE_CALL = `
local refused = 0
for i, key in ipairs(KEYS) do
  if refused == 0 and tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i + 1]) then refused = i end
end
local counts = {refused}
for i, key in ipairs(KEYS) do
  if refused == 0 then
    counts[i + 1] = redis.call('INCR', key)
    redis.call('PEXPIREAT', key, ARGV[1])
  else
    counts[i + 1] = tonumber(redis.call('GET', key) or '0')
  end
end
return counts`;

/** KEYS[1]: the caller's slots; ARGV: now, the cap, the lease's end, its token. 1 when taken. */
const TAKE_SLOT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
return 1`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    duckportalTakeCall(keyCount: number, ...keysAndArgs: (string | number)[]): Result<number[], Context>;
    duckportalTakeSlot(
      key: string,
      now: number,
      cap: number,
      until: number,
      token: string,
    ): Result<number, Context>;
  }
}

/** How long an export slot is held without renewal; renewed every third of it. */
const SLOT_LEASE_MS = 60_000;
/** Most often an unreachable store is logged. */
const LOG_EVERY_MS = 60_000;

export class QuotaStore {
  private up = false;
  private lastLogged = -Infinity;

  private constructor(
    private readonly redis: Redis,
    /** The URL as logged: without its password. */
    private readonly url: string,
    private readonly log: Logger,
  ) {
    redis.defineCommand('duckportalTakeCall', { lua: TAKE_CALL });
    redis.defineCommand('duckportalTakeSlot', { numberOfKeys: 1, lua: TAKE_SLOT });
    redis.on('ready', () => this.succeeded());
    redis.on('error', (error: Error) => this.failed(error));
  }

  /** Connects to `url` (redis://HOST:PORT); a store that cannot be reached yet is retried, not fatal. */
  static async connect(url: string, log: Logger): Promise<QuotaStore> {
    const redis = new Redis(url, {
      lazyConnect: true,
      // A command while disconnected fails at once (the caller counts locally), it does not wait.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1000,
      commandTimeout: 1000,
      retryStrategy: (times) => Math.min(100 * times, 2000),
    });
    const shown = new URL(url);
    if (shown.password) shown.password = 'redacted';
    const store = new QuotaStore(redis, shown.href, log);
    await redis.connect().catch((error: Error) => store.failed(error));
    return store;
  }

  /**
   * Counters of `quotas` for the portal `secret` identifies, falling back on `local` while Redis is
   * out (`local.quotas` keeps the counts Redis answers, to go on from them).
   */
  counters(
    secret: Buffer,
    quotas: Quotas,
    local: { quotas: QuotaCounter; exportSlots: SlotCounter },
  ): { quotas: CallCounter; exportSlots: SlotCounter } {
    const prefix = `duckportal:${createHmac('sha256', secret).update('quota store').digest('hex').slice(0, 16)}`;
    const exportSlots = new SharedSlots((caller) =>
      this.takeSlot(prefix, quotas.concurrent_exports, caller, local.exportSlots),
    );
    return { quotas: { take: (caller) => this.takeCall(prefix, quotas, caller, local.quotas) }, exportSlots };
  }

  /** duckportal_quota_store_up in `registry`: 1 while Redis answers, else 0. */
  register(registry: Registry): void {
    const up = (): number => (this.up ? 1 : 0);
    new Gauge({
      name: 'duckportal_quota_store_up',
      help: 'Whether the quota store (Redis) answers: 0 while quotas are counted in this process',
      registers: [registry],
      collect() {
        this.set(up());
      },
    });
  }

  close(): void {
    this.redis.disconnect();
  }

  private async takeCall(
    prefix: string,
    quotas: Quotas,
    caller: Caller,
    local: QuotaCounter,
  ): Promise<QuotaDecision> {
    const now = Date.now();
    const day = dayOf(now);
    const buckets = bucketsOf(quotas, caller);
    if (buckets.length === 0) return decide([], [], null, resetOf(day));
    try {
      const keys = buckets.map((bucket) => `${prefix}:${day}:${bucket.name}`);
      const limits = buckets.map((bucket) => bucket.limit);
      const [refused, ...counts] = await this.redis.duckportalTakeCall(
        keys.length,
        ...keys,
        resetOf(day).getTime() + 60_000,
        ...limits,
      );
      this.succeeded();
      local.observe(day, buckets, counts);
      return decide(buckets, counts, refused ? buckets[refused - 1]! : null, resetOf(day));
    } catch (error) {
      this.failed(error as Error);
      return local.take(caller);
    }
  }

  private async takeSlot(
    prefix: string,
    cap: number | null,
    caller: Caller,
    local: SlotCounter,
  ): Promise<(() => void) | null> {
    if (cap === null) return () => undefined;
    const key = `${prefix}:exports:${caller.keyId ?? `ip:${caller.ip}`}`;
    const token = randomUUID();
    try {
      const now = Date.now();
      if (!(await this.redis.duckportalTakeSlot(key, now, cap, now + SLOT_LEASE_MS, token))) return null;
      this.succeeded();
    } catch (error) {
      this.failed(error as Error);
      return local.acquire(caller);
    }
    const renew = setInterval(() => {
      this.redis.zadd(key, 'XX', Date.now() + SLOT_LEASE_MS, token).catch(() => undefined);
    }, SLOT_LEASE_MS / 3);
    renew.unref();
    return () => {
      clearInterval(renew);
      this.redis.zrem(key, token).catch(() => undefined);
    };
  }

  private succeeded(): void {
    if (!this.up) this.log.info(`quota store ${this.url}: connected, quotas are counted there`);
    this.up = true;
  }

  private failed(error: Error): void {
    const wasUp = this.up;
    this.up = false;
    const now = Date.now();
    if (!wasUp && now - this.lastLogged < LOG_EVERY_MS) return;
    this.lastLogged = now;
    this.log.warn(
      `quota store ${this.url} does not answer (${error.message}): quotas are counted in this process`,
    );
  }
}

/** Export slots taken in the store (or in this process while it is out), counted here for `size`. */
class SharedSlots implements SlotCounter {
  size = 0;

  constructor(private readonly take: (caller: Caller) => Promise<(() => void) | null>) {}

  async acquire(caller: Caller): Promise<(() => void) | null> {
    const release = await this.take(caller);
    if (!release) return null;
    this.size++;
    return onlyOnce(() => {
      this.size--;
      release();
    });
  }
}
