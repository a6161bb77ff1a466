import { and, desc, eq } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../db/client';
import {
  briefs,
  employerRatings,
  evaluations,
  milestones,
  rubrics,
  type SubmissionState,
  type SubmittedCommit,
  type SubmittedFile,
  submissions,
  users,
} from '../../db/schema';
import { olderThan, type Position } from '../../lib/paging';

/** Paging position of a joined submission row. */
export const submissionPosition = (row: { submission: { createdAt: Date; id: string } }): Position =>
  row.submission;

import { recordAudit } from '../audit';
import { hasConsent } from '../consent';
import { checkIntegrity, storeFingerprints } from '../integrity';
import type { PillarEngine } from '../pillars';

export type SubmissionInput = {
  milestoneId: string;
  text?: string;
  files?: SubmittedFile[];
  repositoryUrl?: string;
  commits?: SubmittedCommit[];
};

export class SubmissionRefused extends Error {}

/**
 * Stores a submission for a milestone of a published brief, with its fingerprints (so later
 * work is checked against it) and a pending evaluation. Returns what the caller needs to run
 * the evaluation after the response: whether the candidate consented to AI evaluation.
 * Null when the milestone does not exist (or its brief is a draft).
 */
export async function createSubmission(
  d1: D1Database,
  db: Database,
  candidateId: string,
  input: SubmissionInput,
) {
  const [target] = await db
    .select({ milestone: milestones, briefState: briefs.state })
    .from(milestones)
    .innerJoin(briefs, eq(briefs.id, milestones.briefId))
    .where(eq(milestones.id, input.milestoneId))
    .limit(1);
  if (!target || target.briefState === 'draft') return null;
  if (target.briefState !== 'published')
    throw new SubmissionRefused('This brief is closed to new submissions.');
  const aiConsent = await hasConsent(db, candidateId, 'ai_evaluation');
  const now = new Date();
  const submissionId = crypto.randomUUID();
  const evaluationId = crypto.randomUUID();
  await db.batch([
    db.insert(submissions).values({
      id: submissionId,
      candidateId,
      briefId: target.milestone.briefId,
      milestoneId: input.milestoneId,
      text: input.text ?? null,
      files: input.files ?? null,
      repositoryUrl: input.repositoryUrl ?? null,
      commits: input.commits ?? null,
      // Without consent to AI evaluation the work goes straight to the employer.
      state: aiConsent ? 'submitted' : 'evaluated',
      createdAt: now,
    }),
    db.insert(evaluations).values({
      id: evaluationId,
      submissionId,
      aiEvaluated: aiConsent,
      state: aiConsent ? 'pending' : 'completed',
      completedAt: aiConsent ? null : now,
      createdAt: now,
    }),
  ]);
  await storeFingerprints(d1, submissionId, {
    ...(input.text ? { text: input.text } : {}),
    ...(input.files ? { files: input.files } : {}),
  });
  await recordAudit(db, {
    actorId: candidateId,
    action: 'submission.created',
    targetType: 'submission',
    targetId: submissionId,
  });
  return { submissionId, evaluationId, aiConsent };
}

/**
 * The AI evaluation (run after the response): integrity check, then rubric scoring.
 * submitted → evaluating → evaluated; the evaluation ends completed, or failed with a reason
 * (the employer can still rate either way).
 */
export async function evaluateSubmission(
  d1: D1Database,
  db: Database,
  engine: PillarEngine,
  submissionId: string,
) {
  const [row] = await db
    .select({ submission: submissions, brief: briefs, rubric: rubrics, email: users.email })
    .from(submissions)
    .innerJoin(briefs, eq(briefs.id, submissions.briefId))
    .innerJoin(rubrics, eq(rubrics.briefId, submissions.briefId))
    .innerJoin(users, eq(users.id, submissions.candidateId))
    .where(eq(submissions.id, submissionId))
    .limit(1);
  if (!row) return;
  const { submission, brief, rubric } = row;
  await db
    .update(submissions)
    .set({ state: 'evaluating', updatedAt: new Date() })
    .where(eq(submissions.id, submissionId));
  try {
    const material = {
      ...(submission.text ? { text: submission.text } : {}),
      ...(submission.files ? { files: submission.files } : {}),
    };
    const integrity = await checkIntegrity(
      d1,
      engine,
      { ...material, ...(submission.commits ? { commits: submission.commits } : {}) },
      {
        briefText: [brief.title, brief.description, ...brief.deliverables, ...brief.successCriteria].join(
          '\n',
        ),
        briefCreatedAt: brief.createdAt,
        candidateEmail: row.email,
        // The hand-in is the candidate's deadline: history written after it is not the submitted work.
        dueAt: submission.createdAt,
        excludeCandidateId: submission.candidateId,
      },
    );
    const scored = await engine.scoreSubmission(
      { criteria: rubric.criteria, passThreshold: rubric.passThreshold },
      material,
    );
    await db
      .update(evaluations)
      .set({
        state: 'completed',
        criterionScores: scored.result.criterionScores,
        overallScore: scored.result.overallScore,
        verdict: scored.result.verdict,
        engine: scored.engine,
        integrity: {
          score: integrity.score,
          verdict: integrity.verdict,
          plagiarismRisk: integrity.signals.plagiarism.risk,
          aiContentRisk: integrity.signals.aiContent.risk,
          vcsHistoryRisk: integrity.signals.vcsHistory.risk,
        },
        completedAt: new Date(),
      })
      .where(eq(evaluations.submissionId, submissionId));
  } catch (err) {
    await db
      .update(evaluations)
      .set({
        state: 'failed',
        failureReason: err instanceof Error ? err.message : String(err),
        completedAt: new Date(),
      })
      .where(eq(evaluations.submissionId, submissionId));
  }
  await db
    .update(submissions)
    .set({ state: 'evaluated', updatedAt: new Date() })
    .where(eq(submissions.id, submissionId));
  const [done] = await db
    .select({ id: evaluations.id, state: evaluations.state })
    .from(evaluations)
    .where(eq(evaluations.submissionId, submissionId))
    .limit(1);
  if (done) {
    await recordAudit(db, {
      actorId: null,
      action: `evaluation.${done.state}`,
      targetType: 'evaluation',
      targetId: done.id,
    });
  }
}

const submissionColumns = {
  submission: submissions,
  evaluation: evaluations,
  rating: employerRatings,
  milestoneTitle: milestones.title,
  briefTitle: briefs.title,
};

/**
 * A submission with its milestone and brief titles, its evaluation and its rating (both may be
 * missing), plus any `extra` columns (their tables joined by the caller). Every reader of
 * submissions starts here, so they all see the same joins.
 */
function joinedSubmissions<E extends SelectedFields>(db: Database, extra: E) {
  return db
    .select({ ...submissionColumns, ...extra })
    .from(submissions)
    .innerJoin(milestones, eq(milestones.id, submissions.milestoneId))
    .innerJoin(briefs, eq(briefs.id, submissions.briefId))
    .leftJoin(evaluations, eq(evaluations.submissionId, submissions.id))
    .leftJoin(employerRatings, eq(employerRatings.evaluationId, evaluations.id));
}

export type SubmissionRow = {
  submission: typeof submissions.$inferSelect;
  evaluation: typeof evaluations.$inferSelect | null;
  rating: typeof employerRatings.$inferSelect | null;
  milestoneTitle: string;
  briefTitle: string;
};

/** The candidate's own submissions, newest first. */
export async function listOwnSubmissions(
  db: Database,
  candidateId: string,
  filter: { briefId?: string; state?: SubmissionState },
  limit: number,
  after?: Position,
): Promise<SubmissionRow[]> {
  const conditions = [eq(submissions.candidateId, candidateId)];
  if (filter.briefId) conditions.push(eq(submissions.briefId, filter.briefId));
  if (filter.state) conditions.push(eq(submissions.state, filter.state));
  if (after) {
    conditions.push(olderThan(submissions, after));
  }
  return joinedSubmissions(db, {})
    .where(and(...conditions))
    .orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(limit + 1);
}

export async function loadSubmission(db: Database, submissionId: string): Promise<SubmissionRow | null> {
  const [row] = await joinedSubmissions(db, {}).where(eq(submissions.id, submissionId)).limit(1);
  return row ?? null;
}

/** The evaluation as its viewer may see it: the AI part is hidden from the employer until they have rated. */
export function evaluationView(
  evaluation: typeof evaluations.$inferSelect,
  rated: boolean,
  viewer: 'candidate' | 'employer',
) {
  const revealed = viewer === 'candidate' || rated;
  return {
    id: evaluation.id,
    state: evaluation.state,
    aiEvaluated: evaluation.aiEvaluated,
    hiddenUntilRated: !revealed,
    ai:
      revealed && evaluation.aiEvaluated && evaluation.state === 'completed'
        ? {
            overallScore: evaluation.overallScore,
            verdict: evaluation.verdict,
            criterionScores: evaluation.criterionScores ?? [],
            engine: evaluation.engine,
            integrity: evaluation.integrity,
          }
        : null,
    failureReason: revealed ? evaluation.failureReason : null,
    completedAt: evaluation.completedAt?.toISOString() ?? null,
  };
}

export function ratingView(rating: typeof employerRatings.$inferSelect) {
  return {
    id: rating.id,
    score: rating.score,
    verdict: rating.verdict,
    comment: rating.comment,
    createdAt: rating.createdAt.toISOString(),
  };
}

export function submissionView(row: SubmissionRow) {
  const s = row.submission;
  return {
    id: s.id,
    briefId: s.briefId,
    briefTitle: row.briefTitle,
    milestoneId: s.milestoneId,
    milestoneTitle: row.milestoneTitle,
    state: s.state,
    text: s.text,
    files: s.files ?? [],
    repositoryUrl: s.repositoryUrl,
    commits: s.commits ?? [],
    createdAt: s.createdAt.toISOString(),
    evaluation: row.evaluation ? evaluationView(row.evaluation, row.rating !== null, 'candidate') : null,
    rating: row.rating ? ratingView(row.rating) : null,
  };
}

/** The submissions to a brief, for its employer: blind (no AI verdict) until each is rated. */
export async function submissionsForBrief(db: Database, briefId: string, limit: number, after?: Position) {
  const conditions = [eq(submissions.briefId, briefId)];
  if (after) {
    conditions.push(olderThan(submissions, after));
  }
  return joinedSubmissions(db, { candidateName: users.name })
    .innerJoin(users, eq(users.id, submissions.candidateId))
    .where(and(...conditions))
    .orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(limit + 1);
}
