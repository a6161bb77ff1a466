/**
 * Every KV key the service writes, in one place, so that whoever changes data knows what to
 * invalidate (ratings, consent changes, revocations, erasure). Bump a version suffix when a
 * cached payload's shape changes.
 *
 * The hot public payloads also live for a few seconds in the isolate's memory
 * (`src/lib/isolate-cache.ts`); the functions here forget both copies, so changing data goes
 * through them and never deletes the KV keys alone.
 */

import type { Leaderboard } from '../domain/leaderboard';
import { sha256Hex } from '../domain/secrets';
import { IsolateCache } from '../lib/isolate-cache';
import { log } from '../lib/log';

/** The public agreement rate (one entry). */
export const PUBLIC_AGREEMENT_KEY = 'agreement-rate:public:v1';

/**
 * An achievement's rendered badge image (PNG), by a SHA-256 of what it shows (title, description,
 * organisation) and the look's version: a rename makes a new key, and the old one expires.
 */
export const achievementImageKey = async (shown: string) => `achievement-image:v2:${await sha256Hex(shown)}`;

/**
 * A certificate's badge PNG before its credential is baked in, by a SHA-256 of what it shows
 * (title, organisation, month, number) and the look's version.
 */
export const badgeImageKey = async (shown: string) => `badge-image:v1:${await sha256Hex(shown)}`;

/** A certificate's public verification payload. */
export const verificationKey = (certificateNo: string) => `verify:v1:${certificateNo}`;

/**
 * A certificate's page as a visitor without a session gets it, drawn once from its verification
 * payload, per language (src/routes/pages/pages.drawn.ts, decision 0339): it holds what the
 * payload holds (the holder's name), so whatever deletes the payload's key deletes these too.
 */
export const verificationPageKey = (certificateNo: string, lang: string) =>
  `verify-page:v1:${certificateNo}:${lang}`;

/** The languages a certificate page is drawn in (src/routes/pages/i18n: `LANGUAGES`). */
export const PAGE_LANGUAGES = ['en', 'hi'] as const;

/**
 * The membership filter of every certificate number ever issued (binary, `BloomFilter.toBytes`,
 * built by the cron) and the numbers issued since (JSON, rewritten through `KvCoalescer`).
 * See `src/services/verification-filter.ts`.
 */
export const VERIFY_FILTER_KEY = 'verify-filter:v1';
export const VERIFY_RECENT_KEY = 'verify-filter:recent:v1';

/**
 * The certificate numbers whose verification changed in the last few minutes (JSON
 * `PublishedChanges`, written through `KvCoalescer`): how other isolates learn to forget a
 * payload they keep in memory. See `src/services/verification-memory.ts`.
 */
export const VERIFY_CHANGES_KEY = 'verify-changes:v1';

/** Replaced on every certificate change; the status lists' KV keys include it (services/status-lists.ts). */
export const STATUS_LIST_GENERATION_KEY = 'status-list:generation';

/**
 * The status lists' current generation in the isolate's memory, re-read from KV at most this
 * often. The isolate that writes a new generation forgets it at once (`forgetStatusListMemory`);
 * others show a revocation at most this much later than KV does, inside the lists' `max-age`.
 */
export const STATUS_LIST_GENERATION_MEMORY_MS = 5_000;
export const statusListGenerationMemory = new IsolateCache<string>(STATUS_LIST_GENERATION_MEMORY_MS, 1);

/**
 * Replaced whenever an organisation changes (name, website, verification, suspension:
 * `forgetOrganisationViews`); the cached Open Badges issuer and achievement documents' KV keys
 * include it (services/ob-documents.ts).
 */
export const OB_DOCUMENTS_GENERATION_KEY = 'ob-docs:generation';

/** Forgets this isolate's status-list generation (call around every write of a new one). */
export function forgetStatusListMemory(): void {
  statusListGenerationMemory.clear();
}

/** Prefix of the leaderboard entries; one entry per domain holds its top 100. */
export const LEADERBOARD_PREFIX = 'leaderboard:v1:';
export const leaderboardKey = (domain: string) => `${LEADERBOARD_PREFIX}${domain}`;
/** The all-domains board (`GET /api/leaderboard` without `domain`). */
export const ALL_DOMAINS_KEY = leaderboardKey('*');

/**
 * Stores what a public read computed on a miss. Best effort: KV refuses a second write to one
 * key within a second, which concurrent misses in several isolates can cause, and the reader
 * still has what it computed (the next miss tries again).
 */
export async function fillCache(
  kv: KVNamespace,
  key: string,
  value: string,
  options: KVNamespacePutOptions,
): Promise<void> {
  try {
    await kv.put(key, value, options);
  } catch (err) {
    log('warn', 'cache fill failed', { key, error: String(err) });
  }
}

/** A serialised payload and its validator, stored together so a hit is one read. */
/**
 * A public payload serialised once; `gzip` is its encoding, added on first use (`gzipBody`);
 * `loadedAt`, when the isolate's memory took it (verification payloads).
 */
export type CachedPayload = {
  json: string;
  etag: string;
  gzip?: Uint8Array | null;
  loadedAt?: number;
  /** When the payload was built (ms; KV's metadata `builtAt`): what a change feed entry is compared with. */
  builtAt?: number;
  /** A verification's share-link QR code, from KV's metadata (services/verification-reads.ts). */
  qr?: ShareQr;
};

/** How long KV keeps a verification payload at most: every change deletes it at once. */
export const VERIFICATION_TTL_SECONDS = 60 * 60;

/**
 * How long KV may keep a verification payload (or a page drawn from it) written now: an hour, and
 * never past an active certificate's `validUntil` (nothing deletes it when the certificate expires;
 * KV's floor is 60 s).
 */
export function verificationTtlSeconds(
  payload: { validUntil: string | null; status: string },
  now = Date.now(),
): number {
  if (payload.validUntil === null || payload.status !== 'active') return VERIFICATION_TTL_SECONDS;
  const left = Math.ceil((Date.parse(payload.validUntil) - now) / 1000);
  return Math.max(60, Math.min(VERIFICATION_TTL_SECONDS, left));
}

/**
 * The QR code of a certificate page's share link (`base`, the deployment's public origin, then
 * `/verify/{no}`) as KV's metadata carries it: its mask (decision 0327) and, where the metadata's
 * 1,024 bytes allow, the code itself (`size`, `modules`: src/domain/pages/qr.ts `PackedQr`,
 * decision 0328), so a cold isolate draws it without encoding.
 */
export type ShareQr = { base: string; mask: number; size?: number; modules?: string };

/** How long another isolate may keep serving a payload this isolate has invalidated. */
export const ISOLATE_CACHE_TTL_MS = 5_000;

/** The public agreement rate (verification payloads: `verificationMemory`), by KV key. */
export const payloadMemory = new IsolateCache<CachedPayload>(ISOLATE_CACHE_TTL_MS, 8);
/** Leaderboards (top 100 of a domain, ≈8 KB each), by KV key. */
export const leaderboardMemory = new IsolateCache<Leaderboard>(ISOLATE_CACHE_TTL_MS, 200);

/**
 * Drops the cached leaderboards a change can touch: the all-domains board and the boards of
 * `domains` (the domains of the certificates involved). A known, bounded set of keys, deleted
 * by name: never a `list` of the prefix, whose length anyone could grow by asking for boards
 * of made-up domains (and only domains with published briefs are cached at all; see
 * `cachedLeaderboard`).
 */
export async function purgeLeaderboards(cache: KVNamespace, domains: readonly string[]): Promise<void> {
  const keys = [...new Set([ALL_DOMAINS_KEY, ...domains.map(leaderboardKey)])];
  for (const key of keys) leaderboardMemory.delete(key);
  await Promise.all(keys.map((key) => cache.delete(key)));
  // A board computed from D1 before the purge may have been stored meanwhile; drop it here too.
  for (const key of keys) leaderboardMemory.delete(key);
}
