/**
 * Every KV key the service writes, in one place, so that whoever changes data knows what to
 * invalidate (ratings, consent changes, revocations, erasure). Bump a version suffix when a
 * cached payload's shape changes.
 */

/** The public agreement rate (one entry). */
export const PUBLIC_AGREEMENT_KEY = 'agreement-rate:public:v1';

/** A certificate's public verification payload. */
export const verificationKey = (certificateNo: string) => `verify:v1:${certificateNo}`;

/** Prefix of the leaderboard entries; one entry per domain holds its top 100. */
export const LEADERBOARD_PREFIX = 'leaderboard:v1:';
export const leaderboardKey = (domain: string) => `${LEADERBOARD_PREFIX}${domain}`;

/** Drops every cached leaderboard (a consent change or erasure can touch any domain). */
export async function purgeLeaderboards(cache: KVNamespace): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await cache.list({ prefix: LEADERBOARD_PREFIX, ...(cursor ? { cursor } : {}) });
    await Promise.all(page.keys.map((k) => cache.delete(k.name)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
}
