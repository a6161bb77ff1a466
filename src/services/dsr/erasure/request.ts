/** Erasure intake: the request, its receipt, its job, and the backfill of jobs for requests that lack one. */
import { and, eq, notExists, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { dsrRequests, erasureReceipts, jobs, users } from '../../../db/schema';
import { afterCommit } from '../../after-commit';
import { auditInsert } from '../../audit';
import { jobFor, jobInsert } from '../../jobs/jobs';
import { endAllSessionsStatement } from '../../sessions';
import { dueDate, requestInsert } from '../requests';
export type ErasureReceiptView = {
  requestId: string;
  state: 'in_progress' | 'completed';
  deletedCounts: Record<string, number>;
  requestedAt: string;
  completedAt: string | null;
};

type ReceiptRow = typeof erasureReceipts.$inferSelect;

export const toReceiptView = (r: ReceiptRow): ErasureReceiptView => ({
  requestId: r.requestId,
  state: r.state,
  deletedCounts: r.deletedCounts,
  requestedAt: r.requestedAt.toISOString(),
  completedAt: r.completedAt?.toISOString() ?? null,
});

export async function erasureReceipt(db: Database, requestId: string): Promise<ErasureReceiptView | null> {
  const [row] = await db
    .select()
    .from(erasureReceipts)
    .where(eq(erasureReceipts.requestId, requestId))
    .limit(1);
  return row ? toReceiptView(row) : null;
}

/**
 * Records the request (receipt, `erasure` request with its due date, audit entry, the `erasure`
 * job), disables the account and ends all its sessions, all in one D1 batch (a transactional
 * outbox: the job exists exactly when the request does). Then drops the cached public views of
 * the person (verification payloads, leaderboards), so from this answer on nothing public shows
 * them even before the cascade runs, and hands the job to the queue. A failed send is not the
 * person's problem: the job is durable and the sweeper enqueues it (docs/reliability.md).
 */
export async function requestErasure(
  db: Database,
  env: Pick<Env, 'JOBS_QUEUE' | 'CACHE'>,
  userId: string,
  now = new Date(),
  /** Who asked when not the person: their guardian (src/services/guardians.ts). */
  actorId: string = userId,
): Promise<ErasureReceiptView> {
  const requestId = crypto.randomUUID();
  const jobId = crypto.randomUUID();
  const [[receipt]] = await db.batch([
    db
      .insert(erasureReceipts)
      .values({ requestId, state: 'in_progress', deletedCounts: {}, requestedAt: now })
      .returning(),
    requestInsert(db, { id: requestId, userId, kind: 'erasure', state: 'in_progress' }, now),
    auditInsert(db, {
      actorId,
      action: 'dsr.erasure',
      targetType: 'dsr_request',
      targetId: requestId,
    }),
    jobInsert(
      db,
      {
        id: jobId,
        kind: ERASURE_JOB,
        payload: { requestId, userId } satisfies ErasurePayload,
        ref: requestId,
        subjectId: userId,
        dueAt: dueDate('erasure', now),
      },
      now,
    ),
    db.update(users).set({ disabledAt: now, updatedAt: now }).where(eq(users.id, userId)),
    endAllSessionsStatement(db, userId),
  ]);
  await afterCommit(db, env, { person: { id: userId, change: 'leaving' }, jobs: [jobId] }, { now });
  return toReceiptView(receipt!);
}

/** The payload of an `erasure` job; only `requestId` is kept once it is done. */
export type ErasurePayload = { requestId: string; userId: string };

export const ERASURE_JOB = 'erasure';

/**
 * The job of an erasure request that has none: a message from before jobs existed, or a
 * request recorded before. Finds or creates it (one per request).
 */
export async function ensureErasureJob(
  db: Database,
  payload: ErasurePayload,
  now = new Date(),
  due = dueDate('erasure', now),
): Promise<string> {
  const existing = await jobFor(db, ERASURE_JOB, payload.requestId);
  if (existing) return existing.id;
  await jobInsert(
    db,
    {
      id: crypto.randomUUID(),
      kind: ERASURE_JOB,
      payload,
      ref: payload.requestId,
      subjectId: payload.userId,
      dueAt: due,
    },
    now,
  ).onConflictDoNothing();
  return (await jobFor(db, ERASURE_JOB, payload.requestId))!.id;
}

/**
 * Erasure requests recorded without a job (before jobs existed, with a message since lost):
 * the sweeper gives each one a job, so it is swept like any other. Returns how many.
 */
export async function backfillErasureJobs(db: Database, now = new Date()): Promise<number> {
  const orphans = await db
    .select({ requestId: dsrRequests.id, userId: dsrRequests.userId, dueAt: dsrRequests.dueAt })
    .from(dsrRequests)
    .where(
      and(
        eq(dsrRequests.kind, 'erasure'),
        eq(dsrRequests.state, 'in_progress'),
        notExists(
          db
            .select({ one: sql`1` })
            .from(jobs)
            .where(and(eq(jobs.kind, ERASURE_JOB), eq(jobs.ref, dsrRequests.id))),
        ),
      ),
    )
    .limit(100);
  for (const o of orphans)
    await ensureErasureJob(db, { requestId: o.requestId, userId: o.userId }, now, o.dueAt);
  return orphans.length;
}
