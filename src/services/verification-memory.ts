/**
 * Verification payloads in the isolate's memory, kept for up to ten minutes while the change feed
 * is read, and forgotten within seconds of a change anywhere (issue 18: verification at ≥ 0.8 of a
 * hello-world Worker needs nearly every hit answered from memory, which a 5-second memory could
 * not do for a large set of certificates).
 *
 * - **The isolate that makes a change** forgets its own copies at once (`forgetVerifications`),
 *   deletes the KV entries, and adds the numbers to the change feed: the `KvCoalescer` object of
 *   `VERIFY_CHANGES_KEY` logs them and publishes the log to KV at most once a second
 *   (`src/domain/verification-changes.ts`).
 * - **Every other isolate** reads the published log at most once per `CHANGES_REFRESH_MS`, before
 *   answering from memory, and forgets what changed since its last read (everything, when the log
 *   does not reach back that far or was cleared by a large change).
 * - **A KV entry older than a change it should reflect** is not trusted: KV propagates a delete to
 *   other locations within about 60 s, so the entry a location still holds may predate the change.
 *   Entries carry when they were built (`builtAt`); one built before a change this isolate knows
 *   of is rebuilt from D1 instead.
 *
 * - **A payload is trusted for `VERIFICATION_MEMORY_TTL_MS` after the later of its load and the
 *   last successful read of the feed** (which would have removed it had it changed): while the
 *   feed is read, a payload stays up to `VERIFICATION_MEMORY_MAX_MS` and costs one KV read per
 *   isolate per ten minutes instead of one a minute; when the feed cannot be read, nothing is
 *   served older than a minute, as before.
 *
 * So another isolate serves a changed payload for at most `CHANGES_REFRESH_MS` plus a second
 * (the coalesced write) plus KV's propagation of the log, as before with a 5-second memory; and
 * if the feed is unavailable, for at most `VERIFICATION_MEMORY_TTL_MS`.
 */
import {
  CLOCK_SKEW_MS,
  changesSince,
  isPublishedChanges,
  MAX_CHANGES,
  type PublishedChanges,
} from '../domain/verification-changes';
import { IsolateCache } from '../lib/isolate-cache';
import { onForgetIsolateState } from '../lib/isolate-state';
import { log } from '../lib/log';
import {
  type CachedPayload,
  forgetStatusListMemory,
  PAGE_LANGUAGES,
  STATUS_LIST_GENERATION_KEY,
  VERIFY_CHANGES_KEY,
  verificationKey,
  verificationPageKey,
} from './cache-keys';

/**
 * How long a verification payload is served after the later of its load and the last successful
 * read of the change feed: the bound when the feed cannot be read.
 */
export const VERIFICATION_MEMORY_TTL_MS = 60_000;
/**
 * How long a payload stays in memory at all, feed read or not: 75–100 % of it once reloaded
 * (`VERIFICATION_MEMORY_JITTER`), 20–100 % after its first load (`VERIFICATION_MEMORY_FIRST_JITTER`).
 */
export const VERIFICATION_MEMORY_MAX_MS = 600_000;
/**
 * A reloaded payload is kept between 75 % and 100 % of `VERIFICATION_MEMORY_MAX_MS`, at random,
 * so payloads reloaded together do not come due together again.
 */
export const VERIFICATION_MEMORY_JITTER = 0.25;
/**
 * A payload loaded into an isolate that did not hold it is kept between 20 % and 100 % of
 * `VERIFICATION_MEMORY_MAX_MS` (2 to 10 minutes), at random (issue 54). Payloads loaded in one
 * burst (a cache fill, a page listing many certificates, the first minutes of an isolate) are then
 * reloaded at a steady rate over the next ten minutes, not in one wave 7.5–10 minutes later: a
 * bench round fell to 0.87 of its target in that wave (2026-12-01, decision 0323). Never under two
 * minutes, so a payload is served a while before its last minute (refresh-ahead) begins.
 */
export const VERIFICATION_MEMORY_FIRST_JITTER = 0.8;
/**
 * Refresh-ahead: in its last minute in memory, a payload's next request reloads it in the
 * background (`claimRefresh`), so it is replaced before it comes due and no request waits for KV.
 */
export const VERIFICATION_REFRESH_AHEAD_MS = 60_000;

/** How often an isolate reads the change feed (only when a verification asks). */
export const CHANGES_REFRESH_MS = 5_000;

/** Verification payloads by KV key (≈ 14 KB of JSON each with the credential, ≈ 4 KB more once gzipped; ≤ 36 MB). */
export const verificationMemory = new IsolateCache<CachedPayload>(VERIFICATION_MEMORY_MAX_MS, 2_000, {
  first: VERIFICATION_MEMORY_FIRST_JITTER,
  renewal: VERIFICATION_MEMORY_JITTER,
});

const feed = {
  /** `writtenAt` of the last published log applied here (null: none yet). */
  seen: null as number | null,
  checkedAt: Number.NEGATIVE_INFINITY,
  /** When the last successful read started: what memory holds reflects the log as of then. */
  readAt: Number.NEGATIVE_INFINITY,
  /** Numbers known to have changed, with when: a KV entry built before that is stale. */
  changedAt: new Map<string, number>(),
  /** Every KV entry built before this may be stale (a large change, or the feed's reach). */
  clearedAt: 0,
};

/** Keys being reloaded ahead of their end: one reload per key at a time. */
const refreshing = new Set<string>();

/** Test seam: a fresh isolate (no payloads, no feed read yet). */
export const resetVerificationMemory = onForgetIsolateState((): void => {
  verificationMemory.clear();
  feed.seen = null;
  feed.checkedAt = Number.NEGATIVE_INFINITY;
  feed.readAt = Number.NEGATIVE_INFINITY;
  feed.changedAt.clear();
  feed.clearedAt = 0;
  refreshing.clear();
});

/** Distrust KV entries of these numbers built before their change (the oldest known go first). */
function rememberChanges(numbers: Iterable<readonly [string, number]>): void {
  for (const [no, at] of numbers) {
    if ((feed.changedAt.get(no) ?? 0) >= at) continue;
    feed.changedAt.delete(no);
    feed.changedAt.set(no, at);
  }
  // Twice the published log's cap; what goes is older than the log's window, and KV has long
  // propagated those changes.
  while (feed.changedAt.size > 2 * MAX_CHANGES) {
    const oldest = feed.changedAt.keys().next().value;
    if (oldest === undefined) break;
    feed.changedAt.delete(oldest);
  }
}

function apply(value: PublishedChanges | null): void {
  const { all, numbers } = changesSince(value, feed.seen);
  if (all) verificationMemory.clear();
  else for (const [no] of numbers) verificationMemory.delete(verificationKey(no));
  if (value) {
    // Every logged change, not only the new ones: this location's KV may still predate any of them.
    rememberChanges(value.changes);
    feed.clearedAt = Math.max(feed.clearedAt, value.clearedAt);
  }
  feed.seen = value?.writtenAt ?? null;
}

/**
 * Brings this isolate up to date with the change feed when its last read is older than
 * `CHANGES_REFRESH_MS`. Synchronous (undefined) when it is fresh, so a memory hit awaits nothing.
 * The request that finds it stale reads it and waits; requests arriving during that read answer
 * from memory as it stands (a promise of one request's I/O is never awaited by another: Workers
 * refuse that). A failed read keeps what is in memory (bounded by its TTL) until the next refresh.
 */
export function syncVerificationChanges(
  env: Pick<Env, 'CACHE'>,
  now: number = Date.now(),
): Promise<void> | undefined {
  if (now - feed.checkedAt < CHANGES_REFRESH_MS) return undefined;
  feed.checkedAt = now;
  return env.CACHE.get(VERIFY_CHANGES_KEY, 'json').then(
    (value) => {
      apply(isPublishedChanges(value) ? value : null);
      feed.readAt = Math.max(feed.readAt, now);
    },
    (err: unknown) => {
      log('warn', 'verification changes: read failed', { error: String(err) });
    },
  );
}

/**
 * The payload memory holds for `key`, when it may still be served: loaded, or confirmed by a read
 * of the change feed, less than `VERIFICATION_MEMORY_TTL_MS` ago.
 */
export function trustedPayload(key: string, now: number = Date.now()): CachedPayload | undefined {
  const hit = verificationMemory.peek(key, now);
  return hit === undefined ? undefined : trusted(hit, now);
}

/** `hit` while it may still be served: loaded, or confirmed by the change feed, less than the TTL ago. */
function trusted(hit: CachedPayload, now: number): CachedPayload | undefined {
  return now - Math.max(hit.loadedAt ?? Number.NEGATIVE_INFINITY, feed.readAt) < VERIFICATION_MEMORY_TTL_MS
    ? hit
    : undefined;
}

/**
 * What memory may serve for `key` with no I/O at all, not even the change feed's read: undefined
 * when the feed is due (the caller takes the full path, `verification`, which reads it) or memory
 * has nothing it may serve.
 */
export function servableWithoutIo(key: string, now: number = Date.now()): CachedPayload | undefined {
  if (now - feed.checkedAt >= CHANGES_REFRESH_MS) return undefined;
  // One request per payload near its end takes the full path, which reloads it ahead (`claimRefresh`).
  if (refreshDue(key, now)) return undefined;
  // Only looks: an expired entry stays for the full path, which may keep it (`lastValue`).
  const hit = verificationMemory.fresh(key, now);
  return hit === undefined ? undefined : trusted(hit, now);
}

/** Whether `key`'s payload is in its last `VERIFICATION_REFRESH_AHEAD_MS` and nobody reloads it yet. */
export function refreshDue(key: string, now: number = Date.now()): boolean {
  const expires = verificationMemory.expiresAt(key);
  return expires !== undefined && expires - now <= VERIFICATION_REFRESH_AHEAD_MS && !refreshing.has(key);
}

/** `refreshDue`, and if so the caller reloads it: `refreshDone` when its reload has settled. */
export function claimRefresh(key: string, now: number = Date.now()): boolean {
  if (!refreshDue(key, now)) return false;
  refreshing.add(key);
  return true;
}

export function refreshDone(key: string): void {
  refreshing.delete(key);
}

/** Whether a KV entry of `certificateNo` built at `builtAt` may predate a known change. */
export function builtBeforeChange(certificateNo: string, builtAt: number): boolean {
  const changed = Math.max(feed.changedAt.get(certificateNo) ?? 0, feed.clearedAt);
  return changed > 0 && builtAt < changed + CLOCK_SKEW_MS;
}

/**
 * Drops the cached verification payloads of these certificates: here at once, in KV, and in
 * every other isolate through the change feed. Called after the change has committed.
 */
export async function forgetVerifications(
  env: Pick<Env, 'CACHE'> & Partial<Pick<Env, 'KV_COALESCER'>>,
  certificateNos: readonly string[],
  now: number = Date.now(),
): Promise<void> {
  if (certificateNos.length === 0) return;
  for (const no of certificateNos) verificationMemory.delete(verificationKey(no));
  rememberChanges(certificateNos.map((no) => [no, now] as const));
  await Promise.all([
    ...certificateNos.map((no) => env.CACHE.delete(verificationKey(no))),
    // The pages drawn from those payloads (decision 0339): never served once the payload changed
    // (each names the payload it was drawn from), and deleted with it.
    ...certificateNos.flatMap((no) =>
      PAGE_LANGUAGES.map((lang) => env.CACHE.delete(verificationPageKey(no, lang))),
    ),
    // A revocation, an erasure or a suspension can change a status list bit: rebuild them all.
    env.CACHE.put(STATUS_LIST_GENERATION_KEY, crypto.randomUUID()).finally(forgetStatusListMemory),
    env.KV_COALESCER?.getByName(`kv:${VERIFY_CHANGES_KEY}`).verificationsChanged([...certificateNos], now),
  ]);
  // A load that started before the change may have put the old payload back meanwhile.
  for (const no of certificateNos) verificationMemory.delete(verificationKey(no));
}
