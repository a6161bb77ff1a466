import { eq } from 'drizzle-orm';
import { getDb } from '../../db/client';
import { certificates } from '../../db/schema';
import { forgetVerifications, purgeLeaderboards } from '../cache-keys';

/**
 * Drops every cached public view that may show the person: the leaderboards (name, alias,
 * scores) and the verification entries of the certificates they hold (name, while
 * `public_verification` consent is active). Called after a consent change or a correction, so
 * the next public read is rebuilt from D1 and reflects it at once.
 */
export async function forgetPublicViews(env: Pick<Env, 'DB' | 'CACHE'>, userId: string): Promise<void> {
  const held = await getDb(env.DB)
    .select({ no: certificates.certificateNo, domain: certificates.domain })
    .from(certificates)
    .where(eq(certificates.holderId, userId));
  await Promise.all([
    purgeLeaderboards(
      env.CACHE,
      held.map((c) => c.domain),
    ),
    forgetVerifications(
      env.CACHE,
      held.map((c) => c.no),
    ),
  ]);
}
