/**
 * When a certificate comes into being, and under whose name.
 *
 * A candidate earns a certificate when every milestone of a brief has a submission of theirs
 * rated `pass` by the organisation that owns the brief. Under a verified organisation it is
 * issued at once (signed, `active`); otherwise it waits as `pending_issuer` (a number, no
 * credential) and is issued the moment the organisation is verified.
 *
 * Everything a rating triggers is written in the rating's own D1 batch (see ratings.ts); the
 * functions here prepare those statements, and sweep up what a race or a crash left undone:
 * `issueEarnedCertificates` finds earned-but-missing certificates, `issuePendingCertificates`
 * signs what waited for verification. Both are idempotent, so the cron can run them again.
 * Re-signing a credential that exists is ./resign.ts; the signing both share is ./sign.ts.
 */

import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import {
  briefs,
  certificates,
  employerRatings,
  evaluations,
  milestones,
  organisations,
  submissions,
  users,
} from '../../db/schema';
import { generateCertificateNumber } from '../../domain/certificates/certificate-number';
import { conflictOfInterest } from '../../domain/organisations';
import { afterCommit, type EffectsEnv } from '../after-commit';
import { auditInsert } from '../audit';
import { jobInsert, runJobNow } from '../jobs/jobs';
import { requireSigningKey } from '../signing-key';
import { certificateEvent, NOTHING_EMITTED } from '../webhooks/events';
import { type EarnedCertificate, type IssuanceEnv, signFor } from './sign';

/**
 * Whether `candidateId` has a `pass`-rated submission for every milestone of the brief, counting
 * `assumePassed` (the milestone being rated in the same batch) as passed.
 */
export async function allMilestonesPassed(
  db: Database,
  briefId: string,
  candidateId: string,
  assumePassed?: string,
): Promise<boolean> {
  const steps = await db
    .select({ id: milestones.id })
    .from(milestones)
    .where(eq(milestones.briefId, briefId));
  if (steps.length === 0) return false;
  const passed = await db
    .selectDistinct({ milestoneId: submissions.milestoneId })
    .from(submissions)
    .innerJoin(evaluations, eq(evaluations.submissionId, submissions.id))
    .innerJoin(employerRatings, eq(employerRatings.evaluationId, evaluations.id))
    .where(
      and(
        eq(submissions.briefId, briefId),
        eq(submissions.candidateId, candidateId),
        eq(employerRatings.verdict, 'pass'),
      ),
    );
  const done = new Set(passed.map((p) => p.milestoneId));
  if (assumePassed) done.add(assumePassed);
  return steps.every((s) => done.has(s.id));
}

/**
 * Why the organisation may not rate (and so certify) this candidate's work, or null: the candidate
 * is one of its members under another address, or writes from the domain it proved
 * (docs/decisions/0020-core-flow-black-box-round-2026-11-26.md).
 */
export async function certificationConflict(
  db: Database,
  candidateId: string,
  organisation: { id: string; verifiedDomain: string | null },
): Promise<string | null> {
  const people = await db
    .select({ id: users.id, email: users.email, organisationId: users.organisationId })
    .from(users)
    .where(or(eq(users.id, candidateId), eq(users.organisationId, organisation.id)));
  const candidate = people.find((p) => p.id === candidateId);
  if (!candidate) return null;
  return conflictOfInterest(candidate.email, {
    verifiedDomain: organisation.verifiedDomain,
    memberEmails: people.filter((p) => p.organisationId === organisation.id).map((p) => p.email),
  });
}

/** The holder's live (not revoked) certificate for a brief, if any. */
export async function liveCertificate(db: Database, holderId: string, briefId: string) {
  const [row] = await db
    .select({ id: certificates.id, certificateNo: certificates.certificateNo, status: certificates.status })
    .from(certificates)
    .where(
      and(
        eq(certificates.holderId, holderId),
        eq(certificates.briefId, briefId),
        ne(certificates.status, 'revoked'),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * The insert for an earned certificate: signed and `active` under a verified organisation
 * (the signing key is checked first, so a missing key refuses before anything is written),
 * else `pending_issuer` with no credential. The caller batches it with what earned it.
 */
export async function prepareCertificate(
  db: Database,
  env: IssuanceEnv,
  earned: EarnedCertificate,
  now = new Date(),
) {
  const id = crypto.randomUUID();
  const certificateNo = generateCertificateNumber();
  const base = {
    id,
    certificateNo,
    holderId: earned.holderId,
    briefId: earned.briefId,
    employerId: earned.ratedBy,
    organisationId: earned.organisation.id,
    submissionId: earned.submissionId,
    domain: earned.domain,
    earnedAt: earned.earnedAt,
  };
  if (!earned.organisation.verified) {
    return {
      row: { ...base, status: 'pending_issuer' as const, credentialJwt: null, issuedAt: now },
      statements: [
        db
          .insert(certificates)
          .values({ ...base, status: 'pending_issuer', credentialJwt: null, issuedAt: now }),
      ] as const,
    };
  }
  const key = await requireSigningKey(env);
  const { credentialJwt, credentialDataIntegrity, validUntil, statements } = await signFor(
    db,
    env,
    key,
    earned,
    id,
    certificateNo,
    now,
  );
  const signed = {
    ...base,
    status: 'active' as const,
    credentialJwt,
    credentialDataIntegrity,
    issuedAt: now,
    validUntil,
    signedOrganisationName: earned.organisation.name,
  };
  // The certificate first: the status row refers to it.
  return { row: signed, statements: [db.insert(certificates).values(signed), ...statements] as const };
}

/**
 * Signs every `pending_issuer` certificate of a now-verified organisation. Each update is
 * conditional on the row still waiting, so a second run (the cron, a retry) changes nothing.
 * Returns the numbers issued.
 */
export async function issuePendingCertificates(
  db: Database,
  env: IssuanceEnv & EffectsEnv,
  organisationId: string,
  now = new Date(),
): Promise<string[]> {
  const [organisation] = await db
    .select()
    .from(organisations)
    .where(eq(organisations.id, organisationId))
    .limit(1);
  if (organisation?.verification !== 'verified') return [];
  // Not for a holder whose erasure is pending (account disabled): nothing more is signed or
  // announced about them, and the cascade deletes what waits.
  const waiting = await db
    .select({ certificate: certificates, briefTitle: briefs.title })
    .from(certificates)
    .innerJoin(briefs, eq(briefs.id, certificates.briefId))
    .innerJoin(users, eq(users.id, certificates.holderId))
    .where(
      and(
        eq(certificates.organisationId, organisationId),
        eq(certificates.status, 'pending_issuer'),
        isNull(users.disabledAt),
      ),
    );
  if (waiting.length === 0) return [];
  const key = await requireSigningKey(env);
  const issued: string[] = [];
  const jobIds: string[] = [];
  for (const { certificate: c, briefTitle } of waiting) {
    // Earned before the organisation proved its domain: a rating of its own staff's work (which
    // the rating refuses from then on) is not signed; the certificate is withdrawn, saying why.
    const conflict = await certificationConflict(db, c.holderId, organisation);
    if (conflict) {
      await db.batch([
        db
          .update(certificates)
          .set({
            status: 'revoked',
            revokedAt: now,
            revokedReason:
              'Not issued: the holder is one of the issuing organisation’s own people, and an organisation does not certify its own.',
            version: sql`${certificates.version} + 1`,
          })
          .where(and(eq(certificates.id, c.id), eq(certificates.status, 'pending_issuer'))),
        auditInsert(db, {
          actorId: null,
          action: 'certificate.revoked',
          targetType: 'certificate',
          targetId: c.id,
          details: { organisationId, reason: 'conflict_of_interest' },
        }),
      ]);
      continue;
    }
    const earned: EarnedCertificate = {
      holderId: c.holderId,
      briefId: c.briefId,
      briefTitle,
      domain: c.domain,
      organisation: { id: organisation.id, name: organisation.name, verified: true },
      ratedBy: c.employerId,
      submissionId: c.submissionId ?? '',
      earnedAt: c.earnedAt ?? c.issuedAt,
    };
    const { credentialJwt, credentialDataIntegrity, validUntil, statements } = await signFor(
      db,
      env,
      key,
      earned,
      c.id,
      c.certificateNo,
      now,
    );
    const hooks = await certificateEvent(db, 'certificate.issued', c, now);
    const [, updated] = await db.batch([
      auditInsert(db, {
        actorId: null,
        action: 'certificate.issued',
        targetType: 'certificate',
        targetId: c.id,
        details: { organisationId, onVerification: true },
      }),
      db
        .update(certificates)
        .set({
          status: 'active',
          credentialJwt,
          credentialDataIntegrity,
          issuedAt: now,
          validUntil,
          signedOrganisationName: organisation.name,
          version: sql`${certificates.version} + 1`,
        })
        .where(and(eq(certificates.id, c.id), eq(certificates.status, 'pending_issuer')))
        .returning({ certificateNo: certificates.certificateNo }),
      ...statements,
      ...hooks.statements,
    ]);
    if (updated.length > 0) issued.push(c.certificateNo);
    jobIds.push(...hooks.jobIds);
  }
  await afterCommit(
    db,
    env,
    issued.length > 0
      ? {
          certificates: issued,
          domains: [...new Set(waiting.map((w) => w.certificate.domain))],
          jobs: jobIds,
        }
      : { jobs: jobIds },
    { now },
  );
  return issued;
}

/**
 * Backstop for races and failures: certificates earned (every milestone rated pass) but never
 * created, e.g. when two milestones were rated at the same moment and neither rating saw the
 * other. Looks only at candidates rated since `since`; issues or parks each like a rating would.
 */
export async function issueEarnedCertificates(
  db: Database,
  env: IssuanceEnv & EffectsEnv,
  since: Date,
  now = new Date(),
): Promise<number> {
  const recent = await db
    .selectDistinct({
      candidateId: submissions.candidateId,
      briefId: submissions.briefId,
    })
    .from(employerRatings)
    .innerJoin(evaluations, eq(evaluations.id, employerRatings.evaluationId))
    .innerJoin(submissions, eq(submissions.id, evaluations.submissionId))
    .where(and(eq(employerRatings.verdict, 'pass'), sql`${employerRatings.createdAt} >= ${since.getTime()}`));
  let created = 0;
  const domains = new Set<string>();
  const issued: string[] = [];
  for (const { candidateId, briefId } of recent) {
    if (await liveCertificate(db, candidateId, briefId)) continue;
    if (!(await allMilestonesPassed(db, briefId, candidateId))) continue;
    const earned = await earnedFromRatings(db, candidateId, briefId);
    if (!earned) continue;
    // A revocation stands: the sweep issues what was earned and never created, not again what an
    // issuer or an admin took back. Only a pass rating given after the revocation earns anew.
    const revokedAt = await lastRevocation(db, candidateId, briefId);
    if (revokedAt !== null && revokedAt >= earned.earnedAt.getTime()) continue;
    const prepared = await prepareCertificate(db, env, earned, now);
    const hooks =
      prepared.row.status === 'active'
        ? await certificateEvent(
            db,
            'certificate.issued',
            { ...prepared.row, organisationId: earned.organisation.id },
            now,
          )
        : NOTHING_EMITTED;
    try {
      await db.batch([
        ...prepared.statements,
        ...hooks.statements,
        auditInsert(db, {
          actorId: null,
          action: earned.organisation.verified ? 'certificate.issued' : 'certificate.pending_issuer',
          targetType: 'certificate',
          targetId: prepared.row.id,
          details: { sweep: true },
        }),
      ]);
      created++;
      domains.add(earned.domain);
      issued.push(prepared.row.certificateNo);
    } catch (err) {
      // Someone issued it meanwhile (the live-certificate index): nothing left to do.
      if (!isUniqueViolation(err)) throw err;
    }
  }
  await afterCommit(db, env, created > 0 ? { domains: [...domains], issued } : { issued }, { now });
  return created;
}

/** When the holder's last certificate for the brief was revoked (ms), or null when none was. */
async function lastRevocation(db: Database, holderId: string, briefId: string): Promise<number | null> {
  const [row] = await db
    .select({ at: sql<number | null>`max(${certificates.revokedAt})` })
    .from(certificates)
    .where(
      and(
        eq(certificates.holderId, holderId),
        eq(certificates.briefId, briefId),
        eq(certificates.status, 'revoked'),
      ),
    );
  return row?.at ?? null;
}

/** The brief, organisation and last pass rating behind an earned certificate. */
async function earnedFromRatings(db: Database, candidateId: string, briefId: string) {
  const [row] = await db
    .select({
      briefTitle: briefs.title,
      domain: briefs.domain,
      organisationId: organisations.id,
      organisationName: organisations.name,
      verification: organisations.verification,
      ratedBy: employerRatings.employerId,
      ratedAt: employerRatings.createdAt,
      submissionId: submissions.id,
    })
    .from(employerRatings)
    .innerJoin(evaluations, eq(evaluations.id, employerRatings.evaluationId))
    .innerJoin(submissions, eq(submissions.id, evaluations.submissionId))
    .innerJoin(briefs, eq(briefs.id, submissions.briefId))
    .innerJoin(organisations, eq(organisations.id, briefs.organisationId))
    .where(
      and(
        eq(submissions.candidateId, candidateId),
        eq(submissions.briefId, briefId),
        eq(employerRatings.verdict, 'pass'),
      ),
    )
    .orderBy(sql`${employerRatings.createdAt} DESC`)
    .limit(1);
  if (!row) return null;
  return {
    holderId: candidateId,
    briefId,
    briefTitle: row.briefTitle,
    domain: row.domain,
    organisation: {
      id: row.organisationId,
      name: row.organisationName,
      verified: row.verification === 'verified',
    },
    ratedBy: row.ratedBy,
    submissionId: row.submissionId,
    earnedAt: row.ratedAt,
  } satisfies EarnedCertificate;
}

/**
 * What verification triggers: every waiting certificate is signed and every cached view of the
 * organisation's certificates is dropped. Idempotent; the cron runs it again for any verified
 * organisation that still has waiting certificates (a crash between the verification and this).
 */
export async function onOrganisationVerified(
  db: Database,
  env: IssuanceEnv & EffectsEnv,
  organisationId: string,
  now = new Date(),
): Promise<string[]> {
  const issued = await issuePendingCertificates(db, env, organisationId, now);
  // Every cached view of its certificates names its state; the public agreement rate counts
  // verified organisations' pairs only: this one's count now.
  await afterCommit(db, env, { organisation: organisationId, agreement: true }, { now });
  return issued;
}

/** Cron backstop: organisations that are verified but still have certificates waiting. */
export async function issueAllPending(db: Database, env: IssuanceEnv & EffectsEnv): Promise<number> {
  const rows = await db
    .selectDistinct({ organisationId: certificates.organisationId })
    .from(certificates)
    .innerJoin(organisations, eq(organisations.id, certificates.organisationId))
    .where(and(eq(certificates.status, 'pending_issuer'), eq(organisations.verification, 'verified')));
  let issued = 0;
  for (const { organisationId } of rows) {
    if (organisationId) issued += (await onOrganisationVerified(db, env, organisationId)).length;
  }
  return issued;
}

export const CERTIFICATE_ISSUANCE_JOB = 'certificate_issuance';
export type IssuancePayload = { organisationId: string };

/** The job that issues what waited for a verification, for the verification's own batch. */
export function issuanceJob(db: Database, organisationId: string, now = new Date()) {
  const id = crypto.randomUUID();
  return {
    id,
    statement: jobInsert(
      db,
      {
        id,
        kind: CERTIFICATE_ISSUANCE_JOB,
        payload: { organisationId },
        // Unique per job: two verifications in the same millisecond each queue one (the job is idempotent).
        ref: `${organisationId}:${id}`,
      },
      now,
    ),
  };
}

/** Certificates issued because the organisation was verified at `verifiedAt` (earned before it). */
export async function issuedOnVerification(
  db: Database,
  organisationId: string,
  verifiedAt: Date,
): Promise<string[]> {
  const rows = await db
    .select({ certificateNo: certificates.certificateNo, earnedAt: certificates.earnedAt })
    .from(certificates)
    .where(
      and(
        eq(certificates.organisationId, organisationId),
        eq(certificates.status, 'active'),
        sql`${certificates.issuedAt} >= ${verifiedAt.getTime()}`,
      ),
    );
  return rows.filter((r) => r.earnedAt !== null && r.earnedAt < verifiedAt).map((r) => r.certificateNo);
}

/**
 * After a verification committed with its issuance job: run the job here and now (the caller
 * waits for its certificates), leaving the queue and the sweeper to finish it if this fails.
 */
export async function issueAfterVerification(
  db: Database,
  env: Env,
  organisation: { id: string; verifiedAt: Date | null },
  jobId: string | undefined,
): Promise<string[]> {
  if (!jobId) return [];
  await runJobNow(db, env, jobId);
  return organisation.verifiedAt ? issuedOnVerification(db, organisation.id, organisation.verifiedAt) : [];
}
