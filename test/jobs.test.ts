/**
 * Deferred jobs through the Worker's real entry points: privacy from the 202 on, the health
 * check, the admin's job list and retry, the DSR queue's job state, the dead-letter and cron
 * wiring, and messages from before jobs existed. (Fault injection: test/jobs.faults.test.ts.)
 */
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema';
import worker from '../src/index';
import { requestErasure as requestErasureService } from '../src/services/dsr/erasure';
import { requestInsert } from '../src/services/dsr/requests';
import { jobInsert } from '../src/services/jobs/jobs';
import { consent, db, loginAdmin, seedBrief, seedCertifiedWork, signup } from './harness';
import { as, call, expectProblem, jsonInit } from './helpers';

const handler = worker as ExportedHandler<Env>;

async function erase(account: { cookie: string }) {
  const res = await call('/api/dsr/erasure', { method: 'DELETE', headers: as(account as never) });
  expect(res.status).toBe(202);
  const { requestId } = await res.json<{ requestId: string }>();
  const [job] = await db()
    .select()
    .from(schema.jobs)
    .where(and(eq(schema.jobs.kind, 'erasure'), eq(schema.jobs.ref, requestId)));
  return { requestId, job: job! };
}

type Health = {
  status: string;
  jobs: { stalled: Record<string, number> };
  checks: { jobs: { status: string } };
};
const health = async () => {
  const res = await call('/api/health');
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return res.json<Health>();
};

async function deadLetter(jobId: string, attempts = 6) {
  const batch = createMessageBatch('erasure-dlq', [
    { id: `dlq-${jobId}`, timestamp: new Date(), attempts, body: { jobId } },
  ]);
  const ctx = createExecutionContext();
  await handler.queue!(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

describe('while an erasure is pending', () => {
  it('the person is already private: verify answers 404, the leaderboard leaves them out, before the cascade runs', async () => {
    const domain = `pending-${crypto.randomUUID().slice(0, 8)}`;
    const name = `Pending Person ${domain}`;
    const employer = await signup('employer', `Employer ${domain}`);
    const person = await signup('candidate', name);
    await consent(person, 'public_verification');
    await consent(person, 'leaderboard');
    const brief = await seedBrief(employer.id, domain);
    const work = await seedCertifiedWork(person, { ...brief, employerId: employer.id, domain });

    // Public, and cached (KV and this isolate's memory), before.
    const before = await call(`/api/verify/${work.certificateNo}`);
    expect(await before.json()).toMatchObject({ holder: { name } });
    const board = await (await call(`/api/leaderboard?domain=${domain}`)).json<{
      entries: { alias: string }[];
    }>();
    expect(board.entries.map((e) => e.alias)).toEqual([name]);

    const { requestId } = await erase(person);
    // The cascade has not run: the account is still there, disabled.
    const [row] = await db().select().from(schema.users).where(eq(schema.users.id, person.id));
    expect(row?.disabledAt).not.toBeNull();
    expect((await (await call(`/api/dsr/erasure/${requestId}`)).json<{ state: string }>()).state).toBe(
      'in_progress',
    );

    await expectProblem(await call(`/api/verify/${work.certificateNo}`), 404, 'not-found');
    const page = await call(`/certificates/${work.certificateNo}`);
    expect(page.status).toBe(404);
    await page.arrayBuffer();
    const after = await (await call(`/api/leaderboard?domain=${domain}`)).json<{ entries: unknown[] }>();
    expect(after.entries).toEqual([]);
  });

  it("an employer's pending erasure leaves the certificates they rated verifying under the organisation, never their name", async () => {
    const employer = await signup('employer', 'Leaving Employer', 'Staying Org');
    const candidate = await signup('candidate', 'Staying Candidate');
    const brief = await seedBrief(employer.id);
    const work = await seedCertifiedWork(candidate, { ...brief, employerId: employer.id });
    const before = await (await call(`/api/verify/${work.certificateNo}`)).json<{
      employer: { name: string };
    }>();
    expect(before.employer.name).toBe('Staying Org');
    await erase(employer);
    const res = await call(`/api/verify/${work.certificateNo}`);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ status: 'active', employer: { name: 'Staying Org' } });
    expect(text).not.toContain('Leaving Employer');
  });
});

describe('stalled jobs', () => {
  it('a dead letter stalls the job: the health check, the job list and the DSR queue show it; an admin retries it', async () => {
    const admin = await loginAdmin();
    const start = await health();
    const person = await signup('candidate', 'Dead Letter');
    const { requestId, job } = await erase(person);

    const result = await deadLetter(job.id);
    expect(result.explicitAcks).toEqual([`dlq-${job.id}`]);

    const degraded = await health();
    expect(degraded.status).toBe('degraded');
    expect(degraded.checks.jobs.status).toBe('degraded');
    expect(degraded.jobs.stalled.erasure).toBe((start.jobs.stalled.erasure ?? 0) + 1);
    expect(degraded.jobs.stalled).toHaveProperty('evaluation');
    // No personal data in the public answer.
    expect(JSON.stringify(degraded)).not.toContain(person.id);

    const listed = await call('/api/admin/jobs?state=stalled&kind=erasure', { headers: as(admin) });
    expect(listed.status).toBe(200);
    const { items } = await listed.json<{
      items: { id: string; ref: string; lastError: string; dueAt: string }[];
    }>();
    const mine = items.find((j) => j.id === job.id);
    expect(mine).toMatchObject({ ref: requestId, lastError: 'Dead-lettered after 6 deliveries.' });
    expect(Date.parse(mine!.dueAt) - Date.parse(job.createdAt.toISOString())).toBe(30 * 24 * 60 * 60 * 1000);
    expect(JSON.stringify(items)).not.toContain(person.id); // never the payload

    const queue = await call('/api/admin/dsr-requests?kind=erasure', { headers: as(admin) });
    const request = (
      await queue.json<{ items: { id: string; dueAt: string; job: { state: string } | null }[] }>()
    ).items.find((r) => r.id === requestId);
    expect(request).toMatchObject({
      job: { id: job.id, state: 'stalled', lastError: 'Dead-lettered after 6 deliveries.' },
      dueAt: mine!.dueAt,
    });

    const retried = await call(`/api/admin/jobs/${job.id}/retry`, jsonInit('POST', {}, as(admin)));
    expect(retried.status).toBe(200);
    expect(await retried.json()).toMatchObject({ id: job.id, state: 'pending', stalledAt: null });
    const [audit] = await db()
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.targetId, job.id), eq(schema.auditLog.action, 'job.retry')));
    expect(audit?.actorId).toBe(admin.id);
    expect((await health()).jobs.stalled.erasure).toBe(start.jobs.stalled.erasure ?? 0);

    // Only a stalled job can be retried; an unknown one is a 404; only admins may.
    await expectProblem(
      await call(`/api/admin/jobs/${job.id}/retry`, jsonInit('POST', {}, as(admin))),
      409,
      'conflict',
    );
    await expectProblem(
      await call(`/api/admin/jobs/${crypto.randomUUID()}/retry`, jsonInit('POST', {}, as(admin))),
      404,
      'not-found',
    );
    const other = await signup('candidate');
    await expectProblem(await call('/api/admin/jobs', { headers: as(other) }), 403, 'forbidden');
    await expectProblem(
      await call('/api/admin/jobs?state=lost', { headers: as(admin) }),
      400,
      'invalid-parameters',
    );
  });

  it('the job list pages newest first', async () => {
    const admin = await loginAdmin();
    const kind = `test.page-${crypto.randomUUID().slice(0, 8)}`;
    const base = Date.now();
    for (let i = 0; i < 3; i++)
      await db().batch([jobInsert(db(), { id: crypto.randomUUID(), kind, payload: {} }, new Date(base + i))]);
    const first = await (await call(`/api/admin/jobs?kind=${kind}&limit=2`, { headers: as(admin) })).json<{
      items: { createdAt: string }[];
      nextCursor: string;
    }>();
    expect(first.items.map((j) => Date.parse(j.createdAt))).toEqual([base + 2, base + 1]);
    const second = await (
      await call(`/api/admin/jobs?kind=${kind}&limit=2&cursor=${first.nextCursor}`, { headers: as(admin) })
    ).json<{ items: { createdAt: string }[]; nextCursor: string | null }>();
    expect(second.items.map((j) => Date.parse(j.createdAt))).toEqual([base]);
    expect(second.nextCursor).toBeNull();
  });
});

describe('the cron and old messages', () => {
  it('the scheduled handler enqueues a job whose send failed, and gives a job to an erasure recorded without one', async () => {
    const refusing = {
      send: async () => {
        throw new Error('queue down (injected)');
      },
    } as unknown as Queue;
    const person = await signup('candidate', 'Never Enqueued');
    const receipt = await requestErasureService(db(), { ...env, JOBS_QUEUE: refusing }, person.id);
    const [unsent] = await db().select().from(schema.jobs).where(eq(schema.jobs.ref, receipt.requestId));
    expect(unsent).toMatchObject({ state: 'pending', enqueuedAt: null });

    // An erasure recorded before jobs existed, whose message was lost.
    const old = await signup('candidate', 'Before Jobs');
    const oldRequest = crypto.randomUUID();
    await db().batch([
      requestInsert(db(), { id: oldRequest, userId: old.id, kind: 'erasure', state: 'in_progress' }),
      db()
        .insert(schema.erasureReceipts)
        .values({ requestId: oldRequest, state: 'in_progress', deletedCounts: {}, requestedAt: new Date() }),
    ]);

    const ctx = createExecutionContext();
    await handler.scheduled!(
      createScheduledController({ scheduledTime: new Date(), cron: '*/15 * * * *' }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);

    const [enqueued] = await db().select().from(schema.jobs).where(eq(schema.jobs.id, unsent!.id));
    expect(enqueued?.enqueuedAt).not.toBeNull();
    const [backfilled] = await db()
      .select()
      .from(schema.jobs)
      .where(and(eq(schema.jobs.kind, 'erasure'), eq(schema.jobs.ref, oldRequest)));
    expect(backfilled).toMatchObject({
      subjectId: old.id,
      payload: { requestId: oldRequest, userId: old.id },
    });
    expect(backfilled?.enqueuedAt).not.toBeNull();
  });

  it('a message from before jobs existed still runs its erasure, through a job', async () => {
    const person = await signup('candidate', 'Old Message');
    const requestId = crypto.randomUUID();
    await db().batch([
      requestInsert(db(), { id: requestId, userId: person.id, kind: 'erasure', state: 'in_progress' }),
      db()
        .insert(schema.erasureReceipts)
        .values({ requestId, state: 'in_progress', deletedCounts: {}, requestedAt: new Date() }),
    ]);
    const batch = createMessageBatch('erasure', [
      {
        id: 'legacy',
        timestamp: new Date(),
        attempts: 1,
        body: { type: 'erasure', requestId, userId: person.id },
      },
    ]);
    const ctx = createExecutionContext();
    await handler.queue!(batch, env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(['legacy']);
    const receipt = await (await call(`/api/dsr/erasure/${requestId}`)).json<{ state: string }>();
    expect(receipt.state).toBe('completed');
    const [job] = await db().select().from(schema.jobs).where(eq(schema.jobs.ref, requestId));
    // Done, and reduced to the request id: no user id remains.
    expect(job).toMatchObject({ state: 'done', subjectId: null, payload: { requestId } });
  });
});
