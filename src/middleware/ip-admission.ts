import type { RateDecision } from '../durable/rate-limiter';

/**
 * The isolate's side of the public per-IP limit (docs/scaling.md → "Per-IP limit without a
 * round trip"; decision 0150).
 *
 * The count of every IP lives in its shard object (`ip-shard:<n>`, exact sliding log). An
 * isolate answers a request of an IP that is far from its limit by itself, counting it here as
 * *pending*, and reports the pending hits of all its IPs in one call per shard at most every
 * `REPORT_INTERVAL_MS`, off the requests' path. Each answer (a report's or an exact call's)
 * brings back the IP's log at the shard, so the isolate knows the IP's count as of that answer
 * plus what it has admitted since. An IP is asked about synchronously, exactly as before, when
 * - that count is within `ADMIT_AHEAD` of the limit (so every decision that could refuse, and
 *   every `RateLimit` with r < `ADMIT_AHEAD`, is the shard's own), or
 * - the isolate has already admitted `ADMIT_AHEAD` hits of the IP that the shard has not seen.
 *
 * Within one isolate the limit stays exact (the isolate knows all of its own hits). Across
 * isolates, the shard learns of another isolate's hits at most `REPORT_INTERVAL_MS` late, so
 * an IP spread over k isolates can get at most (k − 1) × `ADMIT_AHEAD` requests above the limit
 * per report interval before every isolate has heard that it is full.
 *
 * Pure bookkeeping with an injected clock; no I/O (src/middleware/rate-limit.ts does the calls).
 */

/** Hits an isolate may admit for an IP without the shard's answer, and the headroom kept below the limit. */
export const ADMIT_AHEAD = 10;
/** How often an isolate reports the hits it admitted by itself (at most one call per shard per interval). */
export const REPORT_INTERVAL_MS = 1_000;
/** IPs whose log an isolate remembers; the least recently seen without unreported hits are forgotten first. */
export const MAX_KNOWN_KEYS = 20_000;

type Entry = {
  /** The shard's log of the key (hit times, oldest first) as of its last answer. */
  log: number[];
  /** Hits sent to the shard (report or exact call) and not yet answered. */
  inFlight: number[];
  /** Hits admitted here that the shard has not been sent. */
  pending: number[];
};

export type Report = [key: string, hits: number[]][];

/** Drops the times at or before `cutoff` from the front of a sorted array. */
function prune(times: number[], cutoff: number): void {
  let drop = 0;
  while (drop < times.length && (times[drop] as number) <= cutoff) drop++;
  if (drop > 0) times.splice(0, drop);
}

/** Removes each time of `sent` once from `from`. */
function without(from: number[], sent: readonly number[]): number[] {
  if (sent.length === 0) return from;
  const left = [...from];
  for (const at of sent) {
    const i = left.indexOf(at);
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}

export class IpAdmission {
  private readonly entries = new Map<string, Entry>();
  private readonly unreported = new Set<string>();

  constructor(private readonly maxKeys: number = MAX_KNOWN_KEYS) {}

  /** Forgets every address (tests start each file with a fresh isolate's memory: src/lib/isolate-state.ts). */
  clear(): void {
    this.entries.clear();
    this.unreported.clear();
  }

  /**
   * Admits a request of `key` here when it is far from `limit` (see the module comment),
   * returning the decision and its headers' figures; null when the shard must decide.
   */
  tryAdmit(key: string, limit: number, windowMs: number, now: number): RateDecision | null {
    const entry = this.entry(key);
    const cutoff = now - windowMs;
    prune(entry.log, cutoff);
    prune(entry.pending, cutoff);
    const counted = entry.log.length + entry.inFlight.length + entry.pending.length;
    if (entry.pending.length >= ADMIT_AHEAD || counted + 1 > limit - ADMIT_AHEAD) return null;
    entry.pending.push(now);
    this.unreported.add(key);
    const oldest = Math.min(entry.log[0] ?? now, entry.inFlight[0] ?? now, entry.pending[0] ?? now);
    return {
      allowed: true,
      limit,
      remaining: limit - counted - 1,
      resetSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)),
      retryAfterMs: 0,
    };
  }

  /**
   * The hits of `key` not yet sent, now in flight with an exact call that carries them; the
   * call's own request (at `now`) counts as in flight too, so that requests arriving while it is
   * out see it. `settle` the call with the returned hits and `now`.
   */
  takePending(key: string, now: number): number[] {
    const entry = this.entry(key);
    const sent = entry.pending;
    entry.pending = [];
    this.unreported.delete(key);
    entry.inFlight.push(...sent, now);
    entry.inFlight.sort((a, b) => a - b);
    return sent;
  }

  /** Every key's unsent hits, for one report; they are in flight until `settle`d. */
  drain(): Report {
    const report: Report = [];
    for (const key of this.unreported) {
      const entry = this.entries.get(key);
      if (!entry || entry.pending.length === 0) continue;
      report.push([key, entry.pending]);
      entry.inFlight.push(...entry.pending);
      entry.inFlight.sort((a, b) => a - b);
      entry.pending = [];
    }
    this.unreported.clear();
    return report;
  }

  /**
   * The shard answered for `key` about the hits `sent` (and, for an exact call, its own request
   * at `own`): its log replaces what was known. With `log` null the call failed: the hits are
   * unsent again, to go with the next call (a failed exact call's own request was not counted).
   */
  settle(key: string, sent: readonly number[], log: number[] | null, own?: number): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.inFlight = without(entry.inFlight, own === undefined ? sent : [...sent, own]);
    if (log !== null) {
      entry.log = log;
      return;
    }
    entry.pending = [...sent, ...entry.pending].sort((a, b) => a - b);
    if (entry.pending.length > 0) this.unreported.add(key);
  }

  /** Whether any hit waits to be reported. */
  get hasUnreported(): boolean {
    return this.unreported.size > 0;
  }

  /** How many keys are remembered (for tests). */
  get size(): number {
    return this.entries.size;
  }

  /** The key's entry, most recently used last; creating it makes room by forgetting idle keys. */
  private entry(key: string): Entry {
    let entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry;
    }
    if (this.entries.size >= this.maxKeys) this.evict();
    entry = { log: [], inFlight: [], pending: [] };
    this.entries.set(key, entry);
    return entry;
  }

  /**
   * Forgets up to 64 of the least recently seen keys that have no hit waiting for the shard.
   * A forgotten key is treated as new: its next request may be admitted here, and its next
   * answer brings back its log. Keys with unreported hits are never forgotten, so the map can
   * pass `maxKeys` only by the keys seen within one report interval.
   */
  private evict(): void {
    let scanned = 0;
    for (const [key, entry] of this.entries) {
      if (scanned++ >= 64 || this.entries.size < this.maxKeys) break;
      if (entry.pending.length === 0 && entry.inFlight.length === 0) this.entries.delete(key);
    }
  }
}
