import { DurableObject } from 'cloudflare:workers';

/** What one `hit` answers: whether the request may proceed and the numbers for the headers. */
export type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until a slot frees up (0 when one is free now). */
  resetSeconds: number;
  /** The same in milliseconds, exact (0 when a slot is free now). */
  retryAfterMs: number;
};

const STORAGE_KEY = 'hits';

/**
 * How long the log may differ from storage. Counting happens in memory; storage is written
 * behind, at most once per this interval per key, instead of on every request.
 */
export const FLUSH_INTERVAL_MS = 5_000;

/**
 * One object per rate-limit key (`apikey:<id>`, `user:<id>`, `ip:<address>`): an exact
 * sliding-window log. A Durable Object runs one call at a time, so counting is exact under
 * any concurrency without locks, and a request never waits for storage.
 *
 * Persistence is write-behind: the first hit after a flush schedules the next one
 * `FLUSH_INTERVAL_MS` later, which writes the whole log once (and arms the cleanup alarm).
 * The pending timer keeps the object in memory until it has flushed (compatibility date
 * 2026-10-01 and later: pending timers prevent eviction), and an object evicted when idle
 * reloads the flushed log, so idle eviction loses nothing. Only an abrupt restart (a deploy,
 * a machine failure) can forget the hits of the last interval; the worst case is one extra
 * window's quota for a key, once per restart. Writing on every hit cost a storage write per
 * request: throughput locally, a billed row write in production (the figures are in
 * docs/performance.md). The alarm deletes the storage once the window is empty, so idle keys
 * cost nothing.
 */
export class RateLimiter extends DurableObject<Env> {
  private hits: number[] = [];
  private windowMs = 60_000;
  /** When the pending cleanup alarm fires (null: none armed by this instance). */
  private alarmAt: number | null = null;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.hits = (await ctx.storage.get<number[]>(STORAGE_KEY)) ?? [];
    });
  }

  /** Count one request against `limit` per `windowSeconds`, at time `now` (ms; injectable for tests). */
  async hit(limit: number, windowSeconds: number, now: number = Date.now()): Promise<RateDecision> {
    const windowMs = windowSeconds * 1000;
    this.windowMs = windowMs;
    this.prune(now);

    const allowed = this.hits.length < limit;
    if (allowed) {
      this.hits.push(now);
      this.flushTimer ??= setTimeout(() => {
        this.flushTimer = null;
        this.flush().catch((err) => console.error('rate limiter: flush failed', err));
      }, FLUSH_INTERVAL_MS);
    }
    const oldest = this.hits[0];
    // The oldest hit leaves the window (and frees a slot) at oldest + window.
    const retryAfterMs =
      this.hits.length < limit || oldest === undefined ? 0 : Math.max(1, oldest + windowMs - now);
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - this.hits.length),
      resetSeconds: retryAfterMs === 0 ? 0 : Math.ceil(retryAfterMs / 1000),
      retryAfterMs,
    };
  }

  /**
   * Writes the log to storage now (normally called by the write-behind timer) and arms one
   * cleanup alarm per window, so neither costs a write per request.
   */
  async flush(now: number = Date.now()): Promise<void> {
    if (this.flushTimer !== null) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    this.prune(now);
    const newest = this.hits[this.hits.length - 1];
    if (newest === undefined) {
      await this.ctx.storage.deleteAll();
      this.alarmAt = null;
      return;
    }
    await this.ctx.storage.put(STORAGE_KEY, this.hits);
    if (this.alarmAt === null) {
      this.alarmAt = newest + this.windowMs + 1000;
      await this.ctx.storage.setAlarm(this.alarmAt);
    }
  }

  /**
   * Takes back the newest counted request: an attempt counted up front that turned out not to
   * count (a successful login, against the per-network failure budget). Counting first and
   * refunding after keeps the limit exact under a parallel burst.
   */
  async refund(now: number = Date.now()): Promise<void> {
    this.prune(now);
    if (this.hits.pop() === undefined) return;
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = null;
      this.flush().catch((err) => console.error('rate limiter: flush failed', err));
    }, FLUSH_INTERVAL_MS);
  }

  /** Forgets every counted request: a successful login clears its earlier attempts. */
  async reset(): Promise<void> {
    this.hits = [];
    await this.flush();
  }

  /** Forget the key once its window is empty; otherwise look again when the newest hit expires. */
  override async alarm(): Promise<void> {
    this.alarmAt = null;
    const newest = this.hits[this.hits.length - 1];
    if (newest !== undefined && Date.now() < newest + this.windowMs) {
      this.alarmAt = newest + this.windowMs + 1000;
      await this.ctx.storage.setAlarm(this.alarmAt);
      return;
    }
    this.hits = [];
    await this.ctx.storage.deleteAll();
  }

  /** Drops the hits that have left the window ending at `now`. */
  private prune(now: number): void {
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < this.hits.length && (this.hits[drop] as number) <= cutoff) drop++;
    if (drop > 0) this.hits.splice(0, drop);
  }
}
