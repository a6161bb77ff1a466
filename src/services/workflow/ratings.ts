import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import {
  briefs,
  employerRatings,
  evaluations,
  milestones,
  organisations,
  submissions,
  users,
} from '../../db/schema';
import { ProblemError } from '../../lib/problem';
import { type AfterCommitOptions, afterCommit, type EffectsEnv } from '../after-commit';
import { auditInsert } from '../audit';
import { hasConsent } from '../consent';
import {
  allMilestonesPassed,
  certificationConflict,
  liveCertificate,
  prepareCertificate,
} from '../issuance/issue';
import { certificateEvent, combine, NOTHING_EMITTED, submissionRatedEvent } from '../webhooks/events';

export type RatingInput = { score: number; verdict: 'pass' | 'fail'; comment?: string };

/**
 * An evaluation with what rating it needs: its submission, brief and milestone. Null unless the
 * brief belongs to `organisationId` (any member of the organisation may rate its briefs).
 */
export async function evaluationForOrganisation(db: Database, evaluationId: string, organisationId: string) {
  const [row] = await db
    .select({
      evaluation: evaluations,
      submission: submissions,
      brief: briefs,
      milestone: milestones,
      rating: employerRatings,
      organisation: organisations,
    })
    .from(evaluations)
    .innerJoin(submissions, eq(submissions.id, evaluations.submissionId))
    .innerJoin(briefs, eq(briefs.id, submissions.briefId))
    .innerJoin(organisations, eq(organisations.id, briefs.organisationId))
    .innerJoin(milestones, eq(milestones.id, submissions.milestoneId))
    .leftJoin(employerRatings, eq(employerRatings.evaluationId, evaluations.id))
    // A candidate who asked for erasure is disabled from the 202 on: their work is as gone for
    // the employer as it will be once the cascade has run (which a queue backlog can delay).
    .innerJoin(users, and(eq(users.id, submissions.candidateId), isNull(users.disabledAt)))
    .where(and(eq(evaluations.id, evaluationId), eq(briefs.organisationId, organisationId)))
    .limit(1);
  return row ?? null;
}

/** The evaluation as a member of the organisation that owns the brief sees it; null for anyone else. */
export async function evaluationForEmployer(db: Database, evaluationId: string, employerId: string) {
  const [member] = await db
    .select({ organisationId: users.organisationId })
    .from(users)
    .where(eq(users.id, employerId))
    .limit(1);
  if (!member?.organisationId) return null;
  return evaluationForOrganisation(db, evaluationId, member.organisationId);
}

/**
 * The organisation's independent rating, by one of its members (recorded for the audit trail).
 * One per evaluation (a second is refused; the unique index settles a race). The AI verdict is
 * copied onto the rating: that pair is the agreement signal.
 *
 * A `pass` that completes the brief (every milestone has a pass-rated submission by the
 * candidate) earns the certificate. The rating, the submission's new state, the certificate and
 * the audit entries are one D1 batch: all of it commits or none of it does, so a failure (a
 * missing signing key is refused before the batch) leaves nothing that would block a retry.
 */
export async function rateEvaluation(
  db: Database,
  env: Pick<Env, 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL'> & EffectsEnv,
  employer: { id: string },
  evaluationId: string,
  input: RatingInput,
  /** Where the effects of the rating run after the response (see `afterCommit`). */
  defer?: AfterCommitOptions['defer'],
) {
  const found = await evaluationForEmployer(db, evaluationId, employer.id);
  if (!found) return null;
  const { evaluation, submission, brief, milestone, organisation } = found;
  // The candidate asked for erasure (the account is disabled from the 202 on): nothing more is
  // written about them, and the cascade is about to delete this work. As gone as it will be: 404.
  const [candidate] = await db
    .select({ disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.id, submission.candidateId))
    .limit(1);
  if (!candidate || candidate.disabledAt) return null;
  if (found.rating) throw new ProblemError('conflict', 'This evaluation has already been rated.');
  const conflict = await certificationConflict(db, submission.candidateId, organisation);
  if (conflict) throw new ProblemError('forbidden', conflict);
  if (evaluation.state === 'pending')
    throw new ProblemError('conflict', 'The AI evaluation is still running; rate it once it has finished.');
  // The pair feeds the public agreement rate: a verdict whose candidate has since withdrawn
  // `ai_evaluation` is no longer processed (DPDP §6(6)), so the rating makes no pair.
  const aiVerdict =
    evaluation.aiEvaluated &&
    evaluation.state === 'completed' &&
    (await hasConsent(db, submission.candidateId, 'ai_evaluation'))
      ? evaluation.verdict
      : null;
  const now = new Date();

  for (let attempt = 0; ; attempt++) {
    const earnsCertificate =
      input.verdict === 'pass' &&
      !(await liveCertificate(db, submission.candidateId, brief.id)) &&
      (await allMilestonesPassed(db, brief.id, submission.candidateId, milestone.id));
    const ratingId = crypto.randomUUID();
    const certificate = earnsCertificate
      ? await prepareCertificate(
          db,
          env,
          {
            holderId: submission.candidateId,
            briefId: brief.id,
            briefTitle: brief.title,
            domain: brief.domain,
            organisation: {
              id: organisation.id,
              name: organisation.name,
              verified: organisation.verification === 'verified',
            },
            ratedBy: employer.id,
            submissionId: submission.id,
            earnedAt: now,
            rating: input.score,
            verdict: input.verdict,
          },
          now,
        )
      : null;
    // Webhook events in the same batch: the rating, and the certificate if it is issued now.
    const hooks = combine(
      await submissionRatedEvent(
        db,
        {
          organisationId: organisation.id,
          ratingId,
          evaluationId,
          submissionId: submission.id,
          briefId: brief.id,
          milestoneId: milestone.id,
          verdict: input.verdict,
          score: input.score,
        },
        now,
      ),
      certificate?.row.status === 'active'
        ? await certificateEvent(
            db,
            'certificate.issued',
            { ...certificate.row, organisationId: organisation.id },
            now,
          )
        : NOTHING_EMITTED,
    );
    try {
      await db.batch([
        db.insert(employerRatings).values({
          id: ratingId,
          evaluationId,
          employerId: employer.id,
          organisationId: organisation.id,
          briefId: brief.id,
          domain: brief.domain,
          score: input.score,
          verdict: input.verdict,
          comment: input.comment ?? null,
          aiVerdict,
          createdAt: now,
        }),
        db
          .update(submissions)
          .set({ state: 'rated', updatedAt: now })
          .where(eq(submissions.id, submission.id)),
        auditInsert(db, {
          actorId: employer.id,
          action: 'evaluation.rated',
          targetType: 'evaluation',
          targetId: evaluationId,
          details: { verdict: input.verdict, organisationId: organisation.id },
        }),
        ...(certificate
          ? [
              ...certificate.statements,
              auditInsert(db, {
                actorId: employer.id,
                action:
                  certificate.row.status === 'active' ? 'certificate.issued' : 'certificate.pending_issuer',
                targetType: 'certificate',
                targetId: certificate.row.id,
                details: { organisationId: organisation.id },
              }),
            ]
          : []),
        ...hooks.statements,
      ]);
    } catch (err) {
      if (isUniqueViolation(err, 'evaluation_id'))
        throw new ProblemError('conflict', 'This evaluation has already been rated.');
      // A certificate number drawn twice (rare: 55 random bits) draws again; a certificate issued
      // meanwhile by a racing rating makes the next attempt a rating without one.
      if (certificate && attempt < 4 && isUniqueViolation(err, 'certificates.')) continue;
      throw err;
    }
    const [rating] = await db.select().from(employerRatings).where(eq(employerRatings.id, ratingId)).limit(1);
    const [updated] = await db.select().from(evaluations).where(eq(evaluations.id, evaluationId)).limit(1);
    // A new pair changes the public rate; a rating (and a certificate) changes leaderboards.
    // Coalesced: each KV key is written at most once per second (services/kv-coalesce.ts).
    await afterCommit(
      db,
      env,
      {
        ratedIn: brief.domain,
        jobs: hooks.jobIds,
        issued: certificate ? [certificate.row.certificateNo] : [],
      },
      { now, defer },
    );
    return {
      rating: rating!,
      evaluation: updated!,
      certificate: certificate
        ? { certificateNo: certificate.row.certificateNo, status: certificate.row.status }
        : null,
      domain: brief.domain,
    };
  }
}
