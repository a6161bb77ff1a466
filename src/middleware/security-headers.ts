import type { MiddlewareHandler } from 'hono';
import type { AppBindings } from '../lib/types';

/** Restrictive by default: a JSON API needs no scripts, frames or referrers. Routes that serve HTML set their own CSP. */
export const JSON_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The same on every response; kept as one list so a response costs one pass over it. */
const ALWAYS: readonly (readonly [string, string])[] = [
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=63072000; includeSubDomains'],
];

/** What a client's own `X-Request-Id` must look like to be echoed back (as `X-Client-Request-Id`). */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A CSP that lets some origin frame the page (the embeddable leaderboard: `frame-ancestors *`). */
const ALLOWS_FRAMING = /frame-ancestors (?!'none')/;

/**
 * Security headers on every response, problems included, plus the request id (problem
 * responses are built outside the context, so it is set on whatever goes out). One
 * middleware for both: these run on every request, the public hot paths included.
 */
export function securityHeaders(): MiddlewareHandler<AppBindings> {
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    for (const [name, value] of ALWAYS) h.set(name, value);
    const requestId = c.get('requestId');
    if (requestId) h.set('X-Request-Id', requestId);
    const clientRequestId = c.req.header('X-Request-Id');
    if (clientRequestId && CLIENT_REQUEST_ID.test(clientRequestId))
      h.set('X-Client-Request-Id', clientRequestId);
    // Authenticated answers and anything that sets a cookie are personal: never stored by a
    // browser or shared cache, whatever the handler said.
    if (c.get('user') || c.get('apiKey') || h.has('Set-Cookie')) h.set('Cache-Control', 'no-store');
    if (!h.has('Cross-Origin-Resource-Policy')) h.set('Cross-Origin-Resource-Policy', 'same-origin');
    let csp = h.get('Content-Security-Policy');
    if (csp === null) {
      csp = JSON_CSP;
      h.set('Content-Security-Policy', csp);
    }
    if (!h.has('X-Frame-Options') && !ALLOWS_FRAMING.test(csp)) h.set('X-Frame-Options', 'DENY');
  };
}
