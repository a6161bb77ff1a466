import { DurableObject } from 'cloudflare:workers';
import { isolateEpoch } from '../lib/isolate-state';
import { log } from '../lib/log';
import { loadD1Writes } from './d1-writes.load';

/** What one `hit` answers: whether the request may proceed and the numbers for the headers. */
export type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /**
   * The `t` of the `RateLimit` field: seconds until more quota is made available
   * (draft-ietf-httpapi-ratelimit-headers-11, which reads it so for sliding windows too), i.e.
   * until the oldest counted request leaves the window and `remaining` grows by one. 0 only when
   * nothing is counted (the whole quota is free). When refused, the same as `Retry-After`.
   */
  resetSeconds: number;
  /** Milliseconds until a request would be accepted, exact (0 when a slot is free now). */
  retryAfterMs: number;
};

/**
 * The decision for a window of counted requests (`hits`, oldest first, this one included when
 * allowed). The oldest hit leaves the window (and frees a slot) at oldest + window: that is when
 * a refused request may retry, and, whether full or not, when more quota becomes available.
 */
function decide(
  allowed: boolean,
  limit: number,
  hits: readonly number[],
  windowMs: number,
  now: number,
): RateDecision {
  // A shard's log may hold more than `limit` hits (requests admitted by isolates before they
  // reported them, `admitKey`/`reportKeys`): a slot frees when the log is back under the limit,
  // i.e. when the hit at `length - limit` leaves the window.
  const freeing = hits[Math.max(0, hits.length - limit)];
  const nextSlotMs = freeing === undefined ? 0 : Math.max(1, freeing + windowMs - now);
  const retryAfterMs = hits.length < limit ? 0 : nextSlotMs;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - hits.length),
    resetSeconds: Math.ceil(nextSlotMs / 1000),
    retryAfterMs,
  };
}

const STORAGE_KEY = 'hits';
const USAGE_KEY = 'usage';

/** What a counted request of an API key came to, for the usage reports. */
export type UsageOutcome = 'success' | 'clientError' | 'rateLimited' | 'serverError';
export type UsageCounts = Record<UsageOutcome, number>;
/** Counts not yet written to D1: per key id, per UTC day. */
type PendingUsage = Record<string, Record<string, UsageCounts>>;

/** The pending counts of a key and day, created at zero. */
function countsOf(usage: PendingUsage, apiKeyId: string, day: string): UsageCounts {
  const perKey = usage[apiKeyId] ?? {};
  usage[apiKeyId] = perKey;
  const counts = perKey[day] ?? { success: 0, clientError: 0, rateLimited: 0, serverError: 0 };
  perKey[day] = counts;
  return counts;
}

/**
 * How long usage counts stay in the object before its alarm writes them to D1 in one batch
 * (one upsert per key and day, however many requests): the reports lag by at most this much,
 * and D1 sees a write per key per minute at most, never one per request.
 */
export const USAGE_FLUSH_MS = 60_000;

/**
 * Most per-key logs one shard object keeps in memory (`hitKey`). Beyond it the least recently
 * used key is forgotten; with 64 shards that is 3.2 million distinct IPs inside one minute
 * before any log still in its window is dropped. Each entry costs about 100 bytes plus 8 bytes
 * per counted hit, so a shard stays well under 128 MB even full of 60-hit logs.
 */
export const MAX_KEYS_PER_SHARD = 50_000;

/** Most idle keys a shard drops on one call (the rest by its sweep, or on the next calls). */
export const SWEEP_PER_CALL = 64;

/** A shard key's log keeps at most this many times its limit (the newest hits). */
export const MAX_LOG_FACTOR = 4;

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
  /**
   * Shard mode (`hitKey`, objects named `ip-shard:<n>`): one sliding log per key, in memory
   * only, in least-recently-used order (a Map iterates in insertion order; a hit re-inserts).
   */
  private logs = new Map<string, number[]>();
  /**
   * Shard mode: the idle keys' sweep, one window after the last one (null: none scheduled, the
   * shard holds no key). A first-time visitor's log is forgotten about a window after its last
   * hit, not when the shard fills up: an isolate shares its heap with the Worker it counts for,
   * and 50,000 idle logs per shard made every collection of that heap slower (issue 54).
   */
  private sweepTimer: ReturnType<typeof setTimeout> | null = null;
  /** Shard mode: the window of the keys' last use (all of a shard's keys share the IP limit's). */
  private shardWindowMs = 60_000;
  private windowMs = 60_000;
  /** When the pending cleanup alarm fires (null: none armed by this instance). */
  private alarmAt: number | null = null;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  /** Usage counts not yet in D1 (also written behind to storage with the log). */
  private usage: PendingUsage = {};
  /** When the pending usage is due in D1 (null: nothing pending). */
  private usageDueAt: number | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.hits = (await ctx.storage.get<number[]>(STORAGE_KEY)) ?? [];
      this.usage = (await ctx.storage.get<PendingUsage>(USAGE_KEY)) ?? {};
      if (Object.keys(this.usage).length > 0) this.usageDueAt = Date.now();
    });
  }

  /** The isolate epoch this object was last used in (src/lib/isolate-state.ts; moves only in tests). */
  private epoch = isolateEpoch();

  /** Starts over empty, as a new object would (the test suite moved the isolate's epoch). */
  private async forget(): Promise<void> {
    this.epoch = isolateEpoch();
    this.hits = [];
    this.logs.clear();
    this.windowMs = 60_000;
    this.usage = {};
    this.usageDueAt = null;
    this.alarmAt = null;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    this.sweepTimer = null;
    this.shardWindowMs = 60_000;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  /**
   * Counts one request of API key `apiKeyId` by outcome, on the UTC day of `at`. In memory; the
   * write-behind timer puts it in storage, the alarm writes it to D1 within `USAGE_FLUSH_MS`.
   */
  async record(apiKeyId: string, outcome: UsageOutcome, at: number = Date.now()): Promise<void> {
    if (this.epoch !== isolateEpoch()) await this.forget();
    const day = new Date(at).toISOString().slice(0, 10);
    countsOf(this.usage, apiKeyId, day)[outcome] += 1;
    this.usageDueAt ??= Date.now() + USAGE_FLUSH_MS;
    this.scheduleFlush();
  }

  /** The counts not yet in D1, per UTC day, so a report can be exact before the next flush. */
  async pendingUsage(apiKeyId: string): Promise<Record<string, UsageCounts>> {
    if (this.epoch !== isolateEpoch()) await this.forget();
    return this.usage[apiKeyId] ?? {};
  }

  /**
   * Writes the pending usage to D1 in one batch of upserts (adding to what is there). On
   * failure the counts stay pending for the next alarm. Returns how many rows it wrote.
   */
  async flushUsage(): Promise<number> {
    if (this.epoch !== isolateEpoch()) await this.forget();
    const pending = this.usage;
    const rows = Object.entries(pending).flatMap(([apiKeyId, days]) =>
      Object.entries(days).map(([day, c]) => ({ apiKeyId, day, ...c })),
    );
    if (rows.length === 0) {
      this.usageDueAt = null;
      return 0;
    }
    this.usage = {};
    this.usageDueAt = null;
    try {
      // (Loaded here, not imported at the top: see ./d1-writes.ts.)
      const { writeUsage } = await loadD1Writes();
      await writeUsage(this.env.DB, rows);
    } catch (err) {
      if (/FOREIGN KEY/i.test(String(err))) {
        // The key is gone (its organisation was deleted): nothing to report any more.
        log('warn', 'rate limiter: usage of a deleted key dropped', { error: String(err) });
      } else {
        for (const row of rows) {
          const c = countsOf(this.usage, row.apiKeyId, row.day);
          c.success += row.success;
          c.clientError += row.clientError;
          c.rateLimited += row.rateLimited;
          c.serverError += row.serverError;
        }
        this.usageDueAt = Date.now() + USAGE_FLUSH_MS;
        throw err;
      }
    }
    return rows.length;
  }

  private scheduleFlush(): void {
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = null;
      this.flush().catch((err) => log('error', 'rate limiter: flush failed', { error: String(err) }));
    }, FLUSH_INTERVAL_MS);
  }

  /** Count one request against `limit` per `windowSeconds`, at time `now` (ms; injectable for tests). */
  async hit(limit: number, windowSeconds: number, now: number = Date.now()): Promise<RateDecision> {
    if (this.epoch !== isolateEpoch()) await this.forget();
    const windowMs = windowSeconds * 1000;
    this.windowMs = windowMs;
    this.prune(now);

    const allowed = this.hits.length < limit;
    if (allowed) {
      this.hits.push(now);
      this.scheduleFlush();
    }
    return decide(allowed, limit, this.hits, windowMs, now);
  }

  /**
   * Counts one request for `key` in this shard object: the same exact sliding window as `hit`,
   * for many keys in one object (the per-IP public limit, sharded by a keyed hash of the IP so
   * that a first-time visitor creates no object and writes no storage). Calls to one object run
   * one at a time, so the count per key is exact under any concurrency. Nothing is persisted: an
   * evicted or restarted shard forgets its counts (at worst one extra window's quota per IP),
   * and beyond `maxKeys` the least recently used key is forgotten first; idle keys (window
   * empty) are dropped before any live one.
   */
  async hitKey(
    key: string,
    limit: number,
    windowSeconds: number,
    now: number = Date.now(),
    maxKeys: number = MAX_KEYS_PER_SHARD,
  ): Promise<RateDecision> {
    if (this.epoch !== isolateEpoch()) await this.forget();
    const windowMs = windowSeconds * 1000;
    this.shardWindowMs = windowMs;
    const log = this.logOf(key, now - windowMs, maxKeys);
    const allowed = log.length < limit;
    if (allowed) log.push(now);
    return decide(allowed, limit, log, windowMs, now);
  }

  /**
   * The log of `key` with the hits outside the window dropped, moved to most recently used
   * (created, and room made for it, when new).
   */
  private logOf(key: string, cutoff: number, maxKeys: number): number[] {
    this.sweepIdle(cutoff, SWEEP_PER_CALL);
    let log = this.logs.get(key);
    if (log !== undefined) {
      this.logs.delete(key); // re-inserted below: most recently used last
      let drop = 0;
      while (drop < log.length && (log[drop] as number) <= cutoff) drop++;
      if (drop > 0) log.splice(0, drop);
    } else {
      log = [];
      if (this.logs.size >= maxKeys) this.evict(cutoff, maxKeys);
    }
    this.logs.set(key, log);
    this.scheduleSweep();
    return log;
  }

  /**
   * Drops up to `most` idle keys (newest hit at or before `cutoff`) from the least recently used
   * end, stopping at the first live one: the rest were used after it. Keys used out of order
   * (a report's older hits) go in a later sweep.
   */
  private sweepIdle(cutoff: number, most: number): void {
    let dropped = 0;
    for (const [key, log] of this.logs) {
      if (dropped >= most) return;
      const newest = log[log.length - 1];
      if (newest !== undefined && newest > cutoff) return;
      this.logs.delete(key);
      dropped++;
    }
  }

  /** Sweeps the idle keys a window from now, and again while any key is held. */
  private scheduleSweep(): void {
    if (this.sweepTimer !== null) return;
    this.sweepTimer = setTimeout(() => {
      this.sweepTimer = null;
      this.sweepIdle(Date.now() - this.shardWindowMs, Number.POSITIVE_INFINITY);
      if (this.logs.size > 0) this.scheduleSweep();
    }, this.shardWindowMs + 1_000);
  }

  /**
   * Adds hits an isolate has already admitted (and answered) to `key`'s log, in time order,
   * whatever the count: they happened. At most `MAX_LOG_FACTOR` × limit are kept (the newest),
   * which bounds memory under a distributed flood and changes no decision (the key is full).
   */
  private addHits(log: number[], hits: readonly number[], cutoff: number, limit: number): void {
    for (const at of hits) {
      if (at <= cutoff) continue;
      let i = log.length;
      while (i > 0 && (log[i - 1] as number) > at) i--;
      log.splice(i, 0, at);
    }
    const cap = limit * MAX_LOG_FACTOR;
    if (log.length > cap) log.splice(0, log.length - cap);
  }

  /**
   * The public per-IP limit's exact path (src/middleware/ip-admission.ts): records `earlier`,
   * the hits of `key` an isolate admitted by itself since it last reported, then counts this
   * request exactly as `hitKey` does. Returns the decision and the key's log, from which the
   * isolate knows the key's count until its next answer.
   */
  async admitKey(
    key: string,
    earlier: readonly number[],
    limit: number,
    windowSeconds: number,
    now: number = Date.now(),
    maxKeys: number = MAX_KEYS_PER_SHARD,
  ): Promise<{ decision: RateDecision; log: number[] }> {
    if (this.epoch !== isolateEpoch()) await this.forget();
    const windowMs = windowSeconds * 1000;
    this.shardWindowMs = windowMs;
    const cutoff = now - windowMs;
    const log = this.logOf(key, cutoff, maxKeys);
    this.addHits(log, earlier, cutoff, limit);
    const allowed = log.length < limit;
    if (allowed) this.addHits(log, [now], cutoff, limit);
    return { decision: decide(allowed, limit, log, windowMs, now), log: [...log] };
  }

  /**
   * The public per-IP limit's batched report: the hits each key's isolate admitted by itself
   * (one call per shard per isolate per report interval, off the requests' path). Answers each
   * key's log, in the order given.
   */
  async reportKeys(
    entries: readonly (readonly [key: string, hits: readonly number[]])[],
    limit: number,
    windowSeconds: number,
    now: number = Date.now(),
    maxKeys: number = MAX_KEYS_PER_SHARD,
  ): Promise<number[][]> {
    if (this.epoch !== isolateEpoch()) await this.forget();
    this.shardWindowMs = windowSeconds * 1000;
    const cutoff = now - this.shardWindowMs;
    return entries.map(([key, hits]) => {
      const log = this.logOf(key, cutoff, maxKeys);
      this.addHits(log, hits, cutoff, limit);
      return [...log];
    });
  }

  /** How many keys this shard object holds in memory (for tests and diagnostics). */
  async keyCount(): Promise<number> {
    if (this.epoch !== isolateEpoch()) await this.forget();
    return this.logs.size;
  }

  /**
   * Makes room for one key: drops the idle keys (newest hit outside the window) among the least
   * recently used, and if none is idle, the least recently used key itself.
   */
  private evict(cutoff: number, maxKeys: number): void {
    let scanned = 0;
    for (const [key, log] of this.logs) {
      if (scanned++ >= 1024) break; // bounded work per new key
      const newest = log[log.length - 1];
      if (newest === undefined || newest <= cutoff) this.logs.delete(key);
    }
    while (this.logs.size >= maxKeys) {
      const lru = this.logs.keys().next().value;
      if (lru === undefined) break;
      this.logs.delete(lru);
    }
  }

  /**
   * Writes the log to storage now (normally called by the write-behind timer) and arms one
   * cleanup alarm per window, so neither costs a write per request.
   */
  async flush(now: number = Date.now()): Promise<void> {
    if (this.epoch !== isolateEpoch()) await this.forget();
    if (this.flushTimer !== null) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    this.prune(now);
    const newest = this.hits[this.hits.length - 1];
    const usagePending = Object.keys(this.usage).length > 0;
    if (newest === undefined && !usagePending) {
      await this.ctx.storage.deleteAll();
      this.alarmAt = null;
      return;
    }
    if (newest === undefined) await this.ctx.storage.delete(STORAGE_KEY);
    else await this.ctx.storage.put(STORAGE_KEY, this.hits);
    if (usagePending) await this.ctx.storage.put(USAGE_KEY, this.usage);
    else await this.ctx.storage.delete(USAGE_KEY);
    // One alarm serves both: the log's cleanup and the usage's write to D1, whichever is first.
    const wanted = Math.min(
      newest === undefined ? Number.POSITIVE_INFINITY : newest + this.windowMs + 1000,
      this.usageDueAt ?? Number.POSITIVE_INFINITY,
    );
    if (this.alarmAt === null || wanted < this.alarmAt) {
      this.alarmAt = wanted;
      await this.ctx.storage.setAlarm(wanted);
    }
  }

  /**
   * Takes back the newest counted request: an attempt counted up front that turned out not to
   * count (a successful login, against the per-network failure budget). Counting first and
   * refunding after keeps the limit exact under a parallel burst.
   */
  async refund(now: number = Date.now()): Promise<void> {
    if (this.epoch !== isolateEpoch()) await this.forget();
    this.prune(now);
    if (this.hits.pop() === undefined) return;
    this.scheduleFlush();
  }

  /** Forgets every counted request: a successful login clears its earlier attempts. */
  async reset(): Promise<void> {
    if (this.epoch !== isolateEpoch()) await this.forget();
    this.hits = [];
    await this.flush();
  }

  /**
   * Writes the pending usage to D1, then forgets the key once its window is empty (otherwise
   * `flush` looks again when the newest hit expires).
   */
  override async alarm(): Promise<void> {
    if (this.epoch !== isolateEpoch()) await this.forget();
    this.alarmAt = null;
    try {
      await this.flushUsage();
    } finally {
      await this.flush();
    }
  }

  /** Drops the hits that have left the window ending at `now`. */
  private prune(now: number): void {
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < this.hits.length && (this.hits[drop] as number) <= cutoff) drop++;
    if (drop > 0) this.hits.splice(0, drop);
  }
}
