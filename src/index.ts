import { app } from './app';
import { consumeErasureBatch } from './queue/consumer';
import { runScheduled } from './scheduled';
import { runErasureCascade } from './services/dsr/erasure';

export { RateLimiter } from './durable/rate-limiter';

export default {
  fetch: app.fetch,
  async queue(batch, env) {
    await consumeErasureBatch(batch, env, (message) => runErasureCascade(message, env));
  },
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env>;
