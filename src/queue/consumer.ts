/**
 * The queue consumers. `JOBS_QUEUE` (queue `erasure`) carries every deferred job as
 * `{ jobId }` (src/services/jobs/); its dead-letter queue `erasure-dlq` gets the messages that
 * failed `max_retries` times (wrangler.toml).
 *
 * Messages are validated before anything acts on them; a message this version does not
 * understand is acknowledged and logged rather than retried forever. Each message is
 * acknowledged on its own, so one failing job does not hold back the others in the batch. A
 * failure asks for a retry with exponential backoff; the job resumes where it stopped.
 *
 * Logs carry message and job ids, never a user id, and errors as the database reported them
 * (Drizzle's wrapper quotes the statement's parameters).
 */
import { type Database, getDb } from '../db/client';
import { retryDelaySeconds } from '../domain/jobs';
import { type ErasurePayload, ensureErasureJob } from '../services/dsr/erasure';
import {
  describeError,
  isJobMessage,
  type RunOptions,
  runJob,
  serialChain,
  stallJob,
} from '../services/jobs/jobs';
import '../services/jobs/kinds';
import { log } from '../lib/log';

/** The dead-letter queue's name (wrangler.toml). */
export const DEAD_LETTER_QUEUE = 'erasure-dlq';

/**
 * Deliveries of one message a paused consumer puts back before leaving its job to the sweeper:
 * below the queue's `max_retries` (5, wrangler.toml), so a pause never dead-letters a job.
 */
export const PAUSED_REDELIVERIES = 3;

/** A message from before jobs existed: `{type: 'erasure', requestId, userId}`. Still honoured. */
export type LegacyErasureMessage = { type: 'erasure'; requestId: string; userId: string };

export function isLegacyErasureMessage(body: unknown): body is LegacyErasureMessage {
  if (typeof body !== 'object' || body === null) return false;
  const m = body as Record<string, unknown>;
  return m.type === 'erasure' && typeof m.requestId === 'string' && typeof m.userId === 'string';
}

/** The job a message is about: its id, or the job of a legacy erasure message (created if need be). */
async function jobIdOf(db: Database, body: unknown): Promise<string | null> {
  if (isJobMessage(body)) return body.jobId;
  if (isLegacyErasureMessage(body)) {
    const payload: ErasurePayload = { requestId: body.requestId, userId: body.userId };
    return ensureErasureJob(db, payload);
  }
  return null;
}

export async function consumeJobBatch(
  batch: MessageBatch,
  env: Env,
  options: RunOptions = {},
): Promise<void> {
  if (env.JOBS_PAUSED === 'true') {
    // Paused by the operator: a message goes back, to be tried again in a minute, a few times;
    // then it is acknowledged and the job left `pending` for the sweeper to enqueue again once
    // its lease has passed. A retry counts towards the queue's `max_retries`, so putting every
    // message back for as long as the pause lasts would dead-letter (stall) every job after five
    // minutes of it.
    for (const message of batch.messages) {
      if (message.attempts < PAUSED_REDELIVERIES) message.retry({ delaySeconds: 60 });
      else message.ack();
    }
    return;
  }
  // The messages of a batch run side by side: one slow job (a webhook receiver that takes its
  // whole timeout, a DNS lookup that hangs) must not hold back the others in its batch.
  // Work that must not overlap (export builds) queues on this batch's own chain.
  const batchOptions: RunOptions = { serial: serialChain(), ...options };
  const db = getDb(env.DB);
  await Promise.all(batch.messages.map((message) => consumeOne(db, message, env, batchOptions)));
}

async function consumeOne(db: Database, message: Message, env: Env, options: RunOptions): Promise<void> {
  let jobId: string | null = null;
  try {
    jobId = await jobIdOf(db, message.body);
    if (!jobId) {
      log('warn', 'unrecognised queue message', { id: message.id });
      message.ack();
      return;
    }
    const outcome = await runJob(db, env, jobId, options);
    message.ack();
    log('info', 'job delivery handled', { id: message.id, jobId, outcome });
  } catch (err) {
    const delaySeconds = retryDelaySeconds(message.attempts);
    log('error', 'job failed; retrying', {
      id: message.id,
      jobId,
      attempts: message.attempts,
      delaySeconds,
      error: describeError(err),
    });
    message.retry({ delaySeconds });
  }
}

/**
 * The dead-letter consumer: a job whose message failed every retry is marked `stalled` with an
 * audit entry, so it shows in `GET /api/health` and the admin's lists until someone retries it.
 */
export async function consumeDeadLetters(batch: MessageBatch, env: Env, now = new Date()): Promise<void> {
  const db = getDb(env.DB);
  for (const message of batch.messages) {
    const jobId = await jobIdOf(db, message.body);
    if (jobId) {
      const reason = `Dead-lettered after ${message.attempts} deliveries.`;
      await stallJob(db, jobId, reason, now);
      log('error', 'job dead-lettered', { id: message.id, jobId });
    } else {
      log('warn', 'unrecognised dead letter', { id: message.id });
    }
    message.ack();
  }
}
