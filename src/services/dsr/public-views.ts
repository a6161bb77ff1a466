import { eq, or } from 'drizzle-orm';
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
  // The certificates they hold (their name) and the ones their rating completed (an employer's
  // credentials may be re-signed under the organisation).
  const held = await getDb(env.DB)
    .select({ no: certificates.certificateNo, domain: certificates.domain })
    .from(certificates)
    .where(or(eq(certificates.holderId, userId), eq(certificates.employerId, userId)));
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

/**
 * Drops the cached verification of every certificate an organisation issued (a rename, a
 * suspension or a verification changes what each shows), and the leaderboards.
 */
export async function forgetOrganisationViews(
  env: Pick<Env, 'DB' | 'CACHE'>,
  organisationId: string,
): Promise<void> {
  const issued = await getDb(env.DB)
    .select({ no: certificates.certificateNo, domain: certificates.domain })
    .from(certificates)
    .where(eq(certificates.organisationId, organisationId));
  await Promise.all([
    purgeLeaderboards(env.CACHE, [...new Set(issued.map((c) => c.domain))]),
    forgetVerifications(
      env.CACHE,
      issued.map((c) => c.no),
    ),
  ]);
}
