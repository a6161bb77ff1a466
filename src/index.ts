import { app } from './app';
import { consumeDeadLetters, consumeJobBatch, DEAD_LETTER_QUEUE } from './queue/consumer';
import { runScheduled } from './scheduled';

export { KvCoalescer } from './durable/kv-coalescer';
export { RateLimiter } from './durable/rate-limiter';

export default {
  fetch: app.fetch,
  async queue(batch, env) {
    if (batch.queue === DEAD_LETTER_QUEUE) await consumeDeadLetters(batch, env);
    else await consumeJobBatch(batch, env);
  },
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env>;
