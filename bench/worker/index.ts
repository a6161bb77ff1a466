/**
 * The service as `npm run bench` runs it: the production Worker (src/index.ts), its fetch
 * handler wrapped to report D1 rows read per request (./d1-stats.ts). Built by
 * bench/lib/server.mjs `buildWorker` in place of wrangler.toml's `main`; never deployed.
 *
 * Bench-only routes: `POST /__bench/verification-filter` builds the verification filter as
 * the cron does (`wrangler dev` runs no cron), so the seeded certificates are in it; `GET
 * /__hello` and `GET /__hello/page` are the hello-world (bench/hello), answered from the service's
 * own runtime: the baseline every row is compared with in the same process (decision 0292).
 */

const HELLO = '/__hello';

import { getDb } from '../../src/db/client';
import worker from '../../src/index';
import { rebuildVerificationFilter } from '../../src/services/verification-filter';
import { mountedHello } from '../hello/index';
import { withD1Stats } from './d1-stats';

export { KvCoalescer, RateLimiter } from '../../src/index';

const measured = withD1Stats(worker);

export default {
  ...measured,
  // Not async, and only a POST parses its URL: this wrapper runs on every request the bench measures.
  fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> {
    // One comparison at the path's start, paid by every request alike, rows and baseline.
    if (request.url.startsWith(HELLO, request.url.indexOf('/', 8)))
      return mountedHello.fetch(request, env, ctx);
    if (request.method === 'POST' && new URL(request.url).pathname === '/__bench/verification-filter') {
      return rebuildVerificationFilter(getDb(env.DB), env).then(
        (built) => new Response(`${built.count} numbers, ${built.bytes} bytes`),
      );
    }
    return measured.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
