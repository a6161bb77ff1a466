/**
 * `ERASURE_QUEUE` consumer. Messages are validated before anything acts on them; a message
 * this version does not understand is acknowledged and logged rather than retried forever.
 *
 * Each message is acknowledged on its own once its cascade has finished, so one failing
 * request does not hold back the others in the batch. A failure asks for a retry with
 * exponential backoff; the cascade resumes where it stopped (see src/services/dsr/erasure.ts).
 * After `max_retries` (wrangler.toml) the queue moves the message to the `erasure-dlq`
 * dead-letter queue, and its receipt stays `in_progress` until an operator replays it.
 *
 * Logs carry the message and request ids, never the user id. Drizzle's query errors quote the
 * statement's parameters (which include the user id and email), so only their cause, the
 * database's own message, is logged.
 */
export type ErasureMessage = { type: 'erasure'; requestId: string; userId: string };

export function isErasureMessage(body: unknown): body is ErasureMessage {
  if (typeof body !== 'object' || body === null) return false;
  const m = body as Record<string, unknown>;
  return m.type === 'erasure' && typeof m.requestId === 'string' && typeof m.userId === 'string';
}

export type ErasureHandler = (message: ErasureMessage, env: Env) => Promise<unknown>;

/** Seconds before the next attempt: 20 s, 40 s, 80 s… capped at 10 minutes. */
export const retryDelaySeconds = (attempts: number) => Math.min(600, 10 * 2 ** attempts);

/** The database's message rather than Drizzle's wrapper, which quotes parameters. */
const describe = (err: unknown) =>
  err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);

export async function consumeErasureBatch(
  batch: MessageBatch,
  env: Env,
  handle: ErasureHandler,
): Promise<void> {
  for (const message of batch.messages) {
    if (!isErasureMessage(message.body)) {
      console.warn(JSON.stringify({ level: 'warn', msg: 'unrecognised queue message', id: message.id }));
      message.ack();
      continue;
    }
    const { requestId } = message.body;
    try {
      await handle(message.body, env);
      message.ack();
      console.log(JSON.stringify({ level: 'info', msg: 'erasure completed', id: message.id, requestId }));
    } catch (err) {
      const delaySeconds = retryDelaySeconds(message.attempts);
      console.error(
        JSON.stringify({
          level: 'error',
          msg: 'erasure step failed; retrying',
          id: message.id,
          requestId,
          attempts: message.attempts,
          delaySeconds,
          error: describe(err),
        }),
      );
      message.retry({ delaySeconds });
    }
  }
}
