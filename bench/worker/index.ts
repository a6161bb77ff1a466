/**
 * The service as `npm run bench` runs it: the production Worker (src/index.ts), its fetch
 * handler wrapped to report D1 rows read per request (./d1-stats.ts). Built by
 * bench/lib/server.mjs `buildWorker` in place of wrangler.toml's `main`; never deployed.
 *
 * One bench-only route: `POST /__bench/verification-filter` builds the verification filter as
 * the cron does (`wrangler dev` runs no cron), so the seeded certificates are in it.
 */
import { getDb } from '../../src/db/client';
import worker from '../../src/index';
import { rebuildVerificationFilter } from '../../src/services/verification-filter';
import { withD1Stats } from './d1-stats';

export { KvCoalescer, RateLimiter } from '../../src/index';

const measured = withD1Stats(worker);

export default {
  ...measured,
  // Not async, and only a POST parses its URL: this wrapper runs on every request the bench measures.
  fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> {
    if (request.method === 'POST' && new URL(request.url).pathname === '/__bench/verification-filter') {
      return rebuildVerificationFilter(getDb(env.DB), env).then(
        (built) => new Response(`${built.count} numbers, ${built.bytes} bytes`),
      );
    }
    return measured.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
