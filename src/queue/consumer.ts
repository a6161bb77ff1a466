/**
 * The queue consumers. `ERASURE_QUEUE` (queue `erasure`) carries every deferred job as
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
import { getDb } from '../db/client';
import { retryDelaySeconds } from '../domain/jobs';
import { type ErasurePayload, ensureErasureJob } from '../services/dsr/erasure';
import { describeError, isJobMessage, type RunOptions, runJob, stallJob } from '../services/jobs/jobs';
import '../services/jobs/kinds';

/** The dead-letter queue's name (wrangler.toml). */
export const DEAD_LETTER_QUEUE = 'erasure-dlq';

/** A message from before jobs existed: `{type: 'erasure', requestId, userId}`. Still honoured. */
export type LegacyErasureMessage = { type: 'erasure'; requestId: string; userId: string };

export function isLegacyErasureMessage(body: unknown): body is LegacyErasureMessage {
  if (typeof body !== 'object' || body === null) return false;
  const m = body as Record<string, unknown>;
  return m.type === 'erasure' && typeof m.requestId === 'string' && typeof m.userId === 'string';
}

const log = (level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown>) =>
  console[level === 'info' ? 'log' : level](JSON.stringify({ level, msg, ...fields }));

/** The job a message is about: its id, or the job of a legacy erasure message (created if need be). */
async function jobIdOf(env: Env, body: unknown): Promise<string | null> {
  if (isJobMessage(body)) return body.jobId;
  if (isLegacyErasureMessage(body)) {
    const payload: ErasurePayload = { requestId: body.requestId, userId: body.userId };
    return ensureErasureJob(getDb(env.DB), payload);
  }
  return null;
}

export async function consumeJobBatch(
  batch: MessageBatch,
  env: Env,
  options: RunOptions = {},
): Promise<void> {
  if (env.JOBS_PAUSED === 'true') {
    // Paused by the operator: every message goes back, to be tried again in a minute.
    batch.retryAll({ delaySeconds: 60 });
    return;
  }
  for (const message of batch.messages) {
    const jobId = await jobIdOf(env, message.body);
    if (!jobId) {
      log('warn', 'unrecognised queue message', { id: message.id });
      message.ack();
      continue;
    }
    try {
      const outcome = await runJob(env, jobId, options);
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
}

/**
 * The dead-letter consumer: a job whose message failed every retry is marked `stalled` with an
 * audit entry, so it shows in `GET /api/health` and the admin's lists until someone retries it.
 */
export async function consumeDeadLetters(batch: MessageBatch, env: Env, now = new Date()): Promise<void> {
  const db = getDb(env.DB);
  for (const message of batch.messages) {
    const jobId = await jobIdOf(env, message.body);
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
