/**
 * The sweeper (cron, every 15 minutes; src/scheduled.ts): the backstop that makes a lost
 * message, a failed send or a crash mid-job recoverable.
 *
 * It picks up every job that
 * - is `pending`, past its backoff (`available_at`), and was never enqueued or was enqueued
 *   more than a lease ago without anyone taking it (a lost message or a failed send), or
 * - is `running` with an expired lease (the consumer died mid-job),
 * re-enqueues it and sets its next backoff (one lease, doubling per attempt, at most six hours).
 * A job still not done at its deadline (the kind's maximum age) is marked `stalled` instead.
 */
import { and, eq, isNull, lt, lte, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { jobs } from '../../db/schema';
import { leaseSeconds, sweepBackoffSeconds } from '../../domain/jobs';
import { log } from '../../lib/log';
import { dispatchJobs, stallJob } from './jobs';

/** Jobs handled per sweep; the rest wait for the next one. */
const SWEEP_LIMIT = 200;

export type SweepResult = { enqueued: string[]; stalled: string[] };

export async function sweepJobs(
  db: Database,
  env: Pick<Env, 'JOBS_QUEUE' | 'JOB_LEASE_SECONDS'>,
  now = new Date(),
): Promise<SweepResult> {
  const lease = leaseSeconds(env.JOB_LEASE_SECONDS);
  const leaseAgo = new Date(now.getTime() - lease * 1000);
  const lost = and(
    eq(jobs.state, 'pending'),
    lte(jobs.availableAt, now),
    or(isNull(jobs.enqueuedAt), lte(jobs.enqueuedAt, leaseAgo)),
  );
  const crashed = and(eq(jobs.state, 'running'), lt(jobs.leaseUntil, now));
  const overdue = and(or(eq(jobs.state, 'pending'), eq(jobs.state, 'running')), lte(jobs.deadlineAt, now));
  const due = await db
    .select({
      id: jobs.id,
      attempts: jobs.attempts,
      deadlineAt: jobs.deadlineAt,
      state: jobs.state,
      leaseUntil: jobs.leaseUntil,
    })
    .from(jobs)
    .where(or(lost, crashed, overdue))
    .limit(SWEEP_LIMIT);

  const result: SweepResult = { enqueued: [], stalled: [] };
  for (const job of due) {
    if (job.deadlineAt.getTime() <= now.getTime()) {
      // A consumer still holding a live lease may yet finish it; the next sweep decides.
      if (job.state === 'running' && job.leaseUntil && job.leaseUntil.getTime() >= now.getTime()) continue;
      const why = `Not done by its deadline (${job.deadlineAt.toISOString()}) after ${job.attempts} attempt(s).`;
      if (await stallJob(db, job.id, why, now)) result.stalled.push(job.id);
      continue;
    }
    // Conditional on what was read, so a consumer taking it meanwhile wins.
    const [claimed] = await db
      .update(jobs)
      .set({
        state: 'pending',
        leaseUntil: null,
        availableAt: new Date(now.getTime() + sweepBackoffSeconds(job.attempts, lease) * 1000),
        updatedAt: now,
      })
      .where(and(eq(jobs.id, job.id), or(lost, crashed)))
      .returning({ id: jobs.id });
    if (claimed) result.enqueued.push(job.id);
  }
  const failed = await dispatchJobs(db, env, result.enqueued, now);
  if (result.enqueued.length || result.stalled.length)
    log('info', 'job sweep', {
      enqueued: result.enqueued.length - failed.length,
      notEnqueued: failed.length,
      stalled: result.stalled.length,
    });
  return result;
}
