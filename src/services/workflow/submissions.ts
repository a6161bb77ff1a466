import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../db/client';
import {
  briefs,
  employerRatings,
  evaluations,
  milestones,
  organisations,
  rubrics,
  type SubmissionState,
  type SubmittedCommit,
  type SubmittedFile,
  submissions,
  users,
} from '../../db/schema';
import {
  checkSubmissionQuota,
  type StorageLimits,
  type StorageLimitVars,
  type SubmissionUsage,
  storageCost,
  storageLimitsFrom,
  submissionContentBytes,
} from '../../domain/storage-quota';
import { olderThan, type Position } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import { evaluationCompletedEvent } from '../webhooks/events';

/** Paging position of a joined submission row. */
export const submissionPosition = (row: { submission: { createdAt: Date; id: string } }): Position =>
  row.submission;

import { log } from '../../lib/log';
import { afterCommit, type Effects } from '../after-commit';
import { recordAudit } from '../audit';
import { hasConsent } from '../consent';
import type { FingerprintCorpus } from '../corpus';
import { checkIntegrity, fingerprintsToStore } from '../integrity';
import { jobInsert } from '../jobs/jobs';
import type { PillarEngine } from '../pillars';

export type SubmissionInput = {
  milestoneId: string;
  text?: string;
  files?: SubmittedFile[];
  repositoryUrl?: string;
  commits?: SubmittedCommit[];
};

/** The storage limits from the Worker's vars; an unusable value is a 503 naming the var. */
export function storageLimits(env: StorageLimitVars): StorageLimits {
  const parsed = storageLimitsFrom(env);
  if (!parsed.ok)
    throw new ProblemError(
      'not-configured',
      `${parsed.invalid} must be a positive whole number (or unset, for its default); submissions are refused until it is fixed.`,
    );
  return parsed.limits;
}

/**
 * What a candidate has submitted so far, in one statement over their submissions (the
 * `submissions_candidate_created_idx` index): to this milestone, in the last 24 hours, and in
 * bytes. The count is checked before the insert, so a parallel burst can pass a limit by the
 * requests in flight; the per-user rate limit bounds that.
 */
async function submissionUsage(
  db: Database,
  candidateId: string,
  milestoneId: string,
  now: Date,
): Promise<SubmissionUsage> {
  const dayAgo = now.getTime() - 24 * 60 * 60 * 1000;
  const row = await db.$client
    .prepare(
      `SELECT
         coalesce(sum(milestone_id = ?2), 0) AS for_milestone,
         coalesce(sum(created_at > ?3), 0) AS last_day,
         min(CASE WHEN created_at > ?3 THEN created_at END) AS oldest_in_last_day,
         coalesce(sum(storage_bytes), 0) AS stored_bytes
       FROM submissions WHERE candidate_id = ?1`,
    )
    .bind(candidateId, milestoneId, dayAgo)
    .first<{
      for_milestone: number;
      last_day: number;
      oldest_in_last_day: number | null;
      stored_bytes: number;
    }>();
  return {
    forMilestone: row?.for_milestone ?? 0,
    lastDay: row?.last_day ?? 0,
    oldestInLastDay: row?.oldest_in_last_day ? new Date(row.oldest_in_last_day) : null,
    storedBytes: row?.stored_bytes ?? 0,
  };
}

/**
 * Stores a submission for a milestone of a published brief, with its fingerprints (so later
 * work is checked against it) and a pending evaluation. Returns what the caller needs to run
 * the evaluation after the response: whether the candidate consented to AI evaluation.
 * Null when the milestone does not exist (or its brief is a draft).
 */
/** When each of these submissions was made (ms since the epoch), in chunks D1's parameter limit allows. */
async function submittedAt(db: Database, ids: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < ids.length; i += 90) {
    const rows = await db
      .select({ id: submissions.id, createdAt: submissions.createdAt })
      .from(submissions)
      .where(inArray(submissions.id, ids.slice(i, i + 90)));
    for (const r of rows) out.set(r.id, r.createdAt.getTime());
  }
  return out;
}

export async function createSubmission(
  db: Database,
  candidateId: string,
  input: SubmissionInput,
  limits: StorageLimits,
  /** Where the fingerprints go: `corpusFor(env)` (sharded when FINGERPRINT_SHARDS is set). */
  corpus: FingerprintCorpus,
  /**
   * Where the evaluation runs: given, at once in this isolate after the response (the candidate
   * gets the receipt now; the sweeper runs it again if the isolate dies first). Without it the job
   * waits for the sweeper or a caller.
   */
  effects?: Effects<Env>,
) {
  const [target] = await db
    .select({ milestone: milestones, briefState: briefs.state, issuer: organisations.verification })
    .from(milestones)
    .innerJoin(briefs, eq(briefs.id, milestones.briefId))
    .leftJoin(organisations, eq(organisations.id, briefs.organisationId))
    .where(eq(milestones.id, input.milestoneId))
    .limit(1);
  if (!target || target.briefState === 'draft') return null;
  if (target.briefState !== 'published')
    throw new ProblemError('conflict', 'This brief is closed to new submissions.');
  // Work for an issuer the platform stopped standing behind could earn nothing valid.
  if (target.issuer === 'suspended' || target.issuer === 'rejected')
    throw new ProblemError(
      'conflict',
      `The organisation behind this brief is ${target.issuer} by the platform: it takes no submissions meanwhile.`,
    );
  const now = new Date();
  // Storage limits, checked before anything is written (docs/security.md → Storage).
  const material = {
    ...(input.text ? { text: input.text } : {}),
    ...(input.files ? { files: input.files } : {}),
  };
  const contentBytes = submissionContentBytes(input);
  // The work enters the integrity corpus only with the candidate's `integrity_corpus` consent
  // (DPDP §6; docs/data-rights.md), and fingerprinting is only worth doing for a submission that
  // is not refused for its size.
  const [aiConsent, corpusConsent] = await Promise.all([
    hasConsent(db, candidateId, 'ai_evaluation'),
    hasConsent(db, candidateId, 'integrity_corpus'),
  ]);
  const prints =
    !corpusConsent || contentBytes > limits.submissionMaxBytes
      ? []
      : fingerprintsToStore(material, limits.fingerprintsPerSubmission);
  const storageBytes = storageCost(contentBytes, prints.length);
  const refusal = checkSubmissionQuota(
    limits,
    await submissionUsage(db, candidateId, input.milestoneId, now),
    contentBytes,
    storageBytes,
    now,
  );
  if (refusal) {
    throw refusal.status === 413
      ? new ProblemError('payload-too-large', refusal.detail)
      : new ProblemError('submission-limit-reached', refusal.detail, {
          ...(refusal.retryAfterSeconds
            ? { headers: { 'Retry-After': String(refusal.retryAfterSeconds) } }
            : {}),
        });
  }
  const submissionId = crypto.randomUUID();
  const evaluationId = crypto.randomUUID();
  const jobId = aiConsent ? crypto.randomUUID() : null;
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
      storageBytes,
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
    // The evaluation's job, in the same batch: if the isolate dies before it runs, the sweeper runs it.
    ...(jobId
      ? [
          jobInsert(
            db,
            {
              id: jobId,
              kind: EVALUATION_JOB,
              payload: { submissionId } satisfies EvaluationPayload,
              ref: evaluationId,
              subjectId: candidateId,
            },
            now,
          ),
        ]
      : []),
  ]);
  if (prints.length > 0) await corpus.store(submissionId, candidateId, prints);
  await recordAudit(db, {
    actorId: candidateId,
    action: 'submission.created',
    targetType: 'submission',
    targetId: submissionId,
  });
  if (jobId && effects) await afterCommit(db, effects.env, { run: [jobId] }, effects);
  return { submissionId, evaluationId, aiConsent, jobId };
}

/** The payload of an `evaluation` job. */
export type EvaluationPayload = { submissionId: string };

export const EVALUATION_JOB = 'evaluation';

/** What a failed evaluation tells the people who see it (the error itself is logged). */
export const EVALUATION_FAILED =
  'The evaluation could not be completed because of an error on our side. Your submission is kept; submit again to have it evaluated.';

/**
 * The AI evaluation (an `evaluation` job, run after the response): integrity check, then rubric
 * scoring. submitted → evaluating → evaluated; the evaluation ends completed, or failed with a
 * reason (the employer can still rate either way).
 *
 * Idempotent, for the job runner: an evaluation that is no longer `pending` is left alone, and
 * the result is written only while it still is, in one batch with the submission's state, so a
 * second run (a redelivery, a lease that expired mid-run) changes nothing. `step` marks the
 * points between steps (fault injection in tests).
 */
export async function evaluateSubmission(
  db: Database,
  engine: PillarEngine,
  /** The corpus the integrity check reads: `corpusFor(env)`. */
  corpus: FingerprintCorpus,
  submissionId: string,
  step: (name: string) => Promise<void> = async () => {},
): Promise<string[]> {
  const [row] = await db
    .select({
      submission: submissions,
      brief: briefs,
      rubric: rubrics,
      email: users.email,
      evaluation: { id: evaluations.id, state: evaluations.state },
    })
    .from(submissions)
    .innerJoin(briefs, eq(briefs.id, submissions.briefId))
    .innerJoin(rubrics, eq(rubrics.briefId, submissions.briefId))
    .innerJoin(users, eq(users.id, submissions.candidateId))
    .innerJoin(evaluations, eq(evaluations.submissionId, submissions.id))
    .where(eq(submissions.id, submissionId))
    .limit(1);
  // Gone (the candidate was erased) or already evaluated: nothing to do.
  if (row?.evaluation.state !== 'pending') return [];
  const { submission, brief, rubric } = row;
  // The candidate (or a child's guardian) may have withdrawn `ai_evaluation` since submitting
  // (DPDP §6(4), §6(6)): a job that runs afterwards (a retry, the sweeper, a backlog) does not
  // send the work to the model. The submission goes to the employer un-evaluated, as one made
  // without consent does.
  if (!(await hasConsent(db, submission.candidateId, 'ai_evaluation'))) {
    await withoutAiEvaluation(db, submissionId, row.evaluation.id);
    return [];
  }
  await db
    .update(submissions)
    .set({ state: 'evaluating', updatedAt: new Date() })
    .where(and(eq(submissions.id, submissionId), eq(submissions.state, 'submitted')));
  await step('evaluating');
  let outcome: Partial<typeof evaluations.$inferInsert>;
  try {
    const material = {
      ...(submission.text ? { text: submission.text } : {}),
      ...(submission.files ? { files: submission.files } : {}),
    };
    const integrity = await checkIntegrity(
      corpus,
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
        // Someone who copied this candidate's earlier work is not a source they copied.
        authorship: { submittedAt: (ids) => submittedAt(db, ids), checkedAt: submission.createdAt.getTime() },
      },
    );
    const scored = await engine.scoreSubmission(
      { criteria: rubric.criteria, passThreshold: rubric.passThreshold },
      material,
    );
    outcome = {
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
    };
  } catch (err) {
    // The candidate (and, once rated, the employer) read the reason: a fixed sentence, never the
    // error itself (a database message names tables and columns). The error goes to the log.
    log('error', 'evaluation failed', { submissionId, error: String(err) });
    outcome = { state: 'failed', failureReason: EVALUATION_FAILED };
  }
  await step('scored');
  // Withdrawn while the model was working: the result is not kept.
  if (!(await hasConsent(db, submission.candidateId, 'ai_evaluation'))) {
    await withoutAiEvaluation(db, submissionId, row.evaluation.id);
    return [];
  }
  // One transaction: the submission's state, the result (only while the evaluation is still
  // pending, so a second run writes nothing), and its audit entry only if the result was written
  // (`changes()` is the row count of the statement before it).
  const now = new Date();
  const raw = (q: { toSQL(): { sql: string; params: unknown[] } }) => {
    const { sql: text, params } = q.toSQL();
    return db.$client.prepare(text).bind(...params);
  };
  // The webhook event (keyed by the evaluation, so a second run adds nothing): in the same batch.
  const hooks = await evaluationCompletedEvent(
    db,
    {
      organisationId: brief.organisationId,
      evaluationId: row.evaluation.id,
      submissionId,
      briefId: brief.id,
      milestoneId: submission.milestoneId,
      state: outcome.state === 'completed' ? 'completed' : 'failed',
    },
    now,
  );
  await db.$client.batch([
    raw(
      db
        .update(submissions)
        .set({ state: 'evaluated', updatedAt: now })
        .where(and(eq(submissions.id, submissionId), eq(submissions.state, 'evaluating'))),
    ),
    raw(
      db
        .update(evaluations)
        .set({ ...outcome, completedAt: now })
        .where(and(eq(evaluations.id, row.evaluation.id), eq(evaluations.state, 'pending'))),
    ),
    db.$client
      .prepare(
        `INSERT INTO audit_log (id, actor_id, action, target_type, target_id, created_at)
         SELECT ?1, NULL, ?2, 'evaluation', ?3, ?4 WHERE changes() > 0`,
      )
      .bind(crypto.randomUUID(), `evaluation.${outcome.state}`, row.evaluation.id, now.getTime()),
    ...hooks.statements.map(raw),
  ]);
  await step('written');
  return hooks.jobIds;
}

/**
 * Ends a pending evaluation without AI (the candidate withdrew `ai_evaluation` before it ran):
 * the evaluation is completed with `aiEvaluated: false` and nothing scored, the submission goes to
 * the employer, as one made without consent does. One transaction, only while the evaluation is
 * still pending (a second run writes nothing), with an audit entry saying why.
 */
async function withoutAiEvaluation(db: Database, submissionId: string, evaluationId: string): Promise<void> {
  const now = new Date();
  const raw = (q: { toSQL(): { sql: string; params: unknown[] } }) => {
    const { sql: text, params } = q.toSQL();
    return db.$client.prepare(text).bind(...params);
  };
  await db.$client.batch([
    raw(
      db
        .update(submissions)
        .set({ state: 'evaluated', updatedAt: now })
        .where(
          and(eq(submissions.id, submissionId), inArray(submissions.state, ['submitted', 'evaluating'])),
        ),
    ),
    raw(
      db
        .update(evaluations)
        .set({
          state: 'completed',
          aiEvaluated: false,
          criterionScores: null,
          overallScore: null,
          verdict: null,
          engine: null,
          integrity: null,
          failureReason: null,
          completedAt: now,
        })
        .where(and(eq(evaluations.id, evaluationId), eq(evaluations.state, 'pending'))),
    ),
    db.$client
      .prepare(
        `INSERT INTO audit_log (id, actor_id, action, target_type, target_id, details, created_at)
         SELECT ?1, NULL, 'evaluation.not_evaluated', 'evaluation', ?2, ?3, ?4 WHERE changes() > 0`,
      )
      .bind(
        crypto.randomUUID(),
        evaluationId,
        JSON.stringify({ reason: 'ai_evaluation consent withdrawn before the evaluation ran' }),
        now.getTime(),
      ),
  ]);
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

/** The stored integrity summary as the API shows it (null when none was stored or it is malformed). */
function integritySummary(stored: Record<string, unknown> | null) {
  if (!stored) return null;
  const { score, verdict, plagiarismRisk, aiContentRisk, vcsHistoryRisk } = stored;
  if (
    typeof score !== 'number' ||
    (verdict !== 'clean' && verdict !== 'review' && verdict !== 'flagged') ||
    typeof plagiarismRisk !== 'number' ||
    typeof aiContentRisk !== 'number' ||
    typeof vcsHistoryRisk !== 'number'
  )
    return null;
  return { score, verdict, plagiarismRisk, aiContentRisk, vcsHistoryRisk } as const;
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
    // Who did the work, not how good it is: the employer sees it before rating (docs/decisions/0011-workflow.md).
    integrity:
      evaluation.aiEvaluated && evaluation.state === 'completed'
        ? integritySummary(evaluation.integrity)
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

/**
 * The submissions to a brief, for its employer: blind (no AI verdict) until each is rated. Not
 * those of a candidate who asked for erasure (disabled from the 202 on, before the cascade runs).
 */
export async function submissionsForBrief(db: Database, briefId: string, limit: number, after?: Position) {
  const conditions = [eq(submissions.briefId, briefId), isNull(users.disabledAt)];
  if (after) {
    conditions.push(olderThan(submissions, after));
  }
  return joinedSubmissions(db, { candidateName: users.name })
    .innerJoin(users, eq(users.id, submissions.candidateId))
    .where(and(...conditions))
    .orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(limit + 1);
}

/** A submission as the employer who owns the brief sees it: the AI verdict hidden until rated. */
export const briefSubmissionView = (row: Awaited<ReturnType<typeof submissionsForBrief>>[number]) => ({
  id: row.submission.id,
  milestoneId: row.submission.milestoneId,
  milestoneTitle: row.milestoneTitle,
  state: row.submission.state,
  candidate: { name: row.candidateName },
  text: row.submission.text,
  files: row.submission.files ?? [],
  repositoryUrl: row.submission.repositoryUrl,
  commits: row.submission.commits ?? [],
  createdAt: row.submission.createdAt.toISOString(),
  evaluationId: row.evaluation?.id ?? null,
  evaluation: row.evaluation ? evaluationView(row.evaluation, row.rating !== null, 'employer') : null,
  rating: row.rating ? ratingView(row.rating) : null,
});
