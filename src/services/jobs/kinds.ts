/**
 * The job kinds this service runs. To add one: write its handler (a `JobKind`: `parse`, an
 * idempotent `run`, optionally `redact` and `maxAgeSeconds`), register it here, and create jobs
 * with `jobInsert` in the batch of the change that asks for the work, then `dispatchJobs`.
 * Kinds the open issues will add: `certificate_issuance`, `webhook_delivery`, `export`,
 * `breach_notification`, `retention_erasure`.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { userNotices, users } from '../../db/schema';
import {
  BREACH_NOTIFICATION_JOB,
  type BreachNotificationPayload,
  EMAIL_JOB,
  notifyBreachPage,
} from '../breaches';
import { CREDENTIAL_RESIGN_JOB, type CredentialResignPayload } from '../consent';
import { corpusFor } from '../corpus';
import { ERASURE_JOB, type ErasurePayload, runErasureCascade } from '../dsr/erasure';
import { buildExport, EXPORT_JOB, type ExportPayload } from '../dsr/export-job';
import {
  purgeLater,
  purgeOrganisationPage,
  VERIFICATION_PURGE_JOB,
  type VerificationPurgePayload,
} from '../dsr/public-views';
import { CERTIFICATE_ISSUANCE_JOB, type IssuancePayload, onOrganisationVerified } from '../issuance/issue';
import { resignForPublicVerification } from '../issuance/resign';
import { sendMail } from '../mail';
import { pillarEngine } from '../pillars';
import { type DeliveryPayload, fanOut, runDeliveryAttempt } from '../webhooks/delivery';
import { WEBHOOK_DELIVERY_JOB, WEBHOOK_FANOUT_JOB } from '../webhooks/events';
import { EVALUATION_JOB, type EvaluationPayload, evaluateSubmission } from '../workflow/submissions';
import { dispatchJobs } from './jobs';
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
  run: async (payload, { db, env, now, step }) => {
    await runErasureCascade(db, payload, env, now, step);
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
    const webhookJobs = await evaluateSubmission(db, pillarEngine(env), corpusFor(env), submissionId, step);
    await dispatchJobs(db, env, webhookJobs);
  },
  maxAgeSeconds: 6 * 60 * 60,
});

/** A large data export (right of access) built into R2 (src/services/dsr/export-job.ts). */
export const exportJob = registerJobKind<ExportPayload>({
  kind: EXPORT_JOB,
  parse: (payload) => {
    const { requestId, userId } = record(payload);
    return isString(requestId) && isString(userId) ? { requestId, userId } : null;
  },
  // One build at a time per queue batch (whose jobs otherwise run side by side): each holds up to
  // ~26 MB of pages in memory (JOB_PAGES), several at once could exceed the isolate's 128 MB.
  run: async (payload, { db, env, now, serial }) => {
    await serial(() => buildExport(db, env, payload, now));
  },
  redact: ({ requestId }) => ({ requestId }),
  maxAgeSeconds: 24 * 60 * 60,
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
    await onOrganisationVerified(db, env, organisationId, now);
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

/** A webhook event's fan-out: one delivery (and its first attempt's job) per subscribed endpoint. */
export const webhookFanoutJob = registerJobKind<{ eventId: string }>({
  kind: WEBHOOK_FANOUT_JOB,
  parse: (payload) => {
    const { eventId } = record(payload);
    return isString(eventId) ? { eventId } : null;
  },
  run: async ({ eventId }, { db, env, now }) => {
    await fanOut(db, env, eventId, now);
  },
  maxAgeSeconds: 24 * 60 * 60,
});

/**
 * One attempt of a webhook delivery (src/services/webhooks/delivery.ts). A failed attempt is not
 * a job failure: it is recorded, and the next attempt is a new job due at the backoff's time.
 * The job throws (and the queue retries it) only when recording fails.
 */
export const webhookDeliveryJob = registerJobKind<DeliveryPayload>({
  kind: WEBHOOK_DELIVERY_JOB,
  parse: (payload) => {
    const { deliveryId, attempt, manual } = record(payload);
    return isString(deliveryId) && typeof attempt === 'number' && Number.isInteger(attempt) && attempt >= 1
      ? { deliveryId, attempt, manual: manual === true }
      : null;
  },
  run: async (payload, { db, env, now, step }) => {
    await runDeliveryAttempt(db, env, payload, now, step);
  },
  maxAgeSeconds: 24 * 60 * 60,
});

/**
 * A breach's affected people chosen by a selector, notified a page at a time: each page writes
 * its notices, their email jobs and the next page's job in one batch (src/services/breaches.ts).
 */
export const breachNotificationJob = registerJobKind<BreachNotificationPayload>({
  kind: BREACH_NOTIFICATION_JOB,
  parse: (payload) => {
    const { breachId, after } = record(payload);
    return isString(breachId) && (after === null || isString(after)) ? { breachId, after } : null;
  },
  run: async (payload, { env, db, now }) => {
    await notifyBreachPage(db, env, payload, now);
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
  run: async (payload, { db, env, now }) => {
    const next = await purgeOrganisationPage(db, env, payload);
    if (next) await purgeLater(db, env, { organisationId: payload.organisationId, after: next }, now);
  },
  maxAgeSeconds: 6 * 60 * 60,
});

/**
 * A holder's credentials signed again after a `public_verification` grant or withdrawal, so they
 * carry the `identifier` the holder asked for only while that consent stands (src/services/consent.ts,
 * `resignForPublicVerification`). Idempotent: each run signs per the ledger and setting it reads;
 * re-signing purges the cached verifications.
 */
export const credentialResignJob = registerJobKind<CredentialResignPayload>({
  kind: CREDENTIAL_RESIGN_JOB,
  parse: (payload) => {
    const { holderId } = record(payload);
    return isString(holderId) ? { holderId } : null;
  },
  run: async ({ holderId }, { env, db }) => {
    await resignForPublicVerification(db, env, holderId);
  },
  maxAgeSeconds: 6 * 60 * 60,
});

import '../email-confirmations';
