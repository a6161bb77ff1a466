/**
 * Webhooks end to end: endpoints through both surfaces, every event type fired by the real
 * workflow and delivered to the test receiver, every signature checked with the official
 * `standardwebhooks` package, retries with backoff, the dead letter, redelivery, the delivery
 * log, secret rotation, disabling after days of failure, what a disabled endpoint misses, test
 * pings (one attempt) and the bound on endpoints per organisation. (SSRF and isolation:
 * test/webhooks.security.test.ts.)
 */
import { env } from 'cloudflare:test';
import { and, eq, inArray, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema';
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS } from '../src/domain/webhooks/schedule';
import { generateSecret, webhookHeaders } from '../src/domain/webhooks/signing';
import { runJob } from '../src/services/jobs/jobs';
import { sweepJobs } from '../src/services/jobs/sweeper';
import { ENDPOINT_DISABLED_ERROR, ping } from '../src/services/webhooks/delivery';
import {
  createEndpoint as createEndpointService,
  MAX_ENDPOINTS_PER_ORGANISATION,
} from '../src/services/webhooks/endpoints';
import {
  ALL_CONSENTS,
  consent,
  db,
  loginAdmin,
  organisationOf,
  passEveryMilestone,
  publishedBrief,
  signup,
  verifyOrganisation,
} from './harness';
import { as, call, expectProblem, jsonInit } from './helpers';
import {
  ALL_EVENTS,
  capturedQueue,
  createEndpoint,
  deliveryLog,
  drainWebhookJobs,
  endpointFor,
  eventAt,
  everyEventWorkflow,
  type Recorded,
  received,
  receiverFails,
  verifyAll,
  verifyWith,
} from './webhook-fixtures';

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

describe('webhook endpoints', () => {
  it('an employer registers, reads, lists, changes and deletes its endpoints; the secret is shown once', async () => {
    const employer = await signup('employer');
    const { endpoint, name } = await endpointFor(employer, 'crud', ['certificate.issued']);
    expect(endpoint.secret).toMatch(SECRET);
    // base64 of at least 24 random bytes
    expect(atob(endpoint.secret.slice('whsec_'.length)).length).toBeGreaterThanOrEqual(24);
    expect(endpoint).toMatchObject({
      url: `https://hooks.test/${name}`,
      enabled: true,
      eventTypes: ['certificate.issued'],
    });

    const got = await (await call(`/api/webhooks/${endpoint.id}`, { headers: as(employer) })).json<
      Record<string, unknown>
    >();
    expect(got).not.toHaveProperty('secret');
    expect(got.id).toBe(endpoint.id);
    const list = await (await call('/api/webhooks', { headers: as(employer) })).json<{
      items: { id: string }[];
    }>();
    expect(list.items.map((e) => e.id)).toEqual([endpoint.id]);
    expect(JSON.stringify(list)).not.toContain(endpoint.secret);

    const patched = await call(
      `/api/webhooks/${endpoint.id}`,
      jsonInit(
        'PATCH',
        { eventTypes: ['certificate.revoked', 'submission.rated'], enabled: false, description: 'x' },
        as(employer),
      ),
    );
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      eventTypes: ['certificate.revoked', 'submission.rated'],
      enabled: false,
      disabledReason: 'manual',
      description: 'x',
    });
    const unknownType = await call(
      `/api/webhooks/${endpoint.id}`,
      jsonInit('PATCH', { eventTypes: ['user.created'] }, as(employer)),
    );
    await expectProblem(unknownType, 422, 'validation-failed');

    expect(
      (await call(`/api/webhooks/${endpoint.id}`, { method: 'DELETE', headers: as(employer) })).status,
    ).toBe(204);
    await expectProblem(
      await call(`/api/webhooks/${endpoint.id}`, { headers: as(employer) }),
      404,
      'not-found',
    );
  });

  it('a partner key acting for an organisation manages the same endpoints at /api/v1/webhooks', async () => {
    const admin = await loginAdmin();
    const employer = await signup('employer');
    const organisationId = await organisationOf(employer);
    const issued = await call(
      '/api/admin/api-keys',
      jsonInit('POST', { name: 'hooks', scopes: ['webhooks:manage'], organisationId }, as(admin)),
    );
    expect(issued.status).toBe(201);
    const key = await issued.json<{ key: string; organisationId: string }>();
    expect(key.organisationId).toBe(organisationId);
    const headers = { 'X-Service-Key': key.key };

    const created = await call(
      '/api/v1/webhooks',
      jsonInit('POST', { url: 'https://hooks.test/v1-partner', eventTypes: ['certificate.issued'] }, headers),
    );
    expect(created.status).toBe(201);
    const endpoint = await created.json<{ id: string; secret: string }>();
    expect(endpoint.secret).toMatch(SECRET);
    // The employer sees the key's endpoint: it is the organisation's.
    const mine = await (await call('/api/webhooks', { headers: as(employer) })).json<{
      items: { id: string }[];
    }>();
    expect(mine.items.map((e) => e.id)).toEqual([endpoint.id]);
    const v1List = await (await call('/api/v1/webhooks', { headers })).json<{ items: { id: string }[] }>();
    expect(v1List.items.map((e) => e.id)).toEqual([endpoint.id]);
    expect((await call(`/api/v1/webhooks/${endpoint.id}`, { headers })).status).toBe(200);
    const patched = await call(
      `/api/v1/webhooks/${endpoint.id}`,
      jsonInit('PATCH', { description: 'from the key' }, headers),
    );
    expect(await patched.json()).toMatchObject({ description: 'from the key' });
    const rotated = await call(`/api/v1/webhooks/${endpoint.id}/rotate-secret`, { method: 'POST', headers });
    expect(rotated.status).toBe(200);
    const pinged = await call(`/api/v1/webhooks/${endpoint.id}/ping`, { method: 'POST', headers });
    expect(pinged.status).toBe(202);
    expect(await pinged.json()).toMatchObject({
      eventType: 'webhook.ping',
      state: 'pending',
      attempts: 0,
      maxAttempts: 1,
    });
    expect((await call(`/api/v1/webhooks/${endpoint.id}/deliveries`, { headers })).status).toBe(200);
    expect((await call(`/api/v1/webhooks/${endpoint.id}`, { method: 'DELETE', headers })).status).toBe(204);

    // An unknown organisation is refused when the key is issued.
    const unknown = await call(
      '/api/admin/api-keys',
      jsonInit('POST', { name: 'x', scopes: ['webhooks:manage'], organisationId: 'no-such-org' }, as(admin)),
    );
    await expectProblem(unknown, 404, 'not-found');
  });
});

/** What a payload may contain: ids, states, numbers and times; never a person's name or email, or work. */
function expectNoPersonalData(bodies: Record<string, unknown>[], forbidden: string[]) {
  const allowedData = new Set([
    'evaluationId',
    'submissionId',
    'briefId',
    'milestoneId',
    'state',
    'ratingId',
    'verdict',
    'score',
    'certificateId',
    'certificateNo',
    'status',
    'at',
    'submissionIds',
    'certificateIds',
    'certificateNumbers',
    'endpointId',
  ]);
  for (const body of bodies) {
    expect(Object.keys(body).sort()).toEqual(['data', 'timestamp', 'type']);
    for (const key of Object.keys(body.data as object)) expect(allowedData, key).toContain(key);
    const text = JSON.stringify(body).toLowerCase();
    for (const value of forbidden) expect(text, value).not.toContain(value.toLowerCase());
    expect(text).not.toContain('@');
  }
}

describe('events from the real workflow', () => {
  it('delivers every event type, signed, with ids and states only', async () => {
    const stamp = crypto.randomUUID().slice(0, 8);
    const employerName = `Hook Employer ${stamp}`;
    const candidateName = `Hook Candidate ${stamp}`;
    const employer = await signup('employer', employerName);
    const candidate = await signup('candidate', candidateName);
    await verifyOrganisation(employer);
    const { endpoint, name } = await endpointFor(employer, 'workflow', ALL_EVENTS);
    // Another endpoint of the organisation, for one type only: it gets only that type.
    const { endpoint: narrow, name: narrowName } = await endpointFor(employer, 'narrow', [
      'certificate.revoked',
    ]);

    for (const purpose of ALL_CONSENTS) await consent(candidate, purpose);
    const brief = await publishedBrief(employer, { durationDays: 1, domain: `hooks-${stamp}` });
    const { submissions, certificate } = await everyEventWorkflow(employer, candidate, brief);

    const requests = await received(name);
    const bodies = verifyAll(endpoint.secret, requests);
    const byType = (type: string) =>
      bodies.filter((b) => b.type === type).map((b) => b.data as Record<string, unknown>);
    const milestones = brief.playbook.milestones.length;
    expect(byType('evaluation.completed')).toHaveLength(milestones);
    expect(
      byType('evaluation.completed')
        .map((d) => d.submissionId)
        .sort(),
    ).toEqual(submissions.map((s) => s.id).sort());
    expect(byType('evaluation.completed')[0]).toMatchObject({ briefId: brief.id, state: 'completed' });
    // Blind rating: the AI's verdict is not in the event.
    expect(byType('evaluation.completed')[0]).not.toHaveProperty('verdict');
    expect(byType('submission.rated')).toHaveLength(milestones);
    expect(byType('submission.rated')[0]).toMatchObject({ verdict: 'pass', briefId: brief.id });
    expect(byType('certificate.issued')).toEqual([
      expect.objectContaining({
        certificateNo: certificate!.certificateNo,
        status: 'active',
        briefId: brief.id,
      }),
    ]);
    expect(byType('certificate.revoked')).toEqual([
      expect.objectContaining({ certificateNo: certificate!.certificateNo, status: 'revoked' }),
    ]);
    expect(byType('dsr.erasure.completed')).toEqual([
      {
        submissionIds: expect.arrayContaining(submissions.map((s) => s.id)),
        certificateIds: [expect.any(String)],
        certificateNumbers: [certificate!.certificateNo],
      },
    ]);
    // Each event once, each with its own webhook-id.
    const ids = requests.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    expectNoPersonalData(bodies, [
      candidateName,
      employerName,
      candidate.email,
      employer.email,
      candidate.id,
      'Issued in error',
    ]);

    const narrowBodies = verifyAll(narrow.secret, await received(narrowName));
    expect(narrowBodies.map((b) => b.type)).toEqual(['certificate.revoked']);

    // The delivery log shows each, delivered in one attempt with its status and latency.
    const log = await deliveryLog(employer, endpoint.id);
    expect(log.length).toBe(requests.length);
    for (const d of log) {
      expect(d).toMatchObject({ state: 'succeeded', attempts: 1, lastStatusCode: 204, nextAttemptAt: null });
      expect(d.attemptLog).toEqual([
        expect.objectContaining({ attempt: 1, trigger: 'scheduled', statusCode: 204, error: null }),
      ]);
      expect(d.attemptLog[0]!.latencyMs).toBeGreaterThanOrEqual(0);
    }
  }, 120_000);

  it("certificate.issued fires when a waiting certificate is issued on the organisation's verification", async () => {
    const employer = await signup('employer');
    const candidate = await signup('candidate');
    const { endpoint, name } = await endpointFor(employer, 'on-verification', ['certificate.issued']);
    await consent(candidate, 'ai_evaluation');
    const brief = await publishedBrief(employer, { durationDays: 1 });
    const { certificate } = await passEveryMilestone(employer, candidate, brief);
    expect(certificate).toMatchObject({ status: 'pending_issuer' });
    await drainWebhookJobs();
    expect(await received(name)).toEqual([]);

    await verifyOrganisation(employer);
    await drainWebhookJobs();
    const bodies = verifyAll(endpoint.secret, await received(name));
    expect(bodies).toEqual([
      expect.objectContaining({
        type: 'certificate.issued',
        data: expect.objectContaining({ certificateNo: certificate!.certificateNo, status: 'active' }),
      }),
    ]);
  }, 60_000);

  it('an organisation without endpoints records no events', async () => {
    const employer = await signup('employer');
    const candidate = await signup('candidate');
    await consent(candidate, 'ai_evaluation');
    const brief = await publishedBrief(employer, { durationDays: 1 });
    await passEveryMilestone(employer, candidate, brief);
    const events = await db()
      .select()
      .from(schema.webhookEvents)
      .where(eq(schema.webhookEvents.organisationId, await organisationOf(employer)));
    expect(events).toEqual([]);
  }, 60_000);
});

/** A ping through the service, with a captured queue: only the test runs its attempts. */
async function pingAt(employer: Parameters<typeof organisationOf>[0], endpointId: string, now: Date) {
  const captured = capturedQueue();
  const delivery = await ping(db(), captured.env, await organisationOf(employer), endpointId, now);
  return { delivery, ...captured };
}

const at = (t0: Date, seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe('retries', () => {
  it('retries a failing receiver with backoff (5 s, 5 min, 30 min) until it answers, same webhook-id each time', async () => {
    const employer = await signup('employer');
    const { endpoint, name } = await endpointFor(employer, 'retry');
    await receiverFails(name, { fail: 3, status: 503 });
    const t0 = new Date();
    const {
      deliveries: [delivery],
      sent,
      env: testEnv,
    } = await eventAt(employer, t0);
    expect(sent).toHaveLength(1);

    let now = t0;
    for (const delay of [5, 300, 1800]) {
      expect(await drainWebhookJobs(testEnv, now, delivery!.id)).toBe(1);
      const [row] = await db()
        .select()
        .from(schema.webhookDeliveries)
        .where(eq(schema.webhookDeliveries.id, delivery!.id));
      expect(row).toMatchObject({ state: 'pending', lastStatusCode: 503 });
      expect(row!.nextAttemptAt!.getTime()).toBe(now.getTime() + delay * 1000);
      // Enqueued with the delay; nothing is due before it, and the sweeper leaves it alone until then.
      expect(sent.at(-1)).toMatchObject({ delaySeconds: delay });
      expect(await drainWebhookJobs(testEnv, at(now, delay - 1), delivery!.id)).toBe(0);
      // (Only the webhook jobs: the signups' confirmation mails are jobs of their own.)
      const swept = (await sweepJobs(db(), testEnv, at(now, delay - 1))).enqueued;
      const sweptWebhookJobs =
        swept.length === 0
          ? []
          : await db()
              .select({ id: schema.jobs.id })
              .from(schema.jobs)
              .where(
                and(
                  inArray(schema.jobs.id, [...swept]),
                  inArray(schema.jobs.kind, ['webhook_fanout', 'webhook_delivery']),
                  // This delivery's own attempts: other files' webhook jobs share the database.
                  like(schema.jobs.ref, `${delivery!.id}#%`),
                ),
              );
      expect(sweptWebhookJobs).toEqual([]);
      now = at(now, delay);
    }
    expect(await drainWebhookJobs(testEnv, now, delivery!.id)).toBe(1);

    const requests = await received(name);
    expect(requests).toHaveLength(4);
    verifyAll(endpoint.secret, requests);
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery!.eventId]));
    // Signed at each attempt's own time.
    expect(requests.map((r) => Number(r.headers['webhook-timestamp']))).toEqual(
      [0, 5, 305, 2105].map((s) => Math.floor(at(t0, s).getTime() / 1000)),
    );
    const [logged] = await deliveryLog(employer, endpoint.id);
    expect(logged).toMatchObject({
      state: 'succeeded',
      attempts: 4,
      lastStatusCode: 204,
      nextAttemptAt: null,
    });
    expect(logged!.attemptLog.map((a) => a.statusCode)).toEqual([503, 503, 503, 204]);
    expect(logged!.attemptLog.map((a) => a.error)).toEqual([
      'The endpoint answered 503.',
      'The endpoint answered 503.',
      'The endpoint answered 503.',
      null,
    ]);
  });

  it('dead-letters a delivery after every attempt over more than 24 hours failed, with an audit entry', async () => {
    const employer = await signup('employer');
    const { endpoint, name } = await endpointFor(employer, 'dead');
    await receiverFails(name, { status: 500 });
    const t0 = new Date();
    const {
      deliveries: [delivery],
      env: testEnv,
    } = await eventAt(employer, t0);
    if (!delivery) throw new Error('no delivery');
    let now = t0;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await drainWebhookJobs(testEnv, now, delivery.id), `attempt ${attempt}`).toBe(1);
      if (attempt < MAX_ATTEMPTS) now = at(now, RETRY_DELAYS_SECONDS[attempt - 1]!);
    }
    expect(now.getTime() - t0.getTime()).toBeGreaterThanOrEqual(24 * 3600 * 1000);
    // Nothing more is scheduled, however late it gets.
    expect(await drainWebhookJobs(testEnv, at(now, 7 * 24 * 3600), delivery.id)).toBe(0);

    const [logged] = await deliveryLog(employer, endpoint.id);
    expect(logged).toMatchObject({
      id: delivery.id,
      state: 'dead_lettered',
      attempts: MAX_ATTEMPTS,
      maxAttempts: MAX_ATTEMPTS,
      nextAttemptAt: null,
    });
    expect(logged!.deadLetteredAt).toBe(now.toISOString());
    expect(logged!.attemptLog).toHaveLength(MAX_ATTEMPTS);
    expect(await received(name)).toHaveLength(MAX_ATTEMPTS);
    const audit = await db()
      .select()
      .from(schema.auditLog)
      .where(
        and(eq(schema.auditLog.action, 'webhook.dead_lettered'), eq(schema.auditLog.targetId, delivery.id)),
      );
    expect(audit).toHaveLength(1);

    // Redelivery on demand: one more attempt, the same webhook-id, recorded as manual.
    await receiverFails(name, { fail: 0 });
    const again = await call(`/api/webhooks/${endpoint.id}/deliveries/${delivery.id}/redeliver`, {
      method: 'POST',
      headers: as(employer),
    });
    expect(again.status).toBe(202);
    expect(await again.json()).toMatchObject({ state: 'pending', attempts: MAX_ATTEMPTS });
    // A second redelivery while that one is pending is a conflict.
    await expectProblem(
      await call(`/api/webhooks/${endpoint.id}/deliveries/${delivery.id}/redeliver`, {
        method: 'POST',
        headers: as(employer),
      }),
      409,
      'conflict',
    );
    await drainWebhookJobs(env, new Date());
    const requests = await received(name);
    expect(requests).toHaveLength(MAX_ATTEMPTS + 1);
    expect(requests.at(-1)!.headers['webhook-id']).toBe(delivery.eventId);
    verifyAll(endpoint.secret, [requests.at(-1)!]);
    const [redelivered] = await deliveryLog(employer, endpoint.id);
    expect(redelivered).toMatchObject({
      state: 'succeeded',
      attempts: MAX_ATTEMPTS + 1,
      lastStatusCode: 204,
    });
    expect(redelivered!.attemptLog.at(-1)).toMatchObject({ trigger: 'manual', statusCode: 204 });
  }, 60_000);

  it('a job for an attempt already made sends nothing (a redelivered queue message)', async () => {
    const employer = await signup('employer');
    const { endpoint, name } = await endpointFor(employer, 'twice');
    const t0 = new Date();
    const { env: testEnv } = await pingAt(employer, endpoint.id, t0);
    await drainWebhookJobs(testEnv, t0);
    const [job] = await db()
      .select()
      .from(schema.jobs)
      .where(eq(schema.jobs.kind, 'webhook_delivery'))
      .orderBy(schema.jobs.createdAt);
    // Put the finished job back, as a lost lease would, and run it again.
    await db().update(schema.jobs).set({ state: 'pending' }).where(eq(schema.jobs.id, job!.id));
    await runJob(db(), testEnv, job!.id, { now: t0 });
    expect(await received(name)).toHaveLength(1);
  });
});

describe('secret rotation', () => {
  it('signs with both secrets for 24 hours, then with the new one only', async () => {
    const employer = await signup('employer');
    const { endpoint, name } = await endpointFor(employer, 'rotate');
    const t0 = new Date();
    const rotated = await call(`/api/webhooks/${endpoint.id}/rotate-secret`, {
      method: 'POST',
      headers: as(employer),
    });
    expect(rotated.status).toBe(200);
    const { secret, endpoint: view } = await rotated.json<{
      secret: string;
      endpoint: { rotationEndsAt: string };
    }>();
    expect(secret).toMatch(SECRET);
    expect(secret).not.toBe(endpoint.secret);
    expect(Date.parse(view.rotationEndsAt) - t0.getTime()).toBeGreaterThan(24 * 3600 * 1000 - 60_000);

    const during = await pingAt(employer, endpoint.id, new Date());
    await drainWebhookJobs(during.env, new Date());
    const [first] = await received(name);
    expect(first!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    // Either secret verifies it: receivers switch at their own pace.
    verifyWith(secret, first!);
    verifyWith(endpoint.secret, first!);

    const later = at(t0, 25 * 3600);
    const after = await pingAt(employer, endpoint.id, later);
    await drainWebhookJobs(after.env, later);
    const second = (await received(name))[1] as Recorded;
    expect(second.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    verifyWith(secret, second);
    expect(() => verifyWith(endpoint.secret, second)).toThrow();
  });
});

describe('an endpoint failing for days', () => {
  it('is disabled after 5 days of failures, with a notice to every member and an audit entry', async () => {
    const employer = await signup('employer');
    const { endpoint, name } = await endpointFor(employer, 'failing');
    await receiverFails(name, { status: 500 });
    const t0 = new Date();
    const first = await eventAt(employer, t0);
    await drainWebhookJobs(first.env, t0);
    const failing = await (await call(`/api/webhooks/${endpoint.id}`, { headers: as(employer) })).json<
      Record<string, unknown>
    >();
    expect(failing).toMatchObject({ enabled: true, failingSince: t0.toISOString() });

    // Four days on, still failing: still enabled.
    const day4 = at(t0, 4 * 86400);
    const p4 = await eventAt(employer, day4);
    await drainWebhookJobs(p4.env, day4);
    expect(
      (
        await (
          await call(`/api/webhooks/${endpoint.id}`, { headers: as(employer) })
        ).json<{ enabled: boolean }>()
      ).enabled,
    ).toBe(true);

    const day5 = at(t0, 5 * 86400 + 60);
    const p5 = await eventAt(employer, day5);
    await drainWebhookJobs(p5.env, day5);
    const disabled = await (await call(`/api/webhooks/${endpoint.id}`, { headers: as(employer) })).json<
      Record<string, unknown>
    >();
    expect(disabled).toMatchObject({
      enabled: false,
      disabledReason: 'failing',
      disabledAt: day5.toISOString(),
    });
    const [last] = await deliveryLog(employer, endpoint.id);
    expect(last).toMatchObject({ state: 'failed', nextAttemptAt: null });

    const { notices: list } = await (await call('/api/me/notices', { headers: as(employer) })).json<{
      notices: { kind: string; body: string }[];
    }>();
    expect(list.filter((n) => n.kind === 'webhook')).toEqual([expect.objectContaining({ kind: 'webhook' })]);
    expect(list.find((n) => n.kind === 'webhook')!.body).toContain(endpoint.id);
    const audit = await db()
      .select()
      .from(schema.auditLog)
      .where(
        and(
          eq(schema.auditLog.action, 'webhook_endpoint.disabled'),
          eq(schema.auditLog.targetId, endpoint.id),
        ),
      );
    expect(audit).toHaveLength(1);

    // Disabled: a ping is refused; enabling again starts afresh.
    await expectProblem(
      await call(`/api/webhooks/${endpoint.id}/ping`, { method: 'POST', headers: as(employer) }),
      409,
      'conflict',
    );
    const enabled = await call(
      `/api/webhooks/${endpoint.id}`,
      jsonInit('PATCH', { enabled: true }, as(employer)),
    );
    expect(await enabled.json()).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  it('a success ends the failure clock', async () => {
    const employer = await signup('employer');
    const { endpoint, name } = await endpointFor(employer, 'recovers');
    await receiverFails(name, { fail: 1, status: 500 });
    const t0 = new Date();
    const p = await eventAt(employer, t0);
    await drainWebhookJobs(p.env, t0);
    expect(
      (
        await (
          await call(`/api/webhooks/${endpoint.id}`, { headers: as(employer) })
        ).json<{ failingSince: string | null }>()
      ).failingSince,
    ).toBe(t0.toISOString());
    await drainWebhookJobs(p.env, at(t0, 5));
    const view = await (await call(`/api/webhooks/${endpoint.id}`, { headers: as(employer) })).json<
      Record<string, unknown>
    >();
    expect(view).toMatchObject({ enabled: true, failingSince: null });
  });
});

describe('test pings', () => {
  it('a failed ping is one attempt that ends failed: not retried, and the failure clock does not start', async () => {
    const employer = await signup('employer');
    const { endpoint, name } = await endpointFor(employer, 'ping-fails');
    await receiverFails(name, { status: 500 });
    const t0 = new Date();
    const { delivery, sent, env: testEnv } = await pingAt(employer, endpoint.id, t0);
    expect(sent).toHaveLength(1);
    expect(await drainWebhookJobs(testEnv, t0, delivery.id)).toBe(1);
    const [logged] = await deliveryLog(employer, endpoint.id);
    expect(logged).toMatchObject({
      id: delivery.id,
      eventType: 'webhook.ping',
      state: 'failed',
      attempts: 1,
      maxAttempts: 1,
      lastStatusCode: 500,
      nextAttemptAt: null,
      deadLetteredAt: null,
    });
    expect(logged!.attemptLog).toEqual([expect.objectContaining({ attempt: 1, trigger: 'manual' })]);
    // Nothing more, however late it gets.
    expect(sent).toHaveLength(1);
    expect(await drainWebhookJobs(testEnv, at(t0, 3 * 86400), delivery.id)).toBe(0);
    expect(await received(name)).toHaveLength(1);
    const view = await (await call(`/api/webhooks/${endpoint.id}`, { headers: as(employer) })).json<
      Record<string, unknown>
    >();
    expect(view).toMatchObject({ enabled: true, failingSince: null });

    // Pinging a failing endpoint for days never disables it either.
    const day6 = at(t0, 6 * 86400);
    const late = await pingAt(employer, endpoint.id, day6);
    await drainWebhookJobs(late.env, day6);
    expect(
      await (await call(`/api/webhooks/${endpoint.id}`, { headers: as(employer) })).json<
        Record<string, unknown>
      >(),
    ).toMatchObject({ enabled: true, failingSince: null });
  });
});

describe('an endpoint disabled for a while', () => {
  it('keeps the events raised meanwhile in its log (failed, not attempted), to redeliver once enabled', async () => {
    const employer = await signup('employer');
    const { endpoint: off, name: offName } = await endpointFor(employer, 'off', ['certificate.issued']);
    const { endpoint: on, name: onName } = await endpointFor(employer, 'on', ['certificate.issued']);
    const disabled = await call(
      `/api/webhooks/${off.id}`,
      jsonInit('PATCH', { enabled: false }, as(employer)),
    );
    expect(disabled.status).toBe(200);

    const t0 = new Date();
    const { deliveries, sent, env: testEnv } = await eventAt(employer, t0);
    expect(deliveries.map((d) => d.endpointId).sort()).toEqual([off.id, on.id].sort());
    expect(sent).toHaveLength(1); // only the enabled endpoint's attempt is queued
    await drainWebhookJobs(testEnv, t0);
    expect(await received(onName)).toHaveLength(1);
    expect(await received(offName)).toEqual([]);

    const [missed] = await deliveryLog(employer, off.id);
    expect(missed).toMatchObject({
      eventType: 'certificate.issued',
      state: 'failed',
      attempts: 0,
      nextAttemptAt: null,
      lastStatusCode: null,
      lastError: ENDPOINT_DISABLED_ERROR,
      attemptLog: [],
    });
    const redeliver = () =>
      call(`/api/webhooks/${off.id}/deliveries/${missed!.id}/redeliver`, {
        method: 'POST',
        headers: as(employer),
      });
    // Still disabled: refused. Enabled again: redelivered, signed with the endpoint's secret.
    await expectProblem(await redeliver(), 409, 'conflict');
    const enabled = await call(`/api/webhooks/${off.id}`, jsonInit('PATCH', { enabled: true }, as(employer)));
    expect(enabled.status).toBe(200);
    expect((await redeliver()).status).toBe(202);
    await drainWebhookJobs(env, new Date());
    const [request] = verifyAll(off.secret, await received(offName));
    expect(request).toMatchObject({ type: 'certificate.issued' });
    expect((await received(offName))[0]!.headers['webhook-id']).toBe(missed!.eventId);
    const [redelivered] = await deliveryLog(employer, off.id);
    expect(redelivered).toMatchObject({ state: 'succeeded', attempts: 1, lastStatusCode: 204 });
    expect(redelivered!.attemptLog).toEqual([expect.objectContaining({ attempt: 1, trigger: 'manual' })]);
  });

  it("records the event when the organisation's only endpoint for it is disabled", async () => {
    const employer = await signup('employer');
    const { endpoint, name } = await endpointFor(employer, 'only-off', ['certificate.issued']);
    await call(`/api/webhooks/${endpoint.id}`, jsonInit('PATCH', { enabled: false }, as(employer)));
    const { deliveries, sent } = await eventAt(employer, new Date());
    expect(deliveries).toEqual([
      expect.objectContaining({ endpointId: endpoint.id, state: 'failed', attempts: 0 }),
    ]);
    expect(sent).toEqual([]);
    expect(await received(name)).toEqual([]);
  });
});

describe('endpoints per organisation', () => {
  it(`bounds an organisation to ${MAX_ENDPOINTS_PER_ORGANISATION} endpoints, disabled ones included (409)`, async () => {
    const employer = await signup('employer');
    const url = 'https://hooks.test/many';
    const ids: string[] = [];
    for (let i = 0; i < MAX_ENDPOINTS_PER_ORGANISATION; i++)
      ids.push(
        (await createEndpoint(employer, { url, eventTypes: ['certificate.issued'], enabled: i % 2 === 0 }))
          .id,
      );
    const refused = await call(
      '/api/webhooks',
      jsonInit('POST', { url, eventTypes: ['certificate.issued'] }, as(employer)),
    );
    const problem = await expectProblem(refused, 409, 'conflict');
    expect(problem.detail).toContain(String(MAX_ENDPOINTS_PER_ORGANISATION));

    // The same bound for a partner key of the organisation.
    const admin = await loginAdmin();
    const key = await (
      await call(
        '/api/admin/api-keys',
        jsonInit(
          'POST',
          { name: 'many', scopes: ['webhooks:manage'], organisationId: await organisationOf(employer) },
          as(admin),
        ),
      )
    ).json<{ key: string }>();
    await expectProblem(
      await call(
        '/api/v1/webhooks',
        jsonInit('POST', { url, eventTypes: ['certificate.issued'] }, { 'X-Service-Key': key.key }),
      ),
      409,
      'conflict',
    );

    // Deleting one makes room for one.
    expect((await call(`/api/webhooks/${ids[0]}`, { method: 'DELETE', headers: as(employer) })).status).toBe(
      204,
    );
    await createEndpoint(employer, { url, eventTypes: ['certificate.issued'] });
    await expectProblem(
      await call(
        '/api/webhooks',
        jsonInit('POST', { url, eventTypes: ['certificate.issued'] }, as(employer)),
      ),
      409,
      'conflict',
    );
  });

  it('holds under concurrent registrations: exactly the room left is taken', async () => {
    const employer = await signup('employer');
    const organisationId = await organisationOf(employer);
    const actor = { organisationId, userId: employer.id, apiKeyId: null };
    const input = { url: 'https://hooks.test/racing', eventTypes: ['certificate.issued' as const] };
    const envOf = { WEBHOOKS_ALLOW_HTTP_LOCALHOST: 'false', PUBLIC_BASE_URL: env.PUBLIC_BASE_URL };
    for (let i = 0; i < MAX_ENDPOINTS_PER_ORGANISATION - 1; i++)
      await createEndpointService(db(), envOf, actor, input);
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => createEndpointService(db(), envOf, actor, input)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ type: 'conflict', status: 409 });
    const held = await db()
      .select()
      .from(schema.webhookEndpoints)
      .where(eq(schema.webhookEndpoints.organisationId, organisationId));
    expect(held).toHaveLength(MAX_ENDPOINTS_PER_ORGANISATION);
  });
});

/** The Standard Webhooks check written from the spec: base64 HMAC-SHA256 of `id.timestamp.body`. */
async function specSignature(secret: string, id: string, timestamp: string, body: string): Promise<string> {
  const raw = Uint8Array.from(atob(secret.replace(/^whsec_/, '')), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(
    await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)),
  );
  return btoa(String.fromCharCode(...mac));
}

describe('webhook signatures, as docs/webhooks.md describes them to a receiver', () => {
  it('during a rotation both secrets verify, each against its own `v1,` entry, with a non-ASCII body', async () => {
    const [current, previous] = [generateSecret(), generateSecret()];
    const body = JSON.stringify({
      type: 'webhook.ping',
      timestamp: '2026-11-26T00:00:00.000Z',
      data: { note: 'नमस्ते ✓' },
    });
    const headers = await webhookHeaders(
      [current, previous],
      'msg_test',
      new Date('2026-11-26T00:00:00Z'),
      body,
    );
    expect(headers['webhook-timestamp']).toBe(String(Date.parse('2026-11-26T00:00:00Z') / 1000));
    expect(headers['content-type']).toBe('application/json');
    const entries = headers['webhook-signature']!.split(' ');
    expect(entries).toEqual([
      `v1,${await specSignature(current, 'msg_test', headers['webhook-timestamp']!, body)}`,
      `v1,${await specSignature(previous, 'msg_test', headers['webhook-timestamp']!, body)}`,
    ]);
  });
});
