import type { MiddlewareHandler } from 'hono';

/** Restrictive by default: a JSON API needs no scripts, frames or referrers. Routes that serve HTML set their own CSP. */
export const JSON_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    h.set('X-Content-Type-Options', 'nosniff');
    h.set('Referrer-Policy', 'no-referrer');
    h.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
    h.set('Cross-Origin-Resource-Policy', h.get('Cross-Origin-Resource-Policy') ?? 'same-origin');
    if (!h.has('Content-Security-Policy')) h.set('Content-Security-Policy', JSON_CSP);
    if (
      !h.has('X-Frame-Options') &&
      !/frame-ancestors (?!'none')/.test(h.get('Content-Security-Policy') ?? '')
    ) {
      h.set('X-Frame-Options', 'DENY');
    }
  };
}
