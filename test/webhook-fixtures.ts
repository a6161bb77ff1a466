/**
 * Webhook test fixtures: endpoints through the API, the test receiver (`https://hooks.test/<name>`,
 * test/doubles/outbound.mjs), and driving the delivery jobs directly (a captured queue, a moved
 * clock) as test/jobs*.test.ts do. Every recorded delivery can be checked with the official
 * `standardwebhooks` package (`verifyAll`).
 */
import { env } from 'cloudflare:test';
import { and, eq, inArray, like, lte } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { expect, vi } from 'vitest';
import { jobs, webhookDeliveries, webhookEvents } from '../src/db/schema';
import { runJob } from '../src/services/jobs/jobs';
import { certificateEvent } from '../src/services/webhooks/events';
import { db, organisationOf, passEveryMilestone } from './harness';
import { type Account, as, call, jsonInit } from './helpers';

export const ALL_EVENTS = [
  'evaluation.completed',
  'submission.rated',
  'certificate.issued',
  'certificate.revoked',
  'dsr.erasure.completed',
];

export type Recorded = { method: string; headers: Record<string, string>; body: string };
export type Endpoint = { id: string; url: string; secret: string; enabled: boolean };

/** A fresh receiver name (the receiver is shared by every test file of the run). */
export const receiverName = (what: string) => `${what}-${crypto.randomUUID().slice(0, 8)}`;
export const receiverUrl = (name: string) => `https://hooks.test/${name}`;

export async function received(name: string): Promise<Recorded[]> {
  const res = await fetch(`https://hooks.test/__control/${name}`);
  return (await res.json<{ requests: Recorded[] }>()).requests;
}

/** The receiver answers `status` (a redirect with `location`) to the next `fail` requests (all, without `fail`). */
export async function receiverFails(
  name: string,
  plan: { fail?: number; status?: number; location?: string },
) {
  await fetch(`https://hooks.test/__control/${name}`, { method: 'PUT', body: JSON.stringify(plan) });
}

/** Publishes A or AAAA records at the DNS-over-HTTPS double. */
export async function publishAddress(name: string, type: 'A' | 'AAAA', values: readonly string[]) {
  await fetch('http://doh.test/records', { method: 'PUT', body: JSON.stringify({ name, type, values }) });
}

export async function createEndpoint(employer: Account, body: Record<string, unknown>): Promise<Endpoint> {
  const res = await call('/api/webhooks', jsonInit('POST', body, as(employer)));
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json<Endpoint>();
}

/** An endpoint at a fresh receiver, subscribed to everything. */
export async function endpointFor(employer: Account, what: string, eventTypes = ALL_EVENTS) {
  const name = receiverName(what);
  const endpoint = await createEndpoint(employer, { url: receiverUrl(name), eventTypes });
  return { name, endpoint };
}

/** A queue that records what is sent instead of delivering it (so only the test runs the jobs). */
export function capturedQueue() {
  const sent: { jobId: string; delaySeconds: number }[] = [];
  const queue = {
    send: async (body: { jobId: string }, options?: { delaySeconds?: number }) => {
      sent.push({ jobId: body.jobId, delaySeconds: options?.delaySeconds ?? 0 });
    },
    sendBatch: async () => {},
  };
  return { sent, env: { ...env, JOBS_QUEUE: queue as unknown as Queue } as Env };
}

/**
 * A real event (`certificate.issued` of a made-up certificate) for the employer's organisation,
 * recorded and fanned out at `now` with a captured queue, so only the test runs the attempts (as
 * `drainWebhookJobs(env, at)` does). Returns the deliveries the fan-out made, one per subscribed
 * endpoint. Unlike a ping, these are retried and count towards disabling a failing endpoint.
 */
export async function eventAt(employer: Account, now: Date) {
  const captured = capturedQueue();
  const organisationId = await organisationOf(employer);
  const id = crypto.randomUUID();
  const emitted = await certificateEvent(
    db(),
    'certificate.issued',
    { id, certificateNo: `VP-TEST-${id.slice(0, 8)}`, organisationId, briefId: id },
    now,
  );
  expect(emitted.jobIds, 'the organisation has an endpoint for the event').toHaveLength(1);
  const [first, ...rest] = emitted.statements;
  await db().batch([first!, ...rest]);
  expect(await runJob(db(), captured.env, emitted.jobIds[0]!, { now })).toBe('done');
  const deliveries = await db()
    .select({ delivery: webhookDeliveries })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookEvents.organisationId, organisationId), eq(webhookEvents.ref, id)));
  return { deliveries: deliveries.map((d) => d.delivery), ...captured };
}

/**
 * Runs every webhook job due at `now` (fan-outs, then the attempts they create), as the queue
 * consumer would, until none is left. Returns how many ran.
 */
export async function drainWebhookJobs(
  testEnv: Env = env,
  now = new Date(),
  /** Only this delivery's attempts: other test files' events in the same database are not counted. */
  deliveryId?: string,
): Promise<number> {
  let ran = 0;
  for (let round = 0; round < 10; round++) {
    const due = await db()
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          inArray(jobs.kind, ['webhook_fanout', 'webhook_delivery']),
          eq(jobs.state, 'pending'),
          lte(jobs.availableAt, now),
          deliveryId ? like(jobs.ref, `${deliveryId}#%`) : undefined,
        ),
      );
    if (due.length === 0) break;
    for (const { id } of due) if ((await runJob(db(), testEnv, id, { now })) === 'done') ran++;
  }
  return ran;
}

/** Verifies one recorded delivery with `standardwebhooks`, at the time it was signed; returns its JSON body. */
export function verifyWith(secret: string, request: Recorded): Record<string, unknown> {
  const timestamp = Number(request.headers['webhook-timestamp']);
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(timestamp * 1000);
  try {
    return new Webhook(secret).verify(request.body, request.headers) as Record<string, unknown>;
  } finally {
    vi.useRealTimers();
  }
}

/** Every recorded delivery verifies with the secret, and carries the spec's headers. */
export function verifyAll(secret: string, requests: Recorded[]) {
  expect(requests.length).toBeGreaterThan(0);
  return requests.map((r) => {
    expect(r.method).toBe('POST');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(r.headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$/);
    return verifyWith(secret, r);
  });
}

export type DeliveryView = {
  id: string;
  eventId: string;
  eventType: string;
  state: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deadLetteredAt: string | null;
  attemptLog: {
    attempt: number;
    trigger: string;
    statusCode: number | null;
    latencyMs: number | null;
    error: string | null;
    attemptedAt: string;
  }[];
};

export async function deliveryLog(employer: Account, endpointId: string): Promise<DeliveryView[]> {
  const res = await call(`/api/webhooks/${endpointId}/deliveries`, { headers: as(employer) });
  expect(res.status).toBe(200);
  return (await res.json<{ items: DeliveryView[] }>()).items;
}

/**
 * The workflow that raises every subscribable event (consents given beforehand): the candidate's
 * work passed to a certificate, the certificate revoked, then the candidate's erasure completed,
 * draining the webhook jobs after each step.
 */
export async function everyEventWorkflow(
  employer: Account,
  candidate: Account,
  brief: Parameters<typeof passEveryMilestone>[2],
) {
  const passed = await passEveryMilestone(employer, candidate, brief);
  expect(passed.certificate).not.toBeNull();
  await drainWebhookJobs();
  const revoked = await call(
    `/api/certificates/${passed.certificate!.certificateNo}/revoke`,
    jsonInit('POST', { reason: 'Issued in error' }, as(employer)),
  );
  expect(revoked.status).toBe(200);
  await drainWebhookJobs();
  const erasure = await call('/api/dsr/erasure', { method: 'DELETE', headers: as(candidate) });
  expect(erasure.status).toBe(202);
  const { requestId } = await erasure.json<{ requestId: string }>();
  const [job] = await db()
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, 'erasure'), eq(jobs.ref, requestId)));
  await runJob(db(), env, job!.id);
  await drainWebhookJobs();
  return { ...passed, certificate: passed.certificate!, erasureRequestId: requestId };
}
