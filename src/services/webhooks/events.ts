/**
 * Emitting webhook events from where a change commits (docs/webhooks.md → Events). The caller
 * adds the returned statements to its own D1 batch, so the event exists exactly when the change
 * does (the jobs outbox, docs/reliability.md), then hands `jobIds` to `dispatchJobs`:
 *
 * ```ts
 * const hooks = await webhookEvent(db, { organisationId, type: 'certificate.revoked', ref: id, data });
 * await db.batch([change, ...hooks.statements]);
 * await dispatchJobs(db, env, hooks.jobIds);
 * ```
 *
 * The event row and a `webhook_fanout` job are keyed by (organisation, type, ref): emitting the
 * same event twice (a retried job, a racing request) records and delivers it once. Nothing is
 * written when the organisation has no endpoint for the type; a disabled endpoint counts (its
 * delivery is recorded, to be redelivered once it is enabled again). Payloads are ids and states
 * only: never names, emails or submitted work.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../../db/client';
import {
  briefs,
  certificates,
  submissions,
  type WebhookEventType,
  webhookEndpoints,
  webhookEvents,
} from '../../db/schema';
import type { WebhookEvent, WebhookEventData, WebhookEventOf } from '../../domain/webhooks/event-schemas';
import { jobInsert } from '../jobs/jobs';

export const WEBHOOK_FANOUT_JOB = 'webhook_fanout';
export const WEBHOOK_DELIVERY_JOB = 'webhook_delivery';

/** Statements for a drizzle `db.batch`, or (via `toSQL`) a raw `d1.batch`. */
export type EmittedStatement = BatchItem<'sqlite'> & { toSQL(): { sql: string; params: unknown[] } };
export type Emitted = { statements: EmittedStatement[]; jobIds: string[] };
export const NOTHING_EMITTED: Emitted = { statements: [], jobIds: [] };

/**
 * The body every receiver gets (the Standard Webhooks convention): type, time, data. One of the
 * `WebhookEvent` schemas (src/domain/webhooks/event-schemas.ts, published in openapi.yaml): a
 * builder whose payload drifts from its schema does not compile.
 */
export type WebhookPayload = WebhookEvent;

export const newEventId = () => `msg_${crypto.randomUUID().replaceAll('-', '')}`;

/**
 * Whether the organisation has an endpoint subscribed to the type, enabled or not: events raised
 * while an endpoint is disabled are kept in its log, to be redelivered when it is enabled again.
 */
export async function hasSubscribers(db: Database, organisationId: string, type: WebhookEventType) {
  const [row] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.organisationId, organisationId),
        sql`exists (select 1 from json_each(${webhookEndpoints.eventTypes}) where json_each.value = ${type})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * The statements that record one event for one organisation and fan it out to its endpoints.
 * Empty when the organisation is null or has no endpoint for the type.
 */
export async function webhookEvent<T extends WebhookEventType>(
  db: Database,
  event: {
    organisationId: string | null | undefined;
    type: T;
    /** What the event is about (unique per organisation and type). */
    ref: string;
    data: WebhookEventData<T>;
  },
  now = new Date(),
): Promise<Emitted> {
  const { organisationId, type, ref } = event;
  if (!organisationId || !(await hasSubscribers(db, organisationId, type))) return NOTHING_EMITTED;
  const id = newEventId();
  const jobId = crypto.randomUUID();
  // `type` and `data` were checked together by the signature; TypeScript cannot follow a generic
  // type into the union.
  const payload = { type, timestamp: now.toISOString(), data: event.data } as WebhookEventOf<T>;
  return {
    statements: [
      db
        .insert(webhookEvents)
        .values({ id, organisationId, type, ref, payload, createdAt: now })
        .onConflictDoNothing(),
      jobInsert(
        db,
        {
          id: jobId,
          kind: WEBHOOK_FANOUT_JOB,
          payload: { eventId: id },
          ref: `${organisationId}:${type}:${ref}`,
        },
        now,
      ).onConflictDoNothing(),
    ],
    jobIds: [jobId],
  };
}

/** Several emissions as one. */
export function combine(...all: Emitted[]): Emitted {
  return { statements: all.flatMap((e) => e.statements), jobIds: all.flatMap((e) => e.jobIds) };
}

// --- The events, one builder each, so every payload is ids and states only.

export function evaluationCompletedEvent(
  db: Database,
  e: { organisationId: string | null } & WebhookEventData<'evaluation.completed'>,
  now = new Date(),
) {
  // No score or verdict: the organisation's own rating is blind to the AI's until it is made.
  return webhookEvent(
    db,
    {
      organisationId: e.organisationId,
      type: 'evaluation.completed',
      ref: e.evaluationId,
      data: {
        evaluationId: e.evaluationId,
        submissionId: e.submissionId,
        briefId: e.briefId,
        milestoneId: e.milestoneId,
        state: e.state,
      },
    },
    now,
  );
}

export function submissionRatedEvent(
  db: Database,
  e: { organisationId: string } & WebhookEventData<'submission.rated'>,
  now = new Date(),
) {
  const { organisationId, ...data } = e;
  return webhookEvent(db, { organisationId, type: 'submission.rated', ref: e.submissionId, data }, now);
}

export function certificateEvent(
  db: Database,
  type: 'certificate.issued' | 'certificate.revoked',
  c: { id: string; certificateNo: string; organisationId: string | null; briefId: string },
  now = new Date(),
) {
  return webhookEvent(
    db,
    {
      organisationId: c.organisationId,
      type,
      ref: c.id,
      data: {
        certificateId: c.id,
        certificateNo: c.certificateNo,
        briefId: c.briefId,
        status: type === 'certificate.issued' ? 'active' : 'revoked',
        at: now.toISOString(),
      },
    },
    now,
  );
}

/**
 * `dsr.erasure.completed`, in two halves. Before the cascade deletes anything, the organisations
 * that hold the person's data (submissions to their briefs, certificates they issued) are
 * recorded, each with the ids it holds, as events not yet sent. When the cascade completes,
 * `releaseErasureEvents` gives the batch that marks it complete their fan-out jobs. The ids are
 * the records to erase on the organisation's side; no name, email or account id.
 */
export async function recordErasureEvents(db: Database, requestId: string, userId: string, now = new Date()) {
  const held = await db
    .select({ organisationId: briefs.organisationId, submissionId: submissions.id })
    .from(submissions)
    .innerJoin(briefs, eq(briefs.id, submissions.briefId))
    .where(eq(submissions.candidateId, userId));
  const certs = await db
    .select({
      organisationId: certificates.organisationId,
      id: certificates.id,
      no: certificates.certificateNo,
    })
    .from(certificates)
    .where(eq(certificates.holderId, userId));
  const byOrganisation = new Map<string, WebhookEventData<'dsr.erasure.completed'>>();
  const entry = (id: string) => {
    const found = byOrganisation.get(id);
    if (found) return found;
    const created: WebhookEventData<'dsr.erasure.completed'> = {
      submissionIds: [],
      certificateIds: [],
      certificateNumbers: [],
    };
    byOrganisation.set(id, created);
    return created;
  };
  for (const h of held) if (h.organisationId) entry(h.organisationId).submissionIds.push(h.submissionId);
  for (const c of certs)
    if (c.organisationId) {
      entry(c.organisationId).certificateIds.push(c.id);
      entry(c.organisationId).certificateNumbers.push(c.no);
    }
  for (const [organisationId, data] of byOrganisation) {
    if (!(await hasSubscribers(db, organisationId, 'dsr.erasure.completed'))) continue;
    const payload: WebhookPayload = { type: 'dsr.erasure.completed', timestamp: now.toISOString(), data };
    await db
      .insert(webhookEvents)
      .values({
        id: newEventId(),
        organisationId,
        type: 'dsr.erasure.completed',
        ref: requestId,
        payload,
        createdAt: now,
      })
      .onConflictDoNothing();
  }
}

/** The statements that send the recorded erasure events, for the batch that completes the erasure. */
export async function releaseErasureEvents(
  db: Database,
  requestId: string,
  now = new Date(),
): Promise<Emitted> {
  const events = await db
    .select({ id: webhookEvents.id, organisationId: webhookEvents.organisationId })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.type, 'dsr.erasure.completed'), eq(webhookEvents.ref, requestId)));
  if (events.length === 0) return NOTHING_EMITTED;
  const jobs = events.map((e) => ({ ...e, jobId: crypto.randomUUID() }));
  return {
    statements: [
      db
        .update(webhookEvents)
        .set({ payload: sql`json_set(${webhookEvents.payload}, '$.timestamp', ${now.toISOString()})` })
        .where(and(eq(webhookEvents.type, 'dsr.erasure.completed'), eq(webhookEvents.ref, requestId))),
      ...jobs.map((j) =>
        jobInsert(
          db,
          {
            id: j.jobId,
            kind: WEBHOOK_FANOUT_JOB,
            payload: { eventId: j.id },
            ref: `${j.organisationId}:dsr.erasure.completed:${requestId}`,
          },
          now,
        ).onConflictDoNothing(),
      ),
    ],
    jobIds: jobs.map((j) => j.jobId),
  };
}
