/**
 * Fault injection for deferred jobs, inside workerd: for every kind (erasure, evaluation and a
 * test-only kind that proves the generic machinery), the faults an operator's bad day brings:
 *
 * - `queue.send` throwing after the commit (or, for an evaluation, the isolate dying before its
 *   `waitUntil` ran): the sweeper enqueues it;
 * - the consumer throwing at each step: the queue retries it;
 * - a crash between steps (the delivery never returns, its lease stays held): the sweeper, with
 *   the clock moved past the lease, re-enqueues it;
 * - the same message delivered twice, at once and again later;
 * - a dependency down for every retry: dead-lettered, stalled, retried by an administrator;
 * - a job nobody ever delivers: stalled by the sweeper at its maximum age, then retried.
 *
 * Every job is then checked to have done its work. The last test prints the figures quoted in
 * docs/reliability.md and fails if any job was lost.
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema';
import { DEFAULT_MAX_AGE_SECONDS } from '../src/domain/jobs';
import { consumeDeadLetters, consumeJobBatch } from '../src/queue/consumer';
import { corpusFor } from '../src/services/corpus';
import { ERASURE_STEPS, erasureReceipt, requestErasure } from '../src/services/dsr/erasure';
import { dispatchJobs, jobInsert, retryJob } from '../src/services/jobs/jobs';
import { registerJobKind } from '../src/services/jobs/registry';
import { sweepJobs } from '../src/services/jobs/sweeper';
import { ping } from '../src/services/webhooks/delivery';
import { createSubmission, storageLimits } from '../src/services/workflow/submissions';
import { db, GOOD_WORK, certifiedPerson as harnessCertifiedPerson, signup } from './harness';
import { as, call, jsonInit } from './helpers';

const LEASE = 60;
const SECOND = 1000;

/** A queue binding that records what was sent, or refuses every send. */
function fakeQueue(refuse = false) {
  const sent: string[] = [];
  const queue = {
    sent,
    async send(body: { jobId: string }) {
      if (refuse) throw new Error('queue unavailable (injected)');
      sent.push(body.jobId);
    },
    async sendBatch() {
      throw new Error('not used');
    },
  };
  return queue;
}

/** The test Worker's env with a fake queue and a short lease. */
const envWith = (queue = fakeQueue()) =>
  ({ ...env, JOBS_QUEUE: queue as unknown as Queue, JOB_LEASE_SECONDS: String(LEASE) }) as Env;

const figures = { faults: 0, jobs: 0, deliveries: 0 };
const created: { jobId: string; kind: string; check: () => Promise<boolean> }[] = [];

let messageNo = 0;
/** One delivery of a job message to the real consumer; returns what it acked or retried. */
async function deliver(
  e: Env,
  jobId: string,
  at: Date,
  onStep?: (step: string) => void | Promise<void>,
  attempts = 1,
) {
  figures.deliveries += 1;
  messageNo += 1;
  const id = `m-${messageNo}`;
  const batch = createMessageBatch('erasure', [{ id, timestamp: at, attempts, body: { jobId } }]);
  await consumeJobBatch(batch, e, { now: at, ...(onStep ? { onStep } : {}) });
  const result = await getQueueResult(batch, createExecutionContext());
  return {
    acked: result.explicitAcks.includes(id),
    retried: result.retryMessages.some((m) => m.msgId === id),
  };
}

const jobRow = async (id: string) =>
  (await db().select().from(schema.jobs).where(eq(schema.jobs.id, id)))[0]!;

const certifiedPerson = () => harnessCertifiedPerson('Faulty');

type Kind = {
  kind: string;
  steps: string[];
  /** Creates the work as its request would, with `e`'s queue; returns the job id and a check of the outcome. */
  create: (e: Env, now: Date) => Promise<{ jobId: string; check: () => Promise<boolean> }>;
};

const erasure: Kind = {
  kind: 'erasure',
  steps: [...ERASURE_STEPS.map((s) => s.key), 'caches'],
  create: async (e, now) => {
    const p = await certifiedPerson();
    const receipt = await requestErasure(db(), e, p.id, now);
    const [job] = await db()
      .select()
      .from(schema.jobs)
      .where(and(eq(schema.jobs.kind, 'erasure'), eq(schema.jobs.ref, receipt.requestId)));
    return {
      jobId: job!.id,
      check: async () => {
        const done = await erasureReceipt(db(), receipt.requestId);
        const verify = await call(`/api/verify/${p.work.certificateNo}`);
        await verify.arrayBuffer();
        const [user] = await db().select().from(schema.users).where(eq(schema.users.id, p.id));
        return done?.state === 'completed' && verify.status === 404 && user === undefined;
      },
    };
  },
};

const evaluation: Kind = {
  kind: 'evaluation',
  steps: ['evaluating', 'scored', 'written'],
  create: async (_e, _now) => {
    const p = await certifiedPerson();
    // As the route does, minus the `waitUntil` that would run it: the isolate died first.
    const created = await createSubmission(
      db(),
      p.id,
      { milestoneId: p.brief.milestoneId, text: GOOD_WORK },
      storageLimits(env),
      corpusFor(env),
    );
    return {
      jobId: created!.jobId!,
      check: async () => {
        const [row] = await db()
          .select({ state: schema.evaluations.state, sub: schema.submissions.state })
          .from(schema.evaluations)
          .innerJoin(schema.submissions, eq(schema.submissions.id, schema.evaluations.submissionId))
          .where(eq(schema.evaluations.id, created!.evaluationId));
        const audits = await db()
          .select()
          .from(schema.auditLog)
          .where(eq(schema.auditLog.targetId, created!.evaluationId));
        return row?.state === 'completed' && row.sub === 'evaluated' && audits.length === 1;
      },
    };
  },
};

/** A webhook attempt (a ping to the test receiver): succeeded, with exactly one recorded attempt. */
const webhookDelivery: Kind = {
  kind: 'webhook_delivery',
  steps: ['sent', 'recorded'],
  create: async (e, now) => {
    const employer = await signup('employer');
    const res = await call(
      '/api/webhooks',
      jsonInit(
        'POST',
        {
          url: `https://hooks.test/faults-${crypto.randomUUID().slice(0, 8)}`,
          eventTypes: ['certificate.issued'],
        },
        as(employer),
      ),
    );
    const endpoint = await res.json<{ id: string }>();
    const [member] = await db().select().from(schema.users).where(eq(schema.users.id, employer.id));
    const delivery = await ping(db(), e, member!.organisationId!, endpoint.id, now);
    const [job] = await db()
      .select()
      .from(schema.jobs)
      .where(and(eq(schema.jobs.kind, 'webhook_delivery'), eq(schema.jobs.ref, `${delivery.id}#1`)));
    return {
      jobId: job!.id,
      check: async () => {
        const [row] = await db()
          .select()
          .from(schema.webhookDeliveries)
          .where(eq(schema.webhookDeliveries.id, delivery.id));
        const attempts = await db()
          .select()
          .from(schema.webhookAttempts)
          .where(eq(schema.webhookAttempts.deliveryId, delivery.id));
        return row?.state === 'succeeded' && row.attempts === 1 && attempts.length === 1;
      },
    };
  },
};

/** A test-only kind: two steps, each an idempotent write, to prove the generic machinery. */
registerJobKind<{ key: string }>({
  kind: 'test.probe',
  parse: (p) => {
    const key = (p as { key?: unknown }).key;
    return typeof key === 'string' ? { key } : null;
  },
  run: async ({ key }, { env: e, step }) => {
    await e.CACHE.put(`probe:${key}:a`, '1');
    await step('a');
    await e.CACHE.put(`probe:${key}:b`, '1');
    await step('b');
  },
});

const probe: Kind = {
  kind: 'test.probe',
  steps: ['a', 'b'],
  create: async (e, now) => {
    const key = crypto.randomUUID();
    const id = crypto.randomUUID();
    await db().batch([jobInsert(db(), { id, kind: 'test.probe', payload: { key }, ref: key }, now)]);
    await dispatchJobs(db(), e, [id], now);
    return {
      jobId: id,
      check: async () =>
        (await env.CACHE.get(`probe:${key}:a`)) === '1' && (await env.CACHE.get(`probe:${key}:b`)) === '1',
    };
  },
};

async function track(kind: Kind, e: Env, now: Date) {
  const made = await kind.create(e, now);
  figures.jobs += 1;
  created.push({ ...made, kind: kind.kind });
  return made;
}

const later = (from: Date, s: number) => new Date(from.getTime() + s * SECOND);

describe.each([erasure, evaluation, webhookDelivery, probe])(
  '$kind job under faults',
  { timeout: 120_000 },
  (kind) => {
    it('queue.send throws after the commit: the job is kept, never enqueued, and the sweeper enqueues it', async () => {
      const now = new Date();
      const refusing = fakeQueue(true);
      const { jobId, check } = await track(kind, envWith(refusing), now);
      // For the evaluation the fault is the isolate dying before its waitUntil ran: no send at all.
      figures.faults += 1;
      expect(await jobRow(jobId)).toMatchObject({ state: 'pending', enqueuedAt: null, attempts: 0 });

      const queue = fakeQueue();
      const swept = await sweepJobs(db(), envWith(queue), later(now, 1));
      expect(swept.enqueued).toContain(jobId);
      expect(queue.sent).toContain(jobId);
      expect((await jobRow(jobId)).enqueuedAt).not.toBeNull();

      expect(await deliver(envWith(queue), jobId, later(now, 2))).toEqual({ acked: true, retried: false });
      expect(await jobRow(jobId)).toMatchObject({ state: 'done', attempts: 1 });
      expect(await check()).toBe(true);
    });

    it('the consumer throws at each step: the message is retried and the next delivery completes it', async () => {
      for (const failAt of kind.steps) {
        const now = new Date();
        const { jobId, check } = await track(kind, envWith(), now);
        const failing = await deliver(envWith(), jobId, now, (step) => {
          if (step === failAt) throw new Error(`injected failure after ${step}`);
        });
        figures.faults += 1;
        expect(failing, failAt).toEqual({ acked: false, retried: true });
        const failed = await jobRow(jobId);
        expect(failed, failAt).toMatchObject({
          state: 'pending',
          lastError: `injected failure after ${failAt}`,
          leaseUntil: null,
        });
        // The sweeper leaves it to the queue's own redelivery for now.
        expect((await sweepJobs(db(), envWith(), later(now, 1))).enqueued).not.toContain(jobId);

        expect(await deliver(envWith(), jobId, later(now, 30), undefined, 2), failAt).toEqual({
          acked: true,
          retried: false,
        });
        expect(await jobRow(jobId), failAt).toMatchObject({ state: 'done', attempts: 2, lastError: null });
        expect(await check(), failAt).toBe(true);
      }
    });

    it('a crash between steps: the lease expires, the sweeper re-enqueues it, the next run resumes', async () => {
      for (const crashAt of kind.steps) {
        const now = new Date();
        const { jobId, check } = await track(kind, envWith(), now);
        // The delivery stops at the step and never returns, as if the isolate died there.
        let die: (err: Error) => void = () => {};
        const stuck = new Promise<void>((_, reject) => {
          die = reject;
        });
        let reached: () => void = () => {};
        const atStep = new Promise<void>((resolve) => {
          reached = resolve;
        });
        const crashed = deliver(envWith(), jobId, now, (step) => {
          if (step !== crashAt) return;
          reached();
          return stuck;
        });
        await atStep;
        figures.faults += 1;
        expect(await jobRow(jobId), crashAt).toMatchObject({ state: 'running', attempts: 1 });

        // Within the lease nothing happens; once it has expired, the sweeper re-enqueues the job.
        expect((await sweepJobs(db(), envWith(), later(now, LEASE - 1))).enqueued).not.toContain(jobId);
        const queue = fakeQueue();
        expect((await sweepJobs(db(), envWith(queue), later(now, LEASE + 1))).enqueued, crashAt).toContain(
          jobId,
        );
        expect(queue.sent).toContain(jobId);
        expect(await deliver(envWith(queue), jobId, later(now, LEASE + 2)), crashAt).toEqual({
          acked: true,
          retried: false,
        });
        expect(await jobRow(jobId), crashAt).toMatchObject({ state: 'done', attempts: 2 });
        expect(await check(), crashAt).toBe(true);

        // The dead delivery's late failure changes nothing.
        die(new Error('the isolate is gone'));
        await crashed;
        expect((await jobRow(jobId)).state).toBe('done');
      }
    });

    it('the same message delivered twice at once, and again later: one run, the rest acknowledged', async () => {
      const now = new Date();
      const { jobId, check } = await track(kind, envWith(), now);
      const twice = await Promise.all([deliver(envWith(), jobId, now), deliver(envWith(), jobId, now)]);
      figures.faults += 1;
      expect(twice).toEqual([
        { acked: true, retried: false },
        { acked: true, retried: false },
      ]);
      expect(await deliver(envWith(), jobId, later(now, 5))).toEqual({ acked: true, retried: false });
      figures.faults += 1;
      expect(await jobRow(jobId)).toMatchObject({ state: 'done', attempts: 1 });
      expect(await check()).toBe(true);
    });

    it('a dependency down for every retry: dead-lettered, stalled with an audit entry, retried by an administrator', async () => {
      const now = new Date();
      const { jobId, check } = await track(kind, envWith(), now);
      for (let attempt = 1; attempt <= 6; attempt++) {
        const r = await deliver(
          envWith(),
          jobId,
          later(now, attempt * 700),
          () => {
            throw new Error('dependency down (injected)');
          },
          attempt,
        );
        figures.faults += 1;
        expect(r.retried).toBe(true);
      }
      const dlq = createMessageBatch('erasure-dlq', [
        { id: `dlq-${jobId}`, timestamp: now, attempts: 6, body: { jobId } },
      ]);
      await consumeDeadLetters(dlq, envWith(), later(now, 5000));
      expect(await jobRow(jobId)).toMatchObject({
        state: 'stalled',
        lastError: 'Dead-lettered after 6 deliveries.',
      });
      const audit = await db()
        .select()
        .from(schema.auditLog)
        .where(and(eq(schema.auditLog.targetId, jobId), eq(schema.auditLog.action, 'job.stalled')));
      expect(audit).toHaveLength(1);
      // The sweeper leaves stalled jobs alone.
      expect((await sweepJobs(db(), envWith(), later(now, 6000))).enqueued).not.toContain(jobId);

      const queue = fakeQueue();
      const retried = await retryJob(db(), envWith(queue), (await admin()).id, jobId, later(now, 7000));
      expect(retried.state).toBe('pending');
      expect(queue.sent).toEqual([jobId]);
      expect(await deliver(envWith(queue), jobId, later(now, 7001))).toEqual({ acked: true, retried: false });
      expect(await jobRow(jobId)).toMatchObject({ state: 'done' });
      expect(await check()).toBe(true);
    });

    it('a message lost for good: past its maximum age the sweeper marks it stalled; a retry completes it', async () => {
      const now = new Date();
      const { jobId, check } = await track(kind, envWith(), now);
      figures.faults += 1; // the message never arrives
      const maxAge = kind.kind === 'evaluation' ? 6 * 60 * 60 : DEFAULT_MAX_AGE_SECONDS;
      const swept = await sweepJobs(db(), envWith(), later(now, maxAge + 1));
      expect(swept.stalled).toContain(jobId);
      expect(await jobRow(jobId)).toMatchObject({
        state: 'stalled',
        lastError: expect.stringContaining('deadline'),
      });

      const queue = fakeQueue();
      await retryJob(db(), envWith(queue), (await admin()).id, jobId, later(now, maxAge + 2));
      expect(await deliver(envWith(queue), jobId, later(now, maxAge + 3))).toEqual({
        acked: true,
        retried: false,
      });
      expect(await check()).toBe(true);
    });
  },
);

let adminId: string | undefined;
async function admin() {
  if (!adminId) {
    adminId = crypto.randomUUID();
    await db()
      .insert(schema.users)
      .values({
        id: adminId,
        email: `${adminId}@example.test`,
        name: 'Operator',
        role: 'admin',
        passwordHash: 'x',
        passwordSalt: 'x',
        passwordIterations: 1,
      });
  }
  return { id: adminId };
}

describe('fault-injection figures', () => {
  it('loses no job', async () => {
    let lost = 0;
    for (const job of created) {
      const row = await jobRow(job.jobId);
      if (row.state !== 'done' || !(await job.check())) lost += 1;
    }
    const kinds = new Set(created.map((j) => j.kind)).size;
    console.log(
      `FAULT INJECTION: ${figures.faults} faults injected into ${figures.jobs} jobs of ${kinds} kinds ` +
        `(${figures.deliveries} deliveries); jobs lost: ${lost}`,
    );
    expect(figures.jobs).toBeGreaterThan(0);
    expect(figures.faults).toBeGreaterThanOrEqual(figures.jobs);
    expect(lost).toBe(0);
  });
});
