import { and, asc, eq, gt } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { certificates } from '../../db/schema';
import { purgeLeaderboards } from '../cache-keys';
import { dispatchJobs, jobInsert } from '../jobs/jobs';
import { forgetObDocuments } from '../ob-documents';
import { forgetVerifications } from '../verification-memory';

/**
 * KV deletions per invocation in one purge page: a Worker invocation may make 1,000 KV
 * operations, so an organisation with more certificates than this is purged page by page, each
 * page after the first by a `verification_purge` job of its own (a fresh invocation).
 */
export const PURGE_PAGE = 400;
export const VERIFICATION_PURGE_JOB = 'verification_purge';
export type VerificationPurgePayload = { organisationId: string; after: string };

/**
 * Drops the cached verification of the certificates an organisation issued after certificate
 * number `after` (in number order), at most one page; returns where the next page starts, or
 * null when none is left.
 */
export async function purgeOrganisationPage(
  db: Database,
  env: Pick<Env, 'CACHE'>,
  { organisationId, after }: VerificationPurgePayload,
): Promise<string | null> {
  const page = await db
    .select({ no: certificates.certificateNo })
    .from(certificates)
    .where(and(eq(certificates.organisationId, organisationId), gt(certificates.certificateNo, after)))
    .orderBy(asc(certificates.certificateNo))
    .limit(PURGE_PAGE);
  await forgetVerifications(
    env,
    page.map((c) => c.no),
  );
  return page.length < PURGE_PAGE ? null : page[page.length - 1]!.no;
}

/** Writes and enqueues the job that purges the next page. */
export async function purgeLater(
  db: Database,
  env: Pick<Env, 'JOBS_QUEUE'>,
  payload: VerificationPurgePayload,
  now = new Date(),
): Promise<void> {
  const id = crypto.randomUUID();
  await jobInsert(db, { id, kind: VERIFICATION_PURGE_JOB, payload }, now);
  await dispatchJobs(db, env, [id], now);
}

/**
 * Drops the cached verification of every certificate an organisation issued (a rename, a
 * suspension or a verification changes what each shows), and the leaderboards of their domains.
 * The first page is purged now; any further pages by `verification_purge` jobs, one page each.
 */
export async function forgetOrganisationViews(
  db: Database,
  env: Pick<Env, 'CACHE' | 'JOBS_QUEUE'>,
  organisationId: string,
  now = new Date(),
): Promise<void> {
  const domains = await db
    .selectDistinct({ domain: certificates.domain })
    .from(certificates)
    .where(eq(certificates.organisationId, organisationId));
  await Promise.all([
    purgeLeaderboards(
      env.CACHE,
      domains.map((d) => d.domain),
    ),
    // Its issuer profile, and the achievements that name it (services/ob-documents.ts).
    forgetObDocuments(env.CACHE),
  ]);
  const next = await purgeOrganisationPage(db, env, { organisationId, after: '' });
  if (next) await purgeLater(db, env, { organisationId, after: next }, now);
}
