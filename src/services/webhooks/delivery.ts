/**
 * Delivering webhook events (docs/webhooks.md → Delivery). Two job kinds (src/services/jobs/kinds.ts):
 *
 * - `webhook_fanout` {eventId}: one delivery per subscribed endpoint of the event's organisation,
 *   each with the job of its first attempt; a disabled endpoint's delivery is recorded `failed`
 *   without an attempt, so it can be redelivered once the endpoint is enabled again;
 * - `webhook_delivery` {deliveryId, attempt, manual?}: one HTTP attempt. Its outcome, the next
 *   attempt's job (at the backoff's time), the dead letter, and the endpoint's disabling after
 *   days of failures commit in one batch. A job for an attempt already made does nothing, so a
 *   redelivered message never sends twice what was recorded; a crash between the POST and the
 *   record sends it again (receivers deduplicate on `webhook-id`, as the spec asks).
 *
 * SSRF: the URL is checked again, the host resolved through DNS-over-HTTPS and every A/AAAA
 * answer checked, redirects are not followed (`redirect: 'manual'`; a 3xx is a failure).
 */
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../../db/client';
import {
  userNotices,
  users,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from '../../db/schema';
import {
  DELIVERY_TIMEOUT_MS,
  DISABLE_AFTER_FAILING_MS,
  MAX_ATTEMPTS,
  retryDelaySeconds,
} from '../../domain/webhooks/schedule';
import { webhookHeaders } from '../../domain/webhooks/signing';
import { checkTargetUrl, forbiddenAddressReason } from '../../domain/webhooks/targets';
import { olderThan, type Position } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import { auditInsert } from '../audit';
import { describeError, dispatchJobs, jobInsert } from '../jobs/jobs';
import { DEFAULT_DOH_RESOLVER } from '../organisations/domain-proof';
import { allowHttpLocalhost, type EndpointRow, ownEndpoint, signingSecrets } from './endpoints';
import { newEventId, WEBHOOK_DELIVERY_JOB, type WebhookPayload } from './events';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type EventRow = typeof webhookEvents.$inferSelect;
export type DeliveryPayload = { deliveryId: string; attempt: number; manual: boolean };

const USER_AGENT = 'VerificationPlatform-Webhooks/1';

/** The job of one attempt, for a batch. Its ref makes asking twice for the same attempt a no-op. */
export function deliveryJobInsert(db: Database, payload: DeliveryPayload, at: Date) {
  const id = crypto.randomUUID();
  return {
    id,
    statement: jobInsert(
      db,
      { id, kind: WEBHOOK_DELIVERY_JOB, payload, ref: `${payload.deliveryId}#${payload.attempt}` },
      at,
    ).onConflictDoNothing(),
  };
}

// --- Fan-out

/** `lastError` of a delivery recorded while its endpoint was disabled. */
export const ENDPOINT_DISABLED_ERROR =
  'The endpoint was disabled when the event was raised: not attempted. Enable it, then redeliver.';

/**
 * Creates the event's deliveries (one per subscribed endpoint) and their first attempts. A
 * disabled endpoint gets its delivery too, recorded `failed` and not attempted: it is in the
 * endpoint's log, to be redelivered once the endpoint is enabled again.
 */
export async function fanOut(db: Database, env: Pick<Env, 'JOBS_QUEUE'>, eventId: string, now = new Date()) {
  const [event] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, eventId)).limit(1);
  if (!event) return [];
  const endpoints = await db
    .select({ id: webhookEndpoints.id, enabled: webhookEndpoints.enabled })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.organisationId, event.organisationId),
        sql`exists (select 1 from json_each(${webhookEndpoints.eventTypes}) where json_each.value = ${event.type})`,
      ),
    );
  const jobIds: string[] = [];
  for (const endpoint of endpoints) {
    const deliveryId = crypto.randomUUID();
    if (!endpoint.enabled) {
      await db
        .insert(webhookDeliveries)
        .values({
          id: deliveryId,
          endpointId: endpoint.id,
          eventId,
          state: 'failed',
          lastError: ENDPOINT_DISABLED_ERROR,
          nextAttemptAt: null,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing();
      continue;
    }
    const job = deliveryJobInsert(db, { deliveryId, attempt: 1, manual: false }, now);
    // A second fan-out of the event finds the delivery there (the insert does nothing); the job it
    // adds then names no delivery and does nothing when it runs.
    await db.batch([
      db
        .insert(webhookDeliveries)
        .values({ id: deliveryId, endpointId: endpoint.id, eventId, nextAttemptAt: now, createdAt: now })
        .onConflictDoNothing(),
      job.statement,
    ]);
    jobIds.push(job.id);
  }
  await dispatchJobs(db, env, jobIds, now);
  return jobIds;
}

// --- One attempt

/** A/AAAA answers for a host through the DNS-over-HTTPS resolver (RFC 8484 JSON flavour). */
export async function resolveAddresses(env: Pick<Env, 'DOH_RESOLVER_URL'>, host: string): Promise<string[]> {
  const answers: string[] = [];
  for (const [type, code] of [
    ['A', 1],
    ['AAAA', 28],
  ] as const) {
    const url = new URL(env.DOH_RESOLVER_URL || DEFAULT_DOH_RESOLVER);
    url.searchParams.set('name', host);
    url.searchParams.set('type', type);
    const res = await fetch(url, { headers: { accept: 'application/dns-json' }, redirect: 'manual' });
    if (!res.ok) throw new Error(`the DNS resolver answered ${res.status}`);
    const body = await res.json<{ Status?: number; Answer?: { type?: number; data?: unknown }[] }>();
    for (const a of body.Answer ?? [])
      if (a.type === code && typeof a.data === 'string') answers.push(a.data);
  }
  return answers;
}

export type AttemptResult = {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
};

/** Why the target may not be reached now (the URL, or what its name resolves to), or null. */
async function refusedTarget(env: Env, endpoint: EndpointRow): Promise<string | null> {
  const check = checkTargetUrl(endpoint.url, { allowHttpLocalhost: allowHttpLocalhost(env) });
  if (!check.ok) return check.reason;
  if (!check.needsResolution) return null;
  let addresses: string[];
  try {
    addresses = await resolveAddresses(env, check.host);
  } catch (err) {
    return `DNS lookup failed: ${describeError(err)}`;
  }
  if (addresses.length === 0) return `${check.host} does not resolve.`;
  for (const address of addresses) {
    const why = forbiddenAddressReason(address);
    if (why) return `${check.host} resolves to a ${why} address (${address}); not delivered.`;
  }
  return null;
}

/** POSTs the event to the endpoint, signed; never follows a redirect. */
export async function attemptDelivery(
  env: Env,
  endpoint: EndpointRow,
  event: EventRow,
  now: Date,
): Promise<AttemptResult> {
  const refused = await refusedTarget(env, endpoint);
  if (refused) return { ok: false, statusCode: null, latencyMs: null, error: refused };
  const body = JSON.stringify(event.payload);
  const headers = {
    ...(await webhookHeaders(signingSecrets(endpoint, now), event.id, now, body)),
    'user-agent': USER_AGENT,
  };
  const started = Date.now();
  try {
    const res = await fetch(endpoint.url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    const latencyMs = Date.now() - started;
    await res.body?.cancel();
    if (res.status >= 200 && res.status < 300)
      return { ok: true, statusCode: res.status, latencyMs, error: null };
    const error =
      res.status >= 300 && res.status < 400
        ? `Redirect (${res.status}) not followed: webhook URLs must answer directly.`
        : `The endpoint answered ${res.status}.`;
    return { ok: false, statusCode: res.status, latencyMs, error };
  } catch (err) {
    const latencyMs = Date.now() - started;
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    return {
      ok: false,
      statusCode: null,
      latencyMs,
      error: timedOut
        ? `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s.`
        : `Request failed: ${describeError(err)}`,
    };
  }
}

/**
 * The `webhook_delivery` job: one attempt of a delivery, and what follows from its outcome.
 * Idempotent: an attempt already recorded (or a delivery gone) does nothing.
 */
export async function runDeliveryAttempt(
  db: Database,
  env: Env,
  payload: DeliveryPayload,
  now = new Date(),
  /** Marks the point between the POST and its record (fault injection in tests). */
  step: (name: string) => Promise<void> = async () => {},
): Promise<void> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: webhookEvents })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, payload.deliveryId))
    .limit(1);
  if (!row) return;
  const { delivery, endpoint, event } = row;
  if (delivery.attempts >= payload.attempt || delivery.state !== 'pending') return;

  const result: AttemptResult = endpoint.enabled
    ? await attemptDelivery(env, endpoint, event, now)
    : { ok: false, statusCode: null, latencyMs: null, error: 'The endpoint is disabled.' };
  await step('sent');
  const statements: BatchItem<'sqlite'>[] = [];
  const next: { id: string; at: Date; delay: number }[] = [];

  // A test ping is one attempt, never retried, and says nothing about the endpoint's health: it
  // neither starts nor ends the failure clock that disables an endpoint (events do).
  const isPing = event.type === 'webhook.ping';
  const oneShot = payload.manual || isPing;
  const countsForHealth = endpoint.enabled && !isPing;
  const failingSince = endpoint.failingSince ?? now;
  // This failure ends days of them: the endpoint is disabled, and the delivery is not retried.
  const disabling =
    countsForHealth && !result.ok && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS;
  const delay =
    !result.ok && !oneShot && endpoint.enabled && !disabling ? retryDelaySeconds(payload.attempt) : null;
  const state = result.ok
    ? 'succeeded'
    : delay !== null
      ? 'pending'
      : oneShot || !endpoint.enabled || disabling
        ? 'failed'
        : 'dead_lettered';
  const nextAt = delay !== null ? new Date(now.getTime() + delay * 1000) : null;

  statements.push(
    db
      .update(webhookDeliveries)
      .set({
        state,
        attempts: payload.attempt,
        lastStatusCode: result.statusCode,
        lastError: result.error,
        nextAttemptAt: nextAt,
        ...(result.ok ? { deliveredAt: now } : {}),
        ...(state === 'dead_lettered' ? { deadLetteredAt: now } : {}),
        updatedAt: now,
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.attempts, payload.attempt - 1))),
    db
      .insert(webhookAttempts)
      .values({
        deliveryId: delivery.id,
        attempt: payload.attempt,
        trigger: payload.manual ? 'manual' : 'scheduled',
        attemptedAt: now,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        error: result.error,
      })
      .onConflictDoNothing(),
  );
  if (nextAt && delay !== null) {
    const job = deliveryJobInsert(
      db,
      { deliveryId: delivery.id, attempt: payload.attempt + 1, manual: false },
      nextAt,
    );
    statements.push(job.statement);
    next.push({ id: job.id, at: nextAt, delay });
  }
  if (state === 'dead_lettered')
    statements.push(
      auditInsert(db, {
        actorId: null,
        action: 'webhook.dead_lettered',
        targetType: 'webhook_delivery',
        targetId: delivery.id,
        details: { endpointId: endpoint.id, eventId: event.id, attempts: payload.attempt },
      }),
    );

  if (countsForHealth) {
    if (result.ok) {
      statements.push(
        db.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id)),
      );
    } else {
      statements.push(
        db
          .update(webhookEndpoints)
          .set({ failingSince })
          .where(and(eq(webhookEndpoints.id, endpoint.id), isNull(webhookEndpoints.failingSince))),
      );
      if (disabling) statements.push(...(await disableFailingEndpoint(db, endpoint, failingSince, now)));
    }
  }
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
  await step('recorded');
  for (const n of next) await dispatchJobs(db, env, [n.id], n.at, n.delay);
}

/**
 * An endpoint that has failed every attempt for days: disabled, with an in-app notice to each
 * member of its organisation and an audit entry, in the batch of the attempt that found it.
 */
async function disableFailingEndpoint(db: Database, endpoint: EndpointRow, failingSince: Date, now: Date) {
  const members = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.organisationId, endpoint.organisationId), isNull(users.disabledAt)));
  const days = Math.floor((now.getTime() - failingSince.getTime()) / 86_400_000);
  const statements: BatchItem<'sqlite'>[] = [
    db
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: 'failing', disabledAt: now, updatedAt: now })
      .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.enabled, true))),
    auditInsert(db, {
      actorId: null,
      action: 'webhook_endpoint.disabled',
      targetType: 'webhook_endpoint',
      targetId: endpoint.id,
      details: {
        organisationId: endpoint.organisationId,
        failingSince: failingSince.toISOString(),
        reason: 'failing',
      },
    }),
  ];
  if (members.length > 0)
    statements.push(
      db
        .insert(userNotices)
        .values(
          members.map((m) => ({
            userId: m.id,
            kind: 'webhook' as const,
            ref: `${endpoint.id}:${now.toISOString()}`,
            title: 'A webhook endpoint was disabled after failing for days',
            body:
              `Every delivery to the webhook endpoint ${endpoint.url} (id ${endpoint.id}) has failed since ` +
              `${failingSince.toISOString()} (${days} days), so it has been disabled and receives nothing. Fix the ` +
              'receiver, then enable it again (PATCH /api/webhooks/{id} with {"enabled": true}) and redeliver what it ' +
              'missed from its delivery log.',
          })),
        )
        .onConflictDoNothing(),
    );
  return statements;
}

// --- On demand

/** A new attempt of a finished delivery (succeeded, failed or dead-lettered), now; 409 while one is pending. */
export async function redeliver(
  db: Database,
  env: Pick<Env, 'JOBS_QUEUE'>,
  organisationId: string,
  endpointId: string,
  deliveryId: string,
  now = new Date(),
): Promise<DeliveryRow> {
  const endpoint = await ownEndpoint(db, organisationId, endpointId);
  const [delivery] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpoint.id)))
    .limit(1);
  if (!delivery) throw new ProblemError('not-found', 'No delivery with this id for this endpoint.');
  if (!endpoint.enabled)
    throw new ProblemError('conflict', 'The endpoint is disabled; enable it before redelivering.');
  if (delivery.state === 'pending')
    throw new ProblemError(
      'conflict',
      'This delivery is still being attempted; its next attempt is scheduled.',
    );
  const job = deliveryJobInsert(db, { deliveryId, attempt: delivery.attempts + 1, manual: true }, now);
  const [[updated]] = await db.batch([
    db
      .update(webhookDeliveries)
      .set({ state: 'pending', nextAttemptAt: now, updatedAt: now })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.attempts, delivery.attempts)))
      .returning(),
    job.statement,
  ]);
  if (!updated) throw new ProblemError('conflict', 'The delivery changed meanwhile; read it again.');
  await dispatchJobs(db, env, [job.id], now);
  return updated;
}

/**
 * A `webhook.ping` test event to one endpoint (whatever it subscribes to): one attempt now, on
 * demand (`manual`), so a failure ends the delivery `failed` without retries.
 */
export async function ping(
  db: Database,
  env: Pick<Env, 'JOBS_QUEUE'>,
  organisationId: string,
  endpointId: string,
  now = new Date(),
): Promise<DeliveryRow> {
  const endpoint = await ownEndpoint(db, organisationId, endpointId);
  if (!endpoint.enabled)
    throw new ProblemError('conflict', 'The endpoint is disabled; enable it to ping it.');
  const eventId = newEventId();
  const deliveryId = crypto.randomUUID();
  const payload: WebhookPayload = {
    type: 'webhook.ping',
    timestamp: now.toISOString(),
    data: { endpointId: endpoint.id },
  };
  const job = deliveryJobInsert(db, { deliveryId, attempt: 1, manual: true }, now);
  const [, [delivery]] = await db.batch([
    db
      .insert(webhookEvents)
      .values({ id: eventId, organisationId, type: 'webhook.ping', ref: eventId, payload, createdAt: now }),
    db
      .insert(webhookDeliveries)
      .values({ id: deliveryId, endpointId: endpoint.id, eventId, nextAttemptAt: now, createdAt: now })
      .returning(),
    job.statement,
  ]);
  await dispatchJobs(db, env, [job.id], now);
  return delivery!;
}

// --- The delivery log

export async function listDeliveries(
  db: Database,
  organisationId: string,
  endpointId: string,
  limit: number,
  after?: Position,
) {
  const endpoint = await ownEndpoint(db, organisationId, endpointId);
  const rows = await db
    .select({ delivery: webhookDeliveries, eventType: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpoint.id),
        after ? olderThan(webhookDeliveries, after) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit + 1);
  const ids = rows.map((r) => r.delivery.id);
  const attempts = ids.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.deliveryId, ids))
        .orderBy(webhookAttempts.attempt)
    : [];
  return rows.map((r) => ({
    ...r,
    attemptLog: attempts.filter((a) => a.deliveryId === r.delivery.id),
  }));
}

/** One delivery with its event type and attempts (for the answer of a redelivery). */
export async function listDeliveryById(db: Database, deliveryId: string) {
  const rows = await db
    .select({ delivery: webhookDeliveries, eventType: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, deliveryId))
    .limit(1);
  const attemptLog = rows.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(eq(webhookAttempts.deliveryId, deliveryId))
        .orderBy(webhookAttempts.attempt)
    : [];
  return rows.map((r) => ({ ...r, attemptLog }));
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const deliveryView = (
  d: DeliveryRow,
  eventType: string,
  attemptLog: (typeof webhookAttempts.$inferSelect)[] = [],
) => ({
  id: d.id,
  eventId: d.eventId,
  eventType,
  state: d.state,
  attempts: d.attempts,
  // A test ping is one attempt, never retried (see `deliver`).
  maxAttempts: eventType === 'webhook.ping' ? 1 : MAX_ATTEMPTS,
  lastStatusCode: d.lastStatusCode,
  lastError: d.lastError,
  nextAttemptAt: d.state === 'pending' ? iso(d.nextAttemptAt) : null,
  deliveredAt: iso(d.deliveredAt),
  deadLetteredAt: iso(d.deadLetteredAt),
  createdAt: d.createdAt.toISOString(),
  attemptLog: attemptLog.map((a) => ({
    attempt: a.attempt,
    trigger: a.trigger,
    attemptedAt: a.attemptedAt.toISOString(),
    statusCode: a.statusCode,
    latencyMs: a.latencyMs,
    error: a.error,
  })),
});
