import { onForgetIsolateState } from './isolate-state';

/**
 * A small cache in the isolate's memory, in front of KV, for the public hot paths
 * (verification, leaderboards, the public agreement rate).
 *
 * Why: on a hit the KV read is the whole cost of those routes (the figures are in
 * docs/performance.md). An isolate serves many requests, so remembering the last payloads for a
 * few seconds answers most hits with no I/O at all.
 *
 * Consistency: the isolate that changes data (revocation, consent, rating, erasure) forgets
 * its own entries at once, through the same calls that delete the KV entries. Other isolates
 * keep theirs for at most `ttlMs`: a bound well inside what the payloads already allow (KV
 * itself propagates a delete to other locations within about 60 s, and the responses carry
 * `Cache-Control: max-age` of 30–60 s). Recorded in docs/decisions/0006-the-isolate-cache-in-front-of-kv.md.
 *
 * Loads are not shared between requests: a load is the calling request's own I/O (a KV read, a D1
 * query), and Workers do not let one request depend on another's I/O. When the request that
 * started a shared load is cancelled (its visitor closed the tab), the requests waiting on it can
 * fail ("Cannot perform I/O on behalf of a different request", with a failed response, seen once
 * under load in `npm run bench`). So only settled values are kept and handed out: concurrent
 * misses in one isolate each read KV, until the first of them lands. A null or failed load is not
 * kept, and neither is a load that an invalidation overtook.
 */
export class IsolateCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  /** Bumped by every invalidation: a load that started before one is not kept. */
  private generation = 0;

  /**
   * @param ttlMs the longest an entry is kept
   * @param jitter a fraction of `ttlMs` taken off at random per entry (0 by default): entries
   *   loaded together (a burst of first requests) then expire spread over that span instead of
   *   all in the same instant, each one a load again (a stampede of KV reads). The bound stays `ttlMs`.
   *   `{ first, renewal }`: one fraction for a key stored with nothing in memory (its first load),
   *   another for a key stored over its previous entry (a reload). A wide `first` spreads a burst of
   *   first loads over most of the lifetime, so their reloads arrive at a steady rate from the start
   *   instead of as one wave a lifetime later; a narrow `renewal` keeps each reload's lifetime long.
   */
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    jitter: number | { first: number; renewal: number } = 0,
    private readonly random: () => number = Math.random,
  ) {
    this.firstJitter = typeof jitter === 'number' ? jitter : jitter.first;
    this.renewalJitter = typeof jitter === 'number' ? jitter : jitter.renewal;
    onForgetIsolateState(() => this.clear());
  }

  private readonly firstJitter: number;
  private readonly renewalJitter: number;

  private expiry(key: string, now: number): number {
    const jitter = this.entries.has(key) ? this.renewalJitter : this.firstJitter;
    return now + (jitter > 0 ? this.ttlMs * (1 - jitter * this.random()) : this.ttlMs);
  }

  /** The value for `key`: from memory while fresh, else from this request's own `load` (kept when not null). */
  async get(key: string, load: () => Promise<V | null>, now = Date.now()): Promise<V | null> {
    const fresh = this.peek(key, now);
    if (fresh !== undefined) return fresh;
    return this.load(key, load, now);
  }

  /** The value from this request's own `load`, kept when not null, whatever memory holds. */
  async load(key: string, load: () => Promise<V | null>, now = Date.now()): Promise<V | null> {
    const started = this.generation;
    const value = await load();
    if (value !== null && started === this.generation)
      this.store(key, { value, expires: this.expiry(key, now) });
    return value;
  }

  /** The fresh value for `key`, or undefined; never loads (a hot path's way to skip an await). */
  peek(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /**
   * The fresh value for `key`, or undefined, changing nothing: an expired entry stays for the
   * full path (`get`, `lastValue`) to deal with. For a read that only looks (src/http/memory-reads.ts).
   */
  fresh(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.expires > now ? entry.value : undefined;
  }

  /** When `key`'s entry comes due (this isolate's clock, ms), or undefined when there is none. */
  expiresAt(key: string): number | undefined {
    return this.entries.get(key)?.expires;
  }

  /**
   * The value last stored for `key`, fresh or not (undefined once forgotten, expired and peeked, or
   * evicted): a load may keep it in place of an identical new one, and with it what was derived
   * from it (a payload's gzip bytes).
   */
  lastValue(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Remember a value just written to KV, so this isolate serves it without reading it back. */
  set(key: string, value: V, now = Date.now()): void {
    this.store(key, { value, expires: this.expiry(key, now) });
  }

  /** Forget one key (a load in flight when this runs is not kept either). */
  delete(key: string): void {
    this.generation++;
    this.entries.delete(key);
  }

  /** Forget every key that starts with `prefix` (and loads in flight). */
  deletePrefix(prefix: string): void {
    this.generation++;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, entry: { value: V; expires: number }): void {
    this.entries.delete(key);
    // Map iteration follows insertion order, so the first key is the oldest write.
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, entry);
  }
}
