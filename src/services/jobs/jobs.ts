/**
 * Deferred jobs: the durable record of every piece of work done after a response (docs/reliability.md).
 *
 * 1. **Outbox.** The request writes the job row (`jobInsert`) in the same D1 batch as its own
 *    change, then hands the id to the queue (`dispatchJobs`). If the send fails, or the isolate
 *    dies before it, the row is still there, never enqueued: the sweeper enqueues it.
 * 2. **Lease.** A consumer runs a job only after taking its lease (`runJob`): a conditional
 *    update that succeeds for one taker while the lease (`JOB_LEASE_SECONDS`) lasts. A crash
 *    leaves the lease to expire; the sweeper then re-enqueues the job. A redelivered message of a
 *    job that is done, stalled or leased by someone else is acknowledged without running anything.
 * 3. **Idempotent handlers** (src/services/jobs/registry.ts) make running twice harmless.
 * 4. **Stalled.** Past its deadline, dead-lettered, or refused by its handler, a job is `stalled`
 *    with its last error and an audit entry; `GET /api/health` counts it and an administrator
 *    retries it (`retryJob`).
 *
 * Queue messages carry only `{ jobId }`. Errors are recorded as the database's own message,
 * never Drizzle's wrapper, which quotes the statement's parameters (user ids, emails).
 */
import { and, desc, eq, inArray, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type JobState, jobs } from '../../db/schema';
import { DEFAULT_MAX_AGE_SECONDS, leaseSeconds, retryDelaySeconds } from '../../domain/jobs';
import { log } from '../../lib/log';
import type { Position } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import { auditInsert } from '../audit';
import { type JobContext, type JobRow, jobKind, PermanentJobError } from './registry';

/** The body of every job message on the queue. */
export type JobMessage = { jobId: string };

export function isJobMessage(body: unknown): body is JobMessage {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as Record<string, unknown>).jobId === 'string' &&
    Object.keys(body).length === 1
  );
}

/** The database's message rather than Drizzle's wrapper, which quotes parameters. */
export const describeError = (err: unknown) =>
  (err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)).slice(
    0,
    500,
  );

const seconds = (s: number) => s * 1000;

export type NewJob = {
  id?: string;
  kind: string;
  payload: Record<string, unknown>;
  /** The record the job acts on; unique per kind, so asking twice finds the same job. */
  ref?: string | null;
  /** The person the job is about (their erasure deletes it). */
  subjectId?: string | null;
  dueAt?: Date | null;
};

/** The insert of a new job, unexecuted, for the `db.batch([...])` of the change that asks for it. */
export function jobInsert(db: Database, input: NewJob & { id: string }, now = new Date()) {
  const maxAge = jobKind(input.kind)?.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS;
  return db.insert(jobs).values({
    id: input.id,
    kind: input.kind,
    payload: input.payload,
    ref: input.ref ?? null,
    subjectId: input.subjectId ?? null,
    state: 'pending',
    availableAt: now,
    deadlineAt: new Date(now.getTime() + seconds(maxAge)),
    dueAt: input.dueAt ?? null,
    createdAt: now,
  });
}

/**
 * Hands jobs to the queue and records when. A failed send is logged, not thrown: the job is
 * durable and the sweeper enqueues it; the request that created it has already committed.
 * Returns the ids that could not be sent.
 */
export async function dispatchJobs(
  db: Database,
  env: Pick<Env, 'JOBS_QUEUE'>,
  ids: readonly string[],
  now = new Date(),
  delaySeconds = 0,
): Promise<string[]> {
  const sent: string[] = [];
  const failed: string[] = [];
  for (const jobId of ids) {
    try {
      await env.JOBS_QUEUE.send({ jobId } satisfies JobMessage, delaySeconds ? { delaySeconds } : {});
      sent.push(jobId);
    } catch (err) {
      failed.push(jobId);
      log('error', 'job not enqueued; the sweeper will', { jobId, error: describeError(err) });
    }
  }
  // In chunks: D1 binds at most 100 parameters per statement (a breach page dispatches 100 jobs).
  for (let i = 0; i < sent.length; i += 90)
    await db
      .update(jobs)
      .set({ enqueuedAt: now })
      .where(and(inArray(jobs.id, sent.slice(i, i + 90)), ne(jobs.state, 'done')));
  return failed;
}

/** What `runJob` did with a delivery. */
export type RunOutcome =
  /** The handler finished; the job is done. */
  | 'done'
  /** Nothing to do: the job is done or stalled already, or does not exist. */
  | 'skipped'
  /** Another consumer holds a live lease; it (or the sweeper, if it dies) finishes the job. */
  | 'busy'
  /** The handler refused the job, or its kind or payload is unknown: stalled. */
  | 'stalled';

/** Runs `work` after the work handed to it before has settled (one queue batch's chain). */
export type Serial = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * A new chain of work run one after another. One per queue batch (never shared between
 * invocations: a promise of one invocation's I/O must not be awaited by another's).
 */
export function serialChain(): Serial {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>) => {
    const run = last.then(work, work);
    last = run.catch(() => undefined);
    return run;
  };
}

export type RunOptions = {
  now?: Date;
  /** Runs work that must not overlap other such work of the same batch (see `JobContext.serial`). */
  serial?: Serial;
  /** Fault injection (tests): called at each step the handler marks; throw to simulate a crash there. */
  onStep?: (step: string, job: JobRow) => void | Promise<void>;
};

/**
 * Takes the job's lease and runs its handler. Throws when the handler failed and a retry may
 * help: the job is back to `pending` (with its error) and the caller asks the queue to
 * redeliver. The lease is a conditional update, so of two deliveries at once only one runs.
 */
export async function runJob(
  db: Database,
  env: Env,
  jobId: string,
  options: RunOptions = {},
): Promise<RunOutcome> {
  const now = options.now ?? new Date();
  const lease = seconds(leaseSeconds(env.JOB_LEASE_SECONDS));
  const [job] = await db
    .update(jobs)
    .set({
      state: 'running',
      attempts: sql`${jobs.attempts} + 1`,
      leaseUntil: new Date(now.getTime() + lease),
      updatedAt: now,
    })
    .where(
      and(
        eq(jobs.id, jobId),
        or(eq(jobs.state, 'pending'), and(eq(jobs.state, 'running'), lt(jobs.leaseUntil, now))),
      ),
    )
    .returning();
  if (!job) {
    const [current] = await db.select({ state: jobs.state }).from(jobs).where(eq(jobs.id, jobId)).limit(1);
    return current?.state === 'running' ? 'busy' : 'skipped';
  }

  const kind = jobKind(job.kind);
  const payload = kind?.parse(job.payload) ?? null;
  if (!kind || payload === null) {
    await stallJob(
      db,
      job.id,
      kind ? 'The payload is not one this kind understands.' : `Unknown job kind ${job.kind}.`,
      now,
    );
    return 'stalled';
  }
  const ctx: JobContext = {
    env,
    db,
    job,
    now,
    step: async (name) => {
      await options.onStep?.(name, job);
    },
    serial: options.serial ?? ((work) => work()),
  };
  try {
    await kind.run(payload, ctx);
  } catch (err) {
    const error = describeError(err);
    if (err instanceof PermanentJobError) {
      await stallJob(db, job.id, error, now);
      return 'stalled';
    }
    // Back to pending; the queue redelivers after its delay, and the sweeper holds off until
    // that redelivery has had a lease's time to arrive.
    const wait = seconds(retryDelaySeconds(job.attempts)) + lease;
    await db
      .update(jobs)
      .set({
        state: 'pending',
        leaseUntil: null,
        lastError: error,
        enqueuedAt: now,
        availableAt: new Date(now.getTime() + wait),
        updatedAt: now,
      })
      .where(and(eq(jobs.id, job.id), eq(jobs.state, 'running')));
    throw err;
  }
  const redacted = kind.redact ? kind.redact(payload) : null;
  await db
    .update(jobs)
    .set({
      state: 'done',
      leaseUntil: null,
      lastError: null,
      completedAt: now,
      updatedAt: now,
      ...(redacted ? { payload: redacted, subjectId: null } : {}),
    })
    .where(and(eq(jobs.id, job.id), ne(jobs.state, 'done')));
  return 'done';
}

/**
 * Runs a job in this isolate now (for work the caller should not wait a queue round trip for,
 * e.g. an evaluation, started with `waitUntil`). A retryable failure is handed to the queue with
 * its backoff; a crash leaves the lease to expire and the sweeper to re-enqueue it.
 */
export async function runJobNow(
  db: Database,
  env: Env,
  jobId: string,
  options: RunOptions = {},
): Promise<RunOutcome | 'retrying'> {
  try {
    return await runJob(db, env, jobId, options);
  } catch (err) {
    const now = options.now ?? new Date();
    const [job] = await db.select().from(jobs).where(eq(jobs.id, jobId)).limit(1);
    log('error', 'job failed; queued for a retry', { jobId, error: describeError(err) });
    await dispatchJobs(db, env, [jobId], now, retryDelaySeconds(job?.attempts ?? 1));
    return 'retrying';
  }
}

/** Marks a job stalled (unless it is done) with the reason, and writes the audit entry, together. */
export async function stallJob(
  db: Database,
  jobId: string,
  reason: string,
  now = new Date(),
): Promise<boolean> {
  const [job] = await db
    .select({ kind: jobs.kind, state: jobs.state })
    .from(jobs)
    .where(eq(jobs.id, jobId))
    .limit(1);
  if (!job || job.state === 'done' || job.state === 'stalled') return false;
  await db.batch([
    db
      .update(jobs)
      .set({ state: 'stalled', stalledAt: now, leaseUntil: null, lastError: reason, updatedAt: now })
      .where(and(eq(jobs.id, jobId), ne(jobs.state, 'done'))),
    auditInsert(db, {
      actorId: null,
      action: 'job.stalled',
      targetType: 'job',
      targetId: jobId,
      details: { kind: job.kind, reason },
    }),
  ]);
  log('error', 'job stalled', { jobId, kind: job.kind, reason });
  return true;
}

/**
 * An administrator's retry of a stalled job: back to `pending` with a fresh deadline, then
 * enqueued. Anything but a stalled job is a 409 (a pending or running one is already on its way).
 */
export async function retryJob(
  db: Database,
  env: Pick<Env, 'JOBS_QUEUE'>,
  adminId: string,
  jobId: string,
  now = new Date(),
): Promise<JobRow> {
  const [current] = await db.select().from(jobs).where(eq(jobs.id, jobId)).limit(1);
  if (!current) throw new ProblemError('not-found', 'No job with this id.');
  if (current.state !== 'stalled')
    throw new ProblemError('conflict', `Only a stalled job can be retried; this one is ${current.state}.`);
  const maxAge = jobKind(current.kind)?.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS;
  const [[row]] = await db.batch([
    db
      .update(jobs)
      .set({
        state: 'pending',
        stalledAt: null,
        leaseUntil: null,
        enqueuedAt: null,
        availableAt: now,
        deadlineAt: new Date(now.getTime() + seconds(maxAge)),
        updatedAt: now,
      })
      .where(and(eq(jobs.id, jobId), eq(jobs.state, 'stalled')))
      .returning(),
    auditInsert(db, {
      actorId: adminId,
      action: 'job.retry',
      targetType: 'job',
      targetId: jobId,
      details: { kind: current.kind },
    }),
  ]);
  if (!row) throw new ProblemError('conflict', 'The job changed meanwhile; read it again.');
  await dispatchJobs(db, env, [jobId], now);
  return (await db.select().from(jobs).where(eq(jobs.id, jobId)).limit(1))[0] ?? row;
}

/** Jobs newest first, optionally by state and kind; fetches `limit + 1` for `toPage`. */
export async function listJobs(
  db: Database,
  filter: { state?: JobState | undefined; kind?: string | undefined },
  limit: number,
  cursor?: Position,
) {
  const after: SQL | undefined = cursor
    ? or(
        lt(jobs.createdAt, cursor.createdAt),
        and(eq(jobs.createdAt, cursor.createdAt), lt(jobs.id, cursor.id)),
      )
    : undefined;
  return db
    .select()
    .from(jobs)
    .where(
      and(
        filter.state ? eq(jobs.state, filter.state) : undefined,
        filter.kind ? eq(jobs.kind, filter.kind) : undefined,
        after,
      ),
    )
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(limit + 1);
}

/** Stalled jobs per kind (every registered kind appears, with 0 when none). */
export async function stalledCounts(db: Database, kinds: readonly string[]): Promise<Record<string, number>> {
  const rows = await db
    .select({ kind: jobs.kind, n: sql<number>`count(*)` })
    .from(jobs)
    .where(eq(jobs.state, 'stalled'))
    .groupBy(jobs.kind);
  const counts: Record<string, number> = Object.fromEntries(kinds.map((k) => [k, 0]));
  for (const r of rows) counts[r.kind] = r.n;
  return counts;
}

/** The job of a kind for a record (`ref`), if any. */
export async function jobFor(db: Database, kind: string, ref: string): Promise<JobRow | undefined> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, kind), eq(jobs.ref, ref)))
    .limit(1);
  return row;
}

export type JobView = {
  id: string;
  kind: string;
  state: JobState;
  ref: string | null;
  attempts: number;
  lastError: string | null;
  dueAt: string | null;
  deadlineAt: string;
  enqueuedAt: string | null;
  leaseUntil: string | null;
  createdAt: string;
  updatedAt: string | null;
  completedAt: string | null;
  stalledAt: string | null;
};

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** A job as an administrator sees it: never the payload (it may name the person). */
export const toJobView = (j: JobRow): JobView => ({
  id: j.id,
  kind: j.kind,
  state: j.state,
  ref: j.ref,
  attempts: j.attempts,
  lastError: j.lastError,
  dueAt: iso(j.dueAt),
  deadlineAt: j.deadlineAt.toISOString(),
  enqueuedAt: iso(j.enqueuedAt),
  leaseUntil: iso(j.leaseUntil),
  createdAt: j.createdAt.toISOString(),
  updatedAt: iso(j.updatedAt),
  completedAt: iso(j.completedAt),
  stalledAt: iso(j.stalledAt),
});
