import { and, count, eq, gte, isNotNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { employerRatings, organisations } from '../db/schema';
import {
  AGREEMENT_WINDOW_DAYS,
  type AgreementRate,
  addPair,
  agreementOverWindow,
  demoAgreement,
  EMPTY_COUNTS,
  type PairCounts,
} from '../domain/agreement';
import { type CachedPayload, fillCache, PUBLIC_AGREEMENT_KEY, payloadMemory } from './cache-keys';

/**
 * Safety net only: the cache is rewritten after each rating and by the cron trigger every
 * 15 minutes, so the TTL bounds staleness if both of those stop.
 */
const CACHE_TTL_SECONDS = 60 * 60;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The 2×2 (AI verdict × employer verdict) table of rating pairs created since `since`, counting
 * only verified organisations' ratings: a self-declared employer cannot move the public rate.
 */
export async function countPairsSince(db: Database, since: Date): Promise<PairCounts> {
  const rows = await db
    .select({ ai: employerRatings.aiVerdict, employer: employerRatings.verdict, n: count() })
    .from(employerRatings)
    .innerJoin(organisations, eq(organisations.id, employerRatings.organisationId))
    .where(
      and(
        gte(employerRatings.createdAt, since),
        isNotNull(employerRatings.aiVerdict),
        eq(organisations.verification, 'verified'),
      ),
    )
    .groupBy(employerRatings.aiVerdict, employerRatings.verdict);
  return rows.reduce((acc, r) => (r.ai ? addPair(acc, r.ai, r.employer, r.n) : acc), EMPTY_COUNTS);
}

/** The public rate from D1; the demonstration payload when the window holds no pairs. */
export async function computePublicAgreement(db: Database, now = new Date()): Promise<AgreementRate> {
  const since = new Date(now.getTime() - AGREEMENT_WINDOW_DAYS * DAY_MS);
  const counts = await countPairsSince(db, since);
  const rate = agreementOverWindow(counts, { now });
  return rate.total === 0 ? demoAgreement(now) : rate;
}

/** The public payload, serialised once, with its validator. */
async function buildPublicPayload(db: Database, now: Date): Promise<CachedPayload> {
  const rate = await computePublicAgreement(db, now);
  return { json: JSON.stringify(rate), etag: `W/"${now.getTime().toString(36)}-${rate.total}"` };
}

const storedPayload = (payload: CachedPayload): KVNamespacePutOptions => ({
  expirationTtl: CACHE_TTL_SECONDS,
  metadata: { etag: payload.etag },
});

/** Recompute and store the public payload. Called after every rating and by the cron trigger. */
export async function refreshPublicAgreement(
  db: Database,
  env: Pick<Env, 'CACHE'>,
  now = new Date(),
): Promise<CachedPayload> {
  const payload = await buildPublicPayload(db, now);
  await env.CACHE.put(PUBLIC_AGREEMENT_KEY, payload.json, storedPayload(payload));
  payloadMemory.set(PUBLIC_AGREEMENT_KEY, payload);
  lastServed = payload;
  return payload;
}

/** The public agreement payload this isolate last served (see `publicAgreement`). */
let lastServed: CachedPayload | null = null;

/** How long a client or shared cache may keep the public agreement rate. */
export const PUBLIC_AGREEMENT_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';

/** The public payload when the isolate's memory holds it fresh (no I/O), else undefined. */
export function publicAgreementFromMemory(now: number = Date.now()): CachedPayload | undefined {
  return payloadMemory.fresh(PUBLIC_AGREEMENT_KEY, now) as CachedPayload | undefined;
}

/**
 * The public payload: from the isolate's memory, else one KV read (no D1 query, no
 * re-serialisation), else computed and stored (best effort: the reader is answered either way).
 */
export async function publicAgreement(db: Database, env: Pick<Env, 'CACHE'>): Promise<CachedPayload> {
  const payload = await payloadMemory.get(PUBLIC_AGREEMENT_KEY, async () => {
    const hit = await env.CACHE.getWithMetadata<{ etag: string }>(PUBLIC_AGREEMENT_KEY);
    if (hit.value !== null && hit.metadata) {
      // Re-read when its 5 seconds in memory are up, and nearly always unchanged: the payload
      // already served keeps its gzipped body (built once, on first use) instead of a new one.
      if (lastServed?.etag === hit.metadata.etag && lastServed.json === hit.value) return lastServed;
      lastServed = { json: hit.value, etag: hit.metadata.etag };
      return lastServed;
    }
    const built = await buildPublicPayload(db, new Date());
    await fillCache(env.CACHE, PUBLIC_AGREEMENT_KEY, built.json, storedPayload(built));
    lastServed = built;
    return built;
  });
  return payload as CachedPayload;
}

export type ScopedAgreement = {
  scope: 'platform' | 'employer';
  overall: AgreementRate;
  byDomain: (AgreementRate & { domain: string })[];
};

/**
 * `GET /api/metrics/agreement-rate`: the same statistics over a chosen window, for the whole
 * platform (admin) or one employer's briefs, with a per-domain breakdown. Never a demo payload.
 */
export async function scopedAgreement(
  db: Database,
  options: { windowDays: number; organisationId?: string; now?: Date },
): Promise<ScopedAgreement> {
  const now = options.now ?? new Date();
  const since = new Date(now.getTime() - options.windowDays * DAY_MS);
  const filters = [gte(employerRatings.createdAt, since), isNotNull(employerRatings.aiVerdict)];
  if (options.organisationId) filters.push(eq(employerRatings.organisationId, options.organisationId));
  const rows = await db
    .select({
      domain: employerRatings.domain,
      ai: employerRatings.aiVerdict,
      employer: employerRatings.verdict,
      n: count(),
    })
    .from(employerRatings)
    .where(and(...filters))
    .groupBy(employerRatings.domain, employerRatings.aiVerdict, employerRatings.verdict);
  let overall = EMPTY_COUNTS;
  const perDomain = new Map<string, PairCounts>();
  for (const r of rows) {
    if (!r.ai) continue;
    overall = addPair(overall, r.ai, r.employer, r.n);
    perDomain.set(r.domain, addPair(perDomain.get(r.domain) ?? EMPTY_COUNTS, r.ai, r.employer, r.n));
  }
  const stats = (counts: PairCounts) => agreementOverWindow(counts, { windowDays: options.windowDays, now });
  return {
    scope: options.organisationId ? 'employer' : 'platform',
    overall: stats(overall),
    byDomain: [...perDomain.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([domain, counts]) => ({ domain, ...stats(counts) })),
  };
}
