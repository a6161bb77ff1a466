import type { MiddlewareHandler } from 'hono';
import { type HeaderBag, isFinished } from '../lib/response-headers';
import type { AppBindings } from '../lib/types';

/**
 * The public reads any web page may call, with any of the headers below: certificate
 * verification, the leaderboard, the agreement rate, published briefs, the signing keys, consent
 * notices, problem types, this API's own document and changelog. GET only: the authenticated
 * writes that share some of these paths (`POST /api/briefs`) are never granted cross-origin.
 */
const PUBLIC_READS: readonly RegExp[] = [
  /^\/api\/verify\/[^/]+$/,
  /^\/api\/leaderboard$/,
  /^\/api\/public\/agreement-rate$/,
  /^\/api\/briefs$/,
  /^\/api\/briefs\/[^/]+$/,
  /^\/\.well-known\/jwks\.json$/,
  /^\/api\/consent\/notices\/[^/]+$/,
  /^\/problems\/[^/]+$/,
  /^\/openapi\.yaml$/,
  /^\/changelog$/,
];

export const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers': 'Accept, Content-Type, If-None-Match, X-Request-Id',
  'Access-Control-Max-Age': '86400',
} as const;

/** Headers a cross-origin page may read on a public read's response. */
const EXPOSED = 'ETag, X-Request-Id, RateLimit, RateLimit-Policy, Retry-After';

export const isPublicRead = (path: string) => PUBLIC_READS.some((re) => re.test(path));

/** A public read's CORS headers, added to its response's headers (any origin, the exposed ones). */
export function applyPublicCors(h: HeaderBag): void {
  if (!h.has('Access-Control-Allow-Origin')) h.set('Access-Control-Allow-Origin', '*');
  h.set('Access-Control-Expose-Headers', EXPOSED);
}

/**
 * CORS for the public reads: a preflight (`OPTIONS` with `Access-Control-Request-Method`) is a
 * 204 with the allowed methods and headers, so browser integrations may send `If-None-Match` or
 * `X-Request-Id`; the reads themselves allow any origin (no credentials: `*` never carries
 * cookies). Everything else keeps the default: no CORS, and `OPTIONS` is a 405.
 */
export function publicCors(): MiddlewareHandler<AppBindings> {
  return async (c, next) => {
    const method = c.req.method;
    if (method !== 'OPTIONS' && method !== 'GET' && method !== 'HEAD') return next();
    if (!isPublicRead(c.req.path)) return next();
    if (method === 'OPTIONS') {
      return c.body(null, 204, { ...PREFLIGHT_HEADERS, Vary: 'Origin' });
    }
    c.set('publicRead', true);
    await next();
    if (!isFinished(c)) applyPublicCors(c.res.headers);
  };
}
