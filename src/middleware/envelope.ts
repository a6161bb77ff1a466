import type { Context, MiddlewareHandler } from 'hono';
import { useLogLevel } from '../lib/log';
import type { AppBindings } from '../middleware/context';
import { checkBaseUrl } from '../services/deployment-checks';
import { applyPublicCors, corsCase, PREFLIGHT_RESPONSE_HEADERS } from './public-cors';
import { isFinished } from './response-headers';
import { applySecurityHeaders, type SecurityInputs } from './security-headers';
import { databaseFor, engineFor } from './services';

/** What the security headers of this request's response depend on besides its own headers. */
function securityInputs(c: Context<AppBindings>): SecurityInputs {
  return {
    requestId: c.get('requestId'),
    clientRequestId: c.req.header('X-Request-Id'),
    personal: Boolean(c.get('user') || c.get('apiKey')),
  };
}

/**
 * What every request gets, in one middleware (one layer of the chain, not five: each costs every
 * request, the public hot paths included):
 *
 * - **Our own request id** (`c.var.requestId`, a random UUID): a client-chosen `X-Request-Id`
 *   is never adopted (it would let anyone forge or collide log correlation); a well-formed one is
 *   echoed as `X-Client-Request-Id` instead.
 * - **The base-URL check**, once per isolate: a mismatch is logged (GET /api/health shows it).
 * - **The services** every handler reaches for: `c.var.db`, `c.var.engine`.
 * - **CORS for the public reads**: a preflight is answered here (204); a read is marked
 *   (`c.var.publicRead`) and its response gets `Access-Control-Allow-Origin: *` and the exposed
 *   headers.
 * - **405 with `Allow`** for a path that has routes, none for this method.
 * - **Security headers and `X-Request-Id` on every response**, problems included (problem
 *   responses are built outside the context, so they are set on whatever goes out).
 *
 * A response the hot paths built with all of this already (`finishedResponse`) is left alone.
 */
export function requestEnvelope(options: {
  /** Answers a 404 whose path has routes for other methods with a 405 (./method-not-allowed.ts). */
  methodNotAllowed: (c: Context<AppBindings>) => void;
}): MiddlewareHandler<AppBindings> {
  return async (c, next) => {
    // The app may be called without the Worker's entry (tests, another entry): take the level here too.
    useLogLevel(c.env.LOG_LEVEL);
    c.set('requestId', crypto.randomUUID());
    checkBaseUrl(c.env.PUBLIC_BASE_URL, c.req.url);
    const cors = corsCase(c.req.method, c.req.path);
    if (cors === 'preflight') {
      const res = c.body(null, 204, PREFLIGHT_RESPONSE_HEADERS);
      applySecurityHeaders(res.headers, securityInputs(c));
      return res;
    }
    if (cors === 'read') c.set('publicRead', true);
    c.set('db', databaseFor(c.env.DB));
    c.set('engine', engineFor(c.env));
    await next();
    if (isFinished(c)) return;
    options.methodNotAllowed(c);
    const h = c.res.headers;
    if (cors === 'read') applyPublicCors(h);
    applySecurityHeaders(h, securityInputs(c));
  };
}
