/**
 * The service as `npm run bench` runs it: the production Worker (src/index.ts), its fetch
 * handler wrapped to report D1 rows read per request (./d1-stats.ts). Built by
 * bench/lib/server.mjs `buildWorker` in place of wrangler.toml's `main`; never deployed.
 */
import worker from '../../src/index';
import { withD1Stats } from './d1-stats';

export { KvCoalescer, RateLimiter } from '../../src/index';

export default withD1Stats(worker);
