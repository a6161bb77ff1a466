import type { HeaderBag } from './response-headers';

/**
 * The public reads any web page may call, with any of the headers below: certificate
 * verification, the documents a credential points to (`/ob/…`: keys, issuer profiles,
 * achievements, status lists) and baked badges, the leaderboard, the agreement rate, published briefs, the signing keys, consent
 * notices, problem types, this API's own document and changelog. GET only: the authenticated
 * writes that share some of these paths (`POST /api/briefs`) are never granted cross-origin.
 */
const PUBLIC_READS =
  /^(?:\/api\/verify\/[^/]+|\/api\/certificates\/[^/]+\/badge\.(?:svg|png)|\/ob\/(?:keys|issuers|achievements)\/[^/]+|\/ob\/status-lists\/[^/]+\/[^/]+|\/api\/leaderboard|\/api\/public\/agreement-rate|\/api\/briefs(?:\/[^/]+)?|\/\.well-known\/jwks\.json|\/api\/consent\/notices\/[^/]+|\/problems\/[^/]+|\/openapi\.yaml|\/changelog)$/;

export const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers': 'Accept, Content-Type, If-None-Match, X-Request-Id',
  'Access-Control-Max-Age': '86400',
} as const;

/** Headers a cross-origin page may read on a public read's response. */
const EXPOSED = 'ETag, X-Request-Id, RateLimit, RateLimit-Policy, Retry-After';

/** One expression, not a list of them: every request asks (issue 18: 4 % of a verification hit). */
export const isPublicRead = (path: string) => PUBLIC_READS.test(path);

/** A public read's CORS headers, added to its response's headers (any origin, the exposed ones). */
export function applyPublicCors(h: HeaderBag): void {
  if (!h.has('Access-Control-Allow-Origin')) h.set('Access-Control-Allow-Origin', '*');
  h.set('Access-Control-Expose-Headers', EXPOSED);
}

/**
 * CORS for the public reads: a preflight (`OPTIONS` with `Access-Control-Request-Method`) is a
 * 204 with the allowed methods and headers, so browser integrations may send `If-None-Match` or
 * `X-Request-Id`; the reads themselves allow any origin (no credentials: `*` never carries
 * cookies). Everything else keeps the default: no CORS, and `OPTIONS` is a 405. Applied by the
 * request envelope (src/middleware/envelope.ts): this says which case a request is.
 */
export function corsCase(method: string, path: string): 'preflight' | 'read' | null {
  if (method !== 'OPTIONS' && method !== 'GET' && method !== 'HEAD') return null;
  if (!isPublicRead(path)) return null;
  return method === 'OPTIONS' ? 'preflight' : 'read';
}

/** The answer to a public read's preflight. */
export const PREFLIGHT_RESPONSE_HEADERS = { ...PREFLIGHT_HEADERS, Vary: 'Origin' } as const;
