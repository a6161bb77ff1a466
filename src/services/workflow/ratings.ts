import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import {
  briefs,
  certificates,
  employerRatings,
  evaluations,
  milestones,
  submissions,
  users,
} from '../../db/schema';
import { ProblemError } from '../../lib/problem';
import { recordAudit } from '../audit';
import { issueCertificate } from '../certificates';

export type RatingInput = { score: number; verdict: 'pass' | 'fail'; comment?: string };

/** An evaluation with what rating it needs: its submission, brief and milestone. Null unless `employerId` owns the brief. */
export async function evaluationForEmployer(db: Database, evaluationId: string, employerId: string) {
  const [row] = await db
    .select({
      evaluation: evaluations,
      submission: submissions,
      brief: briefs,
      milestone: milestones,
      rating: employerRatings,
    })
    .from(evaluations)
    .innerJoin(submissions, eq(submissions.id, evaluations.submissionId))
    .innerJoin(briefs, eq(briefs.id, submissions.briefId))
    .innerJoin(milestones, eq(milestones.id, submissions.milestoneId))
    .leftJoin(employerRatings, eq(employerRatings.evaluationId, evaluations.id))
    .where(and(eq(evaluations.id, evaluationId), eq(briefs.employerId, employerId)))
    .limit(1);
  return row ?? null;
}

/**
 * The employer's independent rating. One per evaluation (a second is refused; the unique
 * index settles a race). The AI verdict is copied onto the rating: that pair is the
 * agreement signal. Rating the final milestone `pass` issues the certificate.
 */
export async function rateEvaluation(
  env: Pick<Env, 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL'>,
  db: Database,
  employer: { id: string },
  evaluationId: string,
  input: RatingInput,
) {
  const found = await evaluationForEmployer(db, evaluationId, employer.id);
  if (!found) return null;
  const { evaluation, submission, brief, milestone } = found;
  if (found.rating) throw new ProblemError('conflict', 'This evaluation has already been rated.');
  if (evaluation.state === 'pending')
    throw new ProblemError('conflict', 'The AI evaluation is still running; rate it once it has finished.');
  const aiVerdict = evaluation.aiEvaluated && evaluation.state === 'completed' ? evaluation.verdict : null;
  let rating: typeof employerRatings.$inferSelect;
  try {
    const [row] = await db
      .insert(employerRatings)
      .values({
        evaluationId,
        employerId: employer.id,
        briefId: brief.id,
        domain: brief.domain,
        score: input.score,
        verdict: input.verdict,
        comment: input.comment ?? null,
        aiVerdict,
      })
      .returning();
    rating = row!;
  } catch (err) {
    if (isUniqueViolation(err)) throw new ProblemError('conflict', 'This evaluation has already been rated.');
    throw err;
  }
  await db
    .update(submissions)
    .set({ state: 'rated', updatedAt: new Date() })
    .where(eq(submissions.id, submission.id));
  await recordAudit(db, {
    actorId: employer.id,
    action: 'evaluation.rated',
    targetType: 'evaluation',
    targetId: evaluationId,
    details: { verdict: input.verdict },
  });

  let certificate: typeof certificates.$inferSelect | null = null;
  if (milestone.isFinal && input.verdict === 'pass') {
    const [existing] = await db
      .select({ id: certificates.id })
      .from(certificates)
      .where(
        and(
          eq(certificates.holderId, submission.candidateId),
          eq(certificates.briefId, brief.id),
          eq(certificates.status, 'active'),
        ),
      )
      .limit(1);
    if (!existing) {
      const [employerRow] = await db
        .select({ name: users.name })
        .from(users)
        .where(eq(users.id, employer.id))
        .limit(1);
      certificate = await issueCertificate(env, db, {
        holderId: submission.candidateId,
        briefId: brief.id,
        briefTitle: brief.title,
        employerId: employer.id,
        employerName: employerRow?.name ?? 'Employer',
        submissionId: submission.id,
        domain: brief.domain,
      });
      await recordAudit(db, {
        actorId: employer.id,
        action: 'certificate.issued',
        targetType: 'certificate',
        targetId: certificate.id,
      });
    }
  }
  const [updated] = await db.select().from(evaluations).where(eq(evaluations.id, evaluationId)).limit(1);
  return { rating, evaluation: updated!, certificate, domain: brief.domain };
}
