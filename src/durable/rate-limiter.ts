import { DurableObject } from 'cloudflare:workers';

/** What one `hit` answers: whether the request may proceed and the numbers for the headers. */
export type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until a slot frees up (0 when one is free now). */
  resetSeconds: number;
};

const STORAGE_KEY = 'hits';

/**
 * One object per rate-limit key (`apikey:<id>`, `user:<id>`, `ip:<address>`): an exact
 * sliding-window log. A Durable Object runs one call at a time, so counting is exact under
 * any concurrency without locks. The log is mirrored to storage so an evicted object
 * resumes with its counts, and an alarm deletes the storage once the window is empty, so
 * idle keys cost nothing.
 */
export class RateLimiter extends DurableObject<Env> {
  private hits: number[] = [];
  private windowMs = 60_000;
  /** When the pending cleanup alarm fires (null: none armed by this instance). */
  private alarmAt: number | null = null;

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
    const cutoff = now - windowMs;
    let drop = 0;
    while (drop < this.hits.length && (this.hits[drop] as number) <= cutoff) drop++;
    if (drop > 0) this.hits.splice(0, drop);

    const allowed = this.hits.length < limit;
    if (allowed) this.hits.push(now);
    const oldest = this.hits[0];
    const resetSeconds =
      this.hits.length < limit || oldest === undefined
        ? 0
        : Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));

    // Unconfirmed write: the in-memory log is the truth for this instance; storage only
    // carries it across an eviction, so the response need not wait for the disk.
    this.ctx.storage.put(STORAGE_KEY, this.hits, { allowUnconfirmed: true });
    // One cleanup alarm per window, not one write per request.
    if (this.alarmAt === null) {
      this.alarmAt = now + windowMs + 1000;
      await this.ctx.storage.setAlarm(this.alarmAt);
    }

    return { allowed, limit, remaining: Math.max(0, limit - this.hits.length), resetSeconds };
  }

  /** Forgets every counted request: a successful login clears its earlier attempts. */
  async reset(): Promise<void> {
    this.hits = [];
    await this.ctx.storage.delete(STORAGE_KEY);
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
}
