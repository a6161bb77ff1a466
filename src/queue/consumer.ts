/**
 * `ERASURE_QUEUE` consumer. Messages are validated before anything acts on them; a message
 * this version does not understand is acknowledged and logged rather than retried forever.
 */
export type ErasureMessage = { type: 'erasure'; requestId: string; userId: string };

export function isErasureMessage(body: unknown): body is ErasureMessage {
  if (typeof body !== 'object' || body === null) return false;
  const m = body as Record<string, unknown>;
  return m.type === 'erasure' && typeof m.requestId === 'string' && typeof m.userId === 'string';
}

export type ErasureHandler = (message: ErasureMessage, env: Env) => Promise<void>;

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
    try {
      await handle(message.body, env);
      message.ack();
    } catch (err) {
      console.error(
        JSON.stringify({ level: 'error', msg: 'erasure step failed', id: message.id, error: String(err) }),
      );
      // Exponential backoff; after max_retries the message goes to the dead-letter queue.
      message.retry({ delaySeconds: Math.min(600, 10 * 2 ** message.attempts) });
    }
  }
}
