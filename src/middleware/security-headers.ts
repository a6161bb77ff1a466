import type { HeaderBag } from './response-headers';

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

/** What the security headers of a response depend on besides the response's own headers. */
export type SecurityInputs = {
  /** Our request id (`X-Request-Id`). */
  requestId: string | undefined;
  /** The client's own `X-Request-Id`, echoed as `X-Client-Request-Id` when well formed. */
  clientRequestId: string | undefined;
  /** An authenticated answer (a session user or an API key): never stored by a cache. */
  personal: boolean;
};

/**
 * The security headers and the request id, added to a response's headers: the one set of rules,
 * applied by the middleware to a finished response or by `finishedResponse` before the response
 * is built (src/middleware/response-headers.ts).
 */
export function applySecurityHeaders(h: HeaderBag, inputs: SecurityInputs): void {
  for (const [name, value] of ALWAYS) h.set(name, value);
  if (inputs.requestId) h.set('X-Request-Id', inputs.requestId);
  if (inputs.clientRequestId && CLIENT_REQUEST_ID.test(inputs.clientRequestId))
    h.set('X-Client-Request-Id', inputs.clientRequestId);
  // Authenticated answers and anything that sets a cookie are personal: never stored by a
  // browser or shared cache, whatever the handler said.
  if (inputs.personal || h.has('Set-Cookie')) h.set('Cache-Control', 'no-store');
  if (!h.has('Cross-Origin-Resource-Policy')) h.set('Cross-Origin-Resource-Policy', 'same-origin');
  let csp = h.get('Content-Security-Policy');
  if (csp === null) {
    csp = JSON_CSP;
    h.set('Content-Security-Policy', csp);
  }
  if (!h.has('X-Frame-Options') && !ALLOWS_FRAMING.test(csp)) h.set('X-Frame-Options', 'DENY');
}
