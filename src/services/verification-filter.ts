/**
 * The membership filter in front of verification (issue 18): a never-issued certificate number
 * is answered 404 from the isolate's memory, without KV or D1, while a new certificate verifies
 * at once where it was issued and within seconds elsewhere.
 *
 * Three parts, all consulted before anything else by `verification()`:
 * - **The filter** (`VERIFY_FILTER_KEY`): a Bloom filter (0.1 % false positives) of every
 *   certificate number in D1, whatever its status, rebuilt by the cron from paged reads and
 *   loaded by each isolate at most once per `FILTER_REFRESH_MS`. Its metadata says when the
 *   rebuild started reading (`builtAt`).
 * - **The recent numbers** (`VERIFY_RECENT_KEY`): the numbers whose `issued_at` is within
 *   `RECENT_WINDOW_MS` of when the set was computed, read from the primary D1 through the
 *   `issued_at` index. Rewritten after each issuance through the `KvCoalescer` object of that
 *   key (at most one KV write per second), and by the cron after each rebuild. Isolates read it
 *   at most once per `RECENT_REFRESH_MS`, and only when the filter says "no".
 * - **This isolate's own issues**: a number issued here is remembered at once, so the issuing
 *   instance never answers 404 for it.
 *
 * A number is "certainly absent" only when it is in none of the three AND the recent set covers
 * everything the filter might have missed (`recent.from <= filter.builtAt - IN_FLIGHT_MARGIN_MS`).
 * Anything else — no filter in KV, an unreadable one, a recent set missing or too young, a
 * filter "maybe" — takes the normal path (memory, KV, D1), so the filter can only ever save
 * work, never give a wrong 404. A deleted certificate needs nothing: its stale "maybe" is the
 * normal path, which answers 404 from D1.
 */
import { asc, count, gt, gte } from 'drizzle-orm';
import type { Database } from '../db/client';
import { certificates } from '../db/schema';
import { BloomFilter } from '../domain/membership-filter';
import { onForgetIsolateState } from '../lib/isolate-state';
import { log } from '../lib/log';
import { VERIFY_FILTER_KEY, VERIFY_RECENT_KEY } from './cache-keys';

/**
 * False positives of the filter when holding its capacity: 1 in 1,000 unknown numbers still takes
 * the normal path (a KV miss and a D1 read). 1.8 MB per million numbers; 1 % would be 1.2 MB but
 * ten times the D1 reads under a scanner.
 */
export const FILTER_FALSE_POSITIVE_RATE = 0.001;
/** Capacity over the numbers counted at the build, so issuance until the next build keeps the rate. */
const FILTER_HEADROOM = 1.25;
/** How often an isolate reloads the filter from KV (≈1.8 MB per million certificates). */
export const FILTER_REFRESH_MS = 60_000;
/** How often an isolate re-reads the recent numbers (only when a lookup needs them). */
export const RECENT_REFRESH_MS = 2_000;
/** The recent set holds the numbers issued within this window before it was computed. */
export const RECENT_WINDOW_MS = 40 * 60_000;
/**
 * How long before its row commits a certificate's `issued_at` may be taken (the request that
 * issues it stamps `now` first, then signs and writes). A row committed while the rebuild was
 * reading may be missed by it; with `issued_at >= builtAt - margin` it is in the recent set.
 */
export const IN_FLIGHT_MARGIN_MS = 5 * 60_000;
/** Numbers read per D1 query while rebuilding (10 M certificates: 500 queries). */
const BUILD_PAGE = 20_000;

type FilterMeta = { builtAt: number; count: number };
type RecentValue = { from: number; computedAt: number; numbers: string[] };

type Loaded<T> = { value: T | null; loadedAt: number; readingSince: number | null };

const state = {
  filter: { value: null, loadedAt: Number.NEGATIVE_INFINITY, readingSince: null } as Loaded<{
    bloom: BloomFilter;
    builtAt: number;
  }>,
  recent: { value: null, loadedAt: Number.NEGATIVE_INFINITY, readingSince: null } as Loaded<{
    from: number;
    numbers: Set<string>;
  }>,
  /** Numbers issued by this isolate, with when (dropped once a filter built later is loaded). */
  local: new Map<string, number>(),
};

/** Test seam: forget everything this isolate loaded or issued (as a fresh isolate would be). */
export const resetVerificationFilterMemory = onForgetIsolateState((): void => {
  state.filter = { value: null, loadedAt: Number.NEGATIVE_INFINITY, readingSince: null };
  state.recent = { value: null, loadedAt: Number.NEGATIVE_INFINITY, readingSince: null };
  state.local.clear();
});

/**
 * A cached load: served from memory while younger than `maxAgeMs`. The request that finds it
 * stale reads it and waits; requests arriving during that read use what was loaded before (or
 * nothing: the caller then takes the normal path, which is always correct). A promise of one
 * request's I/O is never awaited by another: Workers refuse that ("Cannot perform I/O on behalf
 * of a different request", seen under the keyspace load when the read was shared). A failed read
 * keeps what was loaded before (still correct: the recent set check bounds how old a filter may
 * be) and is retried after `maxAgeMs`; a read that never finishes blocks others for at most
 * `READ_TIMEOUT_MS`.
 */
async function refreshed<T>(
  slot: Loaded<T>,
  maxAgeMs: number,
  now: number,
  read: () => Promise<T | null>,
): Promise<T | null> {
  if (now - slot.loadedAt < maxAgeMs) return slot.value;
  if (slot.readingSince !== null && now - slot.readingSince < READ_TIMEOUT_MS) return slot.value;
  slot.readingSince = now;
  try {
    slot.value = await read();
  } catch (err) {
    log('warn', 'verification filter: load failed', { error: String(err) });
  } finally {
    slot.loadedAt = now;
    slot.readingSince = null;
  }
  return slot.value;
}

/** How long a read in flight keeps other requests from starting their own. */
const READ_TIMEOUT_MS = 10_000;

function loadFilter(env: Pick<Env, 'CACHE'>, now: number) {
  return refreshed(state.filter, FILTER_REFRESH_MS, now, async () => {
    const { value, metadata } = await env.CACHE.getWithMetadata<FilterMeta>(VERIFY_FILTER_KEY, 'arrayBuffer');
    if (value === null || !metadata || typeof metadata.builtAt !== 'number') return null;
    const loaded = { bloom: BloomFilter.fromBytes(value), builtAt: metadata.builtAt };
    // Numbers this isolate issued before the build started are in the filter now.
    for (const [no, at] of state.local) if (at < loaded.builtAt) state.local.delete(no);
    return loaded;
  });
}

function loadRecent(env: Pick<Env, 'CACHE'>, now: number) {
  return refreshed(state.recent, RECENT_REFRESH_MS, now, async () => {
    const value = await env.CACHE.get<RecentValue>(VERIFY_RECENT_KEY, 'json');
    if (!value || typeof value.from !== 'number' || !Array.isArray(value.numbers)) return null;
    return { from: value.from, numbers: new Set(value.numbers) };
  });
}

/**
 * False only when `certificateNo` was certainly never issued (answer 404 without I/O); true when
 * it may exist, or when the filter cannot tell (the caller takes the normal path).
 */
export async function mayBeIssued(
  env: Pick<Env, 'CACHE'>,
  certificateNo: string,
  now: number = Date.now(),
): Promise<boolean> {
  if (state.local.has(certificateNo)) return true;
  const filter = await loadFilter(env, now);
  if (!filter || filter.bloom.has(certificateNo)) return true;
  const recent = await loadRecent(env, now);
  if (!recent || recent.from > filter.builtAt - IN_FLIGHT_MARGIN_MS) return true;
  return recent.numbers.has(certificateNo);
}

/** This isolate issued these numbers: it verifies them at once, whatever KV says yet. */
export function rememberIssued(numbers: readonly string[], now: number = Date.now()): void {
  for (const no of numbers) state.local.set(no, now);
}

/**
 * After issuing: remember the numbers here, and have the recent set rewritten through its
 * `KvCoalescer` (written now when the last write is a second old, else once a second later for
 * every issue meanwhile), so other isolates see them within `RECENT_REFRESH_MS` plus a second.
 */
export async function announceIssued(
  db: Database,
  env: Pick<Env, 'CACHE' | 'KV_COALESCER'>,
  numbers: readonly string[],
  now: number = Date.now(),
): Promise<void> {
  if (numbers.length === 0) return;
  rememberIssued(numbers, now);
  await requestRecentWrite(db, env);
}

async function requestRecentWrite(db: Database, env: Pick<Env, 'CACHE' | 'KV_COALESCER'>): Promise<void> {
  const decision = await env.KV_COALESCER.getByName(`kv:${VERIFY_RECENT_KEY}`).request(VERIFY_RECENT_KEY);
  if (decision.action === 'write') await writeRecentNumbers(db, env);
}

/** Recomputes the recent set from the primary D1 (the `issued_at` index) and stores it. */
export async function writeRecentNumbers(
  db: Database,
  env: Pick<Env, 'CACHE'>,
  now: number = Date.now(),
): Promise<RecentValue> {
  const from = now - RECENT_WINDOW_MS;
  const rows = await db
    .select({ no: certificates.certificateNo })
    .from(certificates)
    .where(gte(certificates.issuedAt, new Date(from)));
  const value: RecentValue = { from, computedAt: now, numbers: rows.map((r) => r.no) };
  await env.CACHE.put(VERIFY_RECENT_KEY, JSON.stringify(value));
  state.recent = { value: { from, numbers: new Set(value.numbers) }, loadedAt: now, readingSince: null };
  return value;
}

/**
 * The cron's rebuild: every certificate number in D1 (paged by number), into a filter sized for
 * the count plus headroom, stored in KV with when the reading started; then the recent set, so
 * the two agree. Returns what was built.
 */
export async function rebuildVerificationFilter(
  db: Database,
  env: Pick<Env, 'CACHE'>,
  now: number = Date.now(),
): Promise<{ count: number; bytes: number }> {
  const builtAt = now;
  const [total] = await db.select({ n: count() }).from(certificates);
  const bloom = BloomFilter.forCapacity(
    Math.max(1_000, Math.ceil((total?.n ?? 0) * FILTER_HEADROOM)),
    FILTER_FALSE_POSITIVE_RATE,
  );
  let after = '';
  for (;;) {
    const page = await db
      .select({ no: certificates.certificateNo })
      .from(certificates)
      .where(gt(certificates.certificateNo, after))
      .orderBy(asc(certificates.certificateNo))
      .limit(BUILD_PAGE);
    for (const { no } of page) bloom.add(no);
    if (page.length < BUILD_PAGE) break;
    after = page[page.length - 1]!.no;
  }
  const bytes = bloom.toBytes();
  const metadata: FilterMeta = { builtAt, count: bloom.count };
  await env.CACHE.put(VERIFY_FILTER_KEY, bytes, { metadata });
  // Then the recent set, computed after the filter's reads, so the two agree from here on.
  await writeRecentNumbers(db, env, Date.now());
  return { count: bloom.count, bytes: bytes.length };
}
