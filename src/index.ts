import { app } from './app';
import { consumeErasureBatch } from './queue/consumer';
import { runScheduled } from './scheduled';

export { RateLimiter } from './durable/rate-limiter';

export default {
  fetch: app.fetch,
  async queue(batch, env) {
    await consumeErasureBatch(batch, env, async () => {
      throw new Error('erasure cascade is not available in this version');
    });
  },
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env>;
