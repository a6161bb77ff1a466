/**
 * Emitting webhook events from where a change commits (docs/webhooks.md → Events). The caller
 * adds the returned statements to its own D1 batch, so the event exists exactly when the change
 * does (the jobs outbox, docs/reliability.md), then hands `jobIds` to `dispatchJobs`:
 *
 * ```ts
 * const hooks = await webhookEvent(db, { organisationId, type: 'certificate.revoked', ref: id, data });
 * await db.batch([change, ...hooks.statements]);
 * await dispatchJobs(env, hooks.jobIds);
 * ```
 *
 * The event row and a `webhook_fanout` job are keyed by (organisation, type, ref): emitting the
 * same event twice (a retried job, a racing request) records and delivers it once. Nothing is
 * written when the organisation has no enabled endpoint for the type. Payloads are ids and
 * states only: never names, emails or submitted work.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../../db/client';
import { type WebhookEventType, webhookEndpoints, webhookEvents } from '../../db/schema';
import { jobInsert } from '../jobs/jobs';

export const WEBHOOK_FANOUT_JOB = 'webhook_fanout';
export const WEBHOOK_DELIVERY_JOB = 'webhook_delivery';

export type Emitted = { statements: BatchItem<'sqlite'>[]; jobIds: string[] };
export const NOTHING_EMITTED: Emitted = { statements: [], jobIds: [] };

/** The body every receiver gets (the Standard Webhooks convention): type, time, data. */
export type WebhookPayload = { type: string; timestamp: string; data: Record<string, unknown> };

export const newEventId = () => `msg_${crypto.randomUUID().replaceAll('-', '')}`;

/** Whether the organisation has an enabled endpoint subscribed to the type. */
export async function hasSubscribers(db: Database, organisationId: string, type: WebhookEventType) {
  const [row] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.organisationId, organisationId),
        eq(webhookEndpoints.enabled, true),
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
export async function webhookEvent(
  db: Database,
  event: {
    organisationId: string | null | undefined;
    type: WebhookEventType;
    /** What the event is about (unique per organisation and type). */
    ref: string;
    data: Record<string, unknown>;
  },
  now = new Date(),
): Promise<Emitted> {
  const { organisationId, type, ref } = event;
  if (!organisationId || !(await hasSubscribers(db, organisationId, type))) return NOTHING_EMITTED;
  const id = newEventId();
  const jobId = crypto.randomUUID();
  const payload: WebhookPayload = { type, timestamp: now.toISOString(), data: event.data };
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
