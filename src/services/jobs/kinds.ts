/**
 * The job kinds this service runs. To add one: write its handler (a `JobKind`: `parse`, an
 * idempotent `run`, optionally `redact` and `maxAgeSeconds`), register it here, and create jobs
 * with `jobInsert` in the batch of the change that asks for the work, then `dispatchJobs`.
 * Kinds the open issues will add: `certificate_issuance`, `webhook_delivery`, `export`,
 * `breach_notification`, `retention_erasure`.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { userNotices, users } from '../../db/schema';
import { EMAIL_JOB } from '../breaches';
import { ERASURE_JOB, type ErasurePayload, runErasureCascade } from '../dsr/erasure';
import {
  purgeLater,
  purgeOrganisationPage,
  VERIFICATION_PURGE_JOB,
  type VerificationPurgePayload,
} from '../dsr/public-views';
import { CERTIFICATE_ISSUANCE_JOB, type IssuancePayload, onOrganisationVerified } from '../issuance';
import { sendMail } from '../mail';
import { pillarEngine } from '../pillars';
import { EVALUATION_JOB, type EvaluationPayload, evaluateSubmission } from '../workflow/submissions';
import { registerJobKind } from './registry';

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const record = (v: unknown) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});

/** The erasure cascade. Stalls after a day (the statutory due date is 30 days) so a person sees it in time. */
export const erasureJob = registerJobKind<ErasurePayload>({
  kind: ERASURE_JOB,
  parse: (payload) => {
    const { requestId, userId } = record(payload);
    return isString(requestId) && isString(userId) ? { requestId, userId } : null;
  },
  run: async (payload, { env, now, step }) => {
    await runErasureCascade(payload, env, now, step);
  },
  // Once done, only the request id (which the person holds) remains: no user id.
  redact: ({ requestId }) => ({ requestId }),
  maxAgeSeconds: 24 * 60 * 60,
});

/** The AI evaluation of a new submission (integrity check and rubric scoring). */
export const evaluationJob = registerJobKind<EvaluationPayload>({
  kind: EVALUATION_JOB,
  parse: (payload) => {
    const { submissionId } = record(payload);
    return isString(submissionId) ? { submissionId } : null;
  },
  run: async ({ submissionId }, { env, db, step }) => {
    await evaluateSubmission(env.DB, db, pillarEngine(env), submissionId, step);
  },
  maxAgeSeconds: 6 * 60 * 60,
});

/**
 * Certificates that waited for their organisation's verification (`pending_issuer`), signed once
 * it is verified. Written in the same batch as the verification; idempotent (only waiting rows change).
 */
export const certificateIssuanceJob = registerJobKind<IssuancePayload>({
  kind: CERTIFICATE_ISSUANCE_JOB,
  parse: (payload) => {
    const { organisationId } = record(payload);
    return isString(organisationId) ? { organisationId } : null;
  },
  run: async ({ organisationId }, { env, db, now }) => {
    await onOrganisationVerified(env, db, organisationId, now);
  },
  maxAgeSeconds: 6 * 60 * 60,
});

/**
 * The email outbox: delivers one in-app notice by email (src/services/mail.ts). Idempotent: a
 * notice already emailed is not sent again; a notice (or person) erased meanwhile sends nothing.
 */
export const emailJob = registerJobKind<{ noticeId: string }>({
  kind: EMAIL_JOB,
  parse: (payload) => {
    const { noticeId } = record(payload);
    return isString(noticeId) ? { noticeId } : null;
  },
  run: async ({ noticeId }, { env, db, now }) => {
    const [row] = await db
      .select({ to: users.email, subject: userNotices.title, text: userNotices.body })
      .from(userNotices)
      .innerJoin(users, eq(users.id, userNotices.userId))
      .where(and(eq(userNotices.id, noticeId), isNull(userNotices.emailedAt)))
      .limit(1);
    if (!row) return;
    await sendMail(env, row);
    await db.update(userNotices).set({ emailedAt: now }).where(eq(userNotices.id, noticeId));
  },
  maxAgeSeconds: 24 * 60 * 60,
});

/**
 * One page of an organisation's cached verifications dropped (`forgetOrganisationViews` did the
 * first); the next page, if any, is a job of its own, so each stays within one invocation's KV
 * operations. Idempotent: deleting a cache entry twice is harmless.
 */
export const verificationPurgeJob = registerJobKind<VerificationPurgePayload>({
  kind: VERIFICATION_PURGE_JOB,
  parse: (payload) => {
    const { organisationId, after } = record(payload);
    return isString(organisationId) && isString(after) ? { organisationId, after } : null;
  },
  run: async (payload, { env, now }) => {
    const next = await purgeOrganisationPage(env, payload);
    if (next) await purgeLater(env, { organisationId: payload.organisationId, after: next }, now);
  },
  maxAgeSeconds: 6 * 60 * 60,
});
