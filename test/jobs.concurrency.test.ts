/**
 * Jobs that run at the same time, or are held back: two cascades of one person, a paused
 * consumer, a slow job beside fast ones in a batch, jobs of one kind that must not overlap, and a
 * stalled export build. Each was found by a black-box round (work that survived crashes and
 * restarts there but not these, reproduced inside workerd):
 *
 * - two erasure requests of one person sent at once (both answered 202): the first cascade
 *   deleted the second request's job, so its receipt stayed `in_progress` for ever;
 * - a paused consumer (`JOBS_PAUSED=true`) put every message back, and each retry counts towards
 *   the queue's `max_retries`: five minutes of pause dead-lettered (stalled) every job.
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema';
import { consumeJobBatch } from '../src/queue/consumer';
import { erasureReceipt, requestErasure } from '../src/services/dsr/erasure';
import { EXPORT_JOB, queueAccessExport } from '../src/services/dsr/export-job';
import { jobInsert, serialChain, stallJob } from '../src/services/jobs/jobs';
import { registerJobKind } from '../src/services/jobs/registry';
import { sweepJobs } from '../src/services/jobs/sweeper';
import { db, certifiedPerson as harnessCertifiedPerson } from './harness';
import { call } from './helpers';

const LEASE = 60;
const PAUSED_REDELIVERIES = 3;
const SECOND = 1000;
const later = (d: Date, s: number) => new Date(d.getTime() + s * SECOND);

/** A queue binding that records what was sent. */
function fakeQueue() {
  const sent: string[] = [];
  return {
    sent,
    async send(body: { jobId: string }) {
      sent.push(body.jobId);
    },
    async sendBatch() {
      throw new Error('not used');
    },
  };
}

const envWith = (queue = fakeQueue(), extra: Partial<Env> = {}) =>
  ({
    ...env,
    JOBS_QUEUE: queue as unknown as Queue,
    JOB_LEASE_SECONDS: String(LEASE),
    ...extra,
  }) as Env;

let messageNo = 0;
/** One delivery of a job message to the real consumer; returns whether it was acked or retried. */
async function deliver(e: Env, jobId: string, at: Date, attempts = 1) {
  messageNo += 1;
  const id = `r2-${messageNo}`;
  const batch = createMessageBatch('erasure', [{ id, timestamp: at, attempts, body: { jobId } }]);
  await consumeJobBatch(batch, e, { now: at });
  const result = await getQueueResult(batch, createExecutionContext());
  return {
    acked: result.explicitAcks.includes(id),
    retried: result.retryMessages.some((m) => m.msgId === id),
  };
}

const jobRow = async (id: string) => (await db().select().from(schema.jobs).where(eq(schema.jobs.id, id)))[0];

const erasureJobOf = async (requestId: string) =>
  (
    await db()
      .select()
      .from(schema.jobs)
      .where(and(eq(schema.jobs.kind, 'erasure'), eq(schema.jobs.ref, requestId)))
  )[0];

const certifiedPerson = () => harnessCertifiedPerson('Round2');

describe('erasure requested twice at once', () => {
  it('both receipts complete, whichever cascade runs first (the first no longer deletes the other job)', async () => {
    const p = await certifiedPerson();
    const now = new Date();
    const e = envWith();
    // Both requests passed authentication before either batch ended the session: two 202s.
    const [first, second] = await Promise.all([
      requestErasure(db(), e, p.id, now),
      requestErasure(db(), e, p.id, now),
    ]);
    expect(first.requestId).not.toBe(second.requestId);
    const firstJob = (await erasureJobOf(first.requestId))!;
    const secondJob = (await erasureJobOf(second.requestId))!;

    expect(await deliver(e, firstJob.id, later(now, 1))).toEqual({ acked: true, retried: false });
    expect((await erasureReceipt(db(), first.requestId))?.state).toBe('completed');
    // The other request's job is still there, and completes its own receipt.
    expect(await jobRow(secondJob.id)).toBeDefined();
    expect(await deliver(e, secondJob.id, later(now, 2))).toEqual({ acked: true, retried: false });
    expect((await erasureReceipt(db(), second.requestId))?.state).toBe('completed');
    expect(await jobRow(secondJob.id)).toMatchObject({ state: 'done', subjectId: null });

    const [user] = await db().select().from(schema.users).where(eq(schema.users.id, p.id));
    expect(user).toBeUndefined();
    const verify = await call(`/api/verify/${p.work.certificateNo}`);
    await verify.arrayBuffer();
    expect(verify.status).toBe(404);
    // Nothing about the person is left in either job.
    for (const id of [firstJob.id, secondJob.id])
      expect(JSON.stringify(await jobRow(id))).not.toContain(p.id);
  });
});

describe('a paused consumer', () => {
  const probe = registerJobKind<{ n: number }>({
    kind: 'test.round2_probe',
    parse: (p) => (typeof (p as { n?: unknown }).n === 'number' ? { n: (p as { n: number }).n } : null),
    run: async () => {},
  });

  it('puts a message back a few times, then leaves the job to the sweeper: a long pause never dead-letters it', async () => {
    const now = new Date();
    const jobId = crypto.randomUUID();
    await jobInsert(db(), { id: jobId, kind: probe.kind, payload: { n: 1 }, ref: jobId }, now);
    const paused = envWith(fakeQueue(), { JOBS_PAUSED: 'true' } as Partial<Env>);

    for (let attempts = 1; attempts < PAUSED_REDELIVERIES; attempts++)
      expect(await deliver(paused, jobId, later(now, attempts * 60), attempts)).toEqual({
        acked: false,
        retried: true,
      });
    // The queue's `max_retries` is 5: the consumer stops putting it back before that.
    for (let attempts = PAUSED_REDELIVERIES; attempts <= 6; attempts++)
      expect(await deliver(paused, jobId, later(now, attempts * 60), attempts)).toEqual({
        acked: true,
        retried: false,
      });
    expect(await jobRow(jobId)).toMatchObject({ state: 'pending', attempts: 0 });

    // Still paused: the sweeper keeps re-enqueuing it (never stalls it before its deadline).
    const queue = fakeQueue();
    const swept = await sweepJobs(
      db(),
      envWith(queue, { JOBS_PAUSED: 'true' } as Partial<Env>),
      later(now, 600),
    );
    expect(swept.enqueued).toContain(jobId);
    expect(swept.stalled).not.toContain(jobId);

    // The pause ends: the next delivery runs it.
    expect(await deliver(envWith(queue), jobId, later(now, 601))).toEqual({ acked: true, retried: false });
    expect(await jobRow(jobId)).toMatchObject({ state: 'done', attempts: 1 });
  });
});

describe('one slow job in a batch', () => {
  let release: () => void = () => {};
  const gate = () =>
    new Promise<void>((resolve) => {
      release = resolve;
    });
  let slowGate: Promise<void> = Promise.resolve();
  const slow = registerJobKind<{ n: number }>({
    kind: 'test.round2_slow',
    parse: (p) => (typeof (p as { n?: unknown }).n === 'number' ? { n: (p as { n: number }).n } : null),
    // A webhook receiver that holds the connection for its whole timeout, say.
    run: async () => {
      await slowGate;
    },
  });
  const quick = registerJobKind<{ n: number }>({
    kind: 'test.round2_quick',
    parse: (p) => (typeof (p as { n?: unknown }).n === 'number' ? { n: (p as { n: number }).n } : null),
    run: async () => {},
  });

  it('does not hold back the other jobs of its batch', async () => {
    const now = new Date();
    const slowId = crypto.randomUUID();
    const quickIds = [crypto.randomUUID(), crypto.randomUUID()];
    await jobInsert(db(), { id: slowId, kind: slow.kind, payload: { n: 1 }, ref: slowId }, now);
    for (const id of quickIds)
      await jobInsert(db(), { id, kind: quick.kind, payload: { n: 1 }, ref: id }, now);
    slowGate = gate();
    const batch = createMessageBatch('erasure', [
      { id: 'slow-1', timestamp: now, attempts: 1, body: { jobId: slowId } },
      ...quickIds.map((jobId, i) => ({ id: `quick-${i}`, timestamp: now, attempts: 1, body: { jobId } })),
    ]);
    const consumed = consumeJobBatch(batch, envWith(), { now });
    // The quick jobs finish while the slow one (first in the batch) is still running.
    let quickDone = false;
    for (let i = 0; i < 40 && !quickDone; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const rows = await Promise.all(quickIds.map(jobRow));
      quickDone = rows.every((r) => r?.state === 'done');
    }
    expect((await jobRow(slowId))?.state).toBe('running');
    release();
    await consumed;
    expect(quickDone).toBe(true);
    expect(await jobRow(slowId)).toMatchObject({ state: 'done' });
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.explicitAcks.sort()).toEqual(['quick-0', 'quick-1', 'slow-1']);
  });
});

describe('work that must not overlap within a batch (export builds)', () => {
  it('runs one after another on the batch chain, a failure not stopping the next', async () => {
    const serial = serialChain();
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const work =
      (name: string, fail = false) =>
      async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 10));
        order.push(name);
        running--;
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([serial(work('a')), serial(work('b', true)), serial(work('c'))]);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(most).toBe(1);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it("gives each job kind's run the batch's chain, so two export jobs of one batch never build at once", async () => {
    let running = 0;
    let most = 0;
    const heavy = registerJobKind<{ n: number }>({
      kind: 'test.round2_heavy',
      parse: (p) => (typeof (p as { n?: unknown }).n === 'number' ? { n: (p as { n: number }).n } : null),
      run: (_payload, { serial }) =>
        serial(async () => {
          running++;
          most = Math.max(most, running);
          await new Promise((r) => setTimeout(r, 20));
          running--;
        }),
    });
    const now = new Date();
    const ids = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    for (const id of ids) await jobInsert(db(), { id, kind: heavy.kind, payload: { n: 1 }, ref: id }, now);
    const batch = createMessageBatch(
      'erasure',
      ids.map((jobId, i) => ({ id: `heavy-${i}`, timestamp: now, attempts: 1, body: { jobId } })),
    );
    await consumeJobBatch(batch, envWith(), { now });
    expect(most).toBe(1);
    for (const id of ids) expect(await jobRow(id)).toMatchObject({ state: 'done' });
  });
});

describe('a large export whose build stalled', () => {
  it('asking again retries the stalled build instead of answering a request that never completes', async () => {
    const p = await certifiedPerson();
    const user = {
      id: p.id,
      email: `${p.id}@example.test`,
      name: 'Round2',
      role: 'candidate' as const,
      organisationId: null,
      dateOfBirth: null,
      sessionId: 'x',
      signedInAt: new Date(),
    };
    const now = new Date();
    const first = await queueAccessExport(db(), envWith(), user, now);
    const job = (
      await db()
        .select()
        .from(schema.jobs)
        .where(and(eq(schema.jobs.kind, EXPORT_JOB), eq(schema.jobs.ref, first.id)))
    )[0]!;
    // R2 down for every retry: dead-lettered, stalled.
    await stallJob(db(), job.id, 'Dead-lettered after 6 deliveries.', later(now, 600));

    const queue = fakeQueue();
    const again = await queueAccessExport(db(), envWith(queue), user, later(now, 700));
    expect(again.id).toBe(first.id);
    expect(await jobRow(job.id)).toMatchObject({ state: 'pending', stalledAt: null });
    expect(queue.sent).toEqual([job.id]);
    expect(await deliver(envWith(queue), job.id, later(now, 701))).toEqual({ acked: true, retried: false });
    const [request] = await db().select().from(schema.dsrRequests).where(eq(schema.dsrRequests.id, first.id));
    expect(request?.state).toBe('completed');
    const audit = await db()
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.targetId, job.id), eq(schema.auditLog.action, 'job.retry')));
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actorId).toBe(p.id);
  });
});
