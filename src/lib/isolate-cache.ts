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
 * `Cache-Control: max-age` of 30–60 s). Recorded in docs/decisions.md.
 *
 * Loads are shared: concurrent misses for one key wait on one promise, so a cold board is
 * computed once per isolate, not once per waiting request. A failed or null load is not kept.
 */
export class IsolateCache<V> {
  private readonly entries = new Map<string, { value: Promise<V | null>; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  /** The value for `key`: from memory while fresh, else from `load` (kept when not null). */
  get(key: string, load: () => Promise<V | null>, now = Date.now()): Promise<V | null> {
    const entry = this.entries.get(key);
    if (entry && entry.expires > now) return entry.value;
    if (entry) this.entries.delete(key);
    const value = load();
    const stored = { value, expires: now + this.ttlMs };
    this.store(key, stored);
    value.then(
      (v) => {
        if (v === null && this.entries.get(key) === stored) this.entries.delete(key);
      },
      () => {
        if (this.entries.get(key) === stored) this.entries.delete(key);
      },
    );
    return value;
  }

  /** The fresh entry for `key` (a value or a load in flight), or undefined; never loads. */
  peek(key: string, now = Date.now()): Promise<V | null> | undefined {
    const entry = this.entries.get(key);
    return entry && entry.expires > now ? entry.value : undefined;
  }

  /** Remember a value just written to KV, so this isolate serves it without reading it back. */
  set(key: string, value: V, now = Date.now()): void {
    this.store(key, { value: Promise.resolve(value), expires: now + this.ttlMs });
  }

  /** Forget one key (an in-flight load for it is not kept either). */
  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forget every key that starts with `prefix`. */
  deletePrefix(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, entry: { value: Promise<V | null>; expires: number }): void {
    this.entries.delete(key);
    // Map iteration follows insertion order, so the first key is the oldest write.
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, entry);
  }
}
